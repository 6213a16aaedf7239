/**
 * Per-room values read at the room's lastSeq, reused while it stays the same (repository.ts membersAt and
 * channelsAt say why that is safe: every room event moves lastSeq in the transaction that applies it).
 *
 * Joins that arrive together (a class opening the room, a gateway replica's sockets reconnecting) share one read:
 * the entry holds the read in flight, and a caller at the same lastSeq waits for it. A read that fails is not kept.
 * At most `rooms` rooms are kept (the one filled first goes first), each for at most `maxAgeMs`, which covers a read
 * model replaced under a running process (a restore).
 */
export class AtSeqCache<T> {
  private readonly entries = new Map<string, { seq: number; at: number; value: Promise<T> }>();

  constructor(
    private readonly rooms: number,
    private readonly maxAgeMs: number,
  ) {}

  /**
   * The value at `ws.lastSeq`: the kept one, or `read()`. `advance`, when given, is asked first for a kept value at an
   * older lastSeq: it answers the newer value built from that one (a few rows read instead of all), or null when it
   * cannot (then `read`). An advanced entry keeps its first read's time, so the age bound still ends it.
   */
  get(
    ws: { id: string; lastSeq: number },
    read: () => Promise<T>,
    advance?: (older: { seq: number; value: Promise<T> }) => Promise<T> | null,
  ): Promise<T> {
    const now = Date.now();
    const cached = this.entries.get(ws.id);
    if (cached && now - cached.at < this.maxAgeMs) {
      if (cached.seq === ws.lastSeq) return cached.value;
      const advanced = cached.seq < ws.lastSeq ? advance?.(cached) : null;
      if (advanced) return this.keep(ws, cached.at, advanced);
    }
    return this.keep(ws, now, read());
  }

  private keep(ws: { id: string; lastSeq: number }, at: number, value: Promise<T>): Promise<T> {
    const entry = { seq: ws.lastSeq, at, value };
    this.entries.delete(ws.id);
    if (this.entries.size >= this.rooms) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(ws.id, entry);
    value.catch(() => {
      if (this.entries.get(ws.id) === entry) this.entries.delete(ws.id);
    });
    return value;
  }
}

/**
 * The member.joined events this process recorded, by room and sequence number. A sequence number names one event of
 * one room, so when every number between a kept value's lastSeq and the room's current one is a join noted here,
 * nothing else happened to the room in between: the kept member list gains those members (and nothing else changes),
 * the kept channel list stays as it is. A number this process did not record (another replica's command, an
 * append whose outcome was unknown) is missing, and the caller reads everything again. At most `rooms` rooms, each with at most
 * MAX_NOTED_PER_ROOM numbers, are kept.
 */
export class AppliedJoins {
  private readonly rooms = new Map<string, Map<number, string>>();
  constructor(private readonly maxRooms: number) {}

  note(workspaceId: string, seq: number, userId: string): void {
    let seqs = this.rooms.get(workspaceId);
    if (!seqs) {
      if (this.rooms.size >= this.maxRooms) this.rooms.delete(this.rooms.keys().next().value!);
      seqs = new Map();
      this.rooms.set(workspaceId, seqs);
    }
    if (seqs.size >= MAX_NOTED_PER_ROOM) seqs.clear();
    seqs.set(seq, userId);
  }

  /** The users who joined at after+1 .. upTo, in order, or null unless every one of those numbers is a noted join. */
  between(workspaceId: string, after: number, upTo: number): string[] | null {
    const seqs = this.rooms.get(workspaceId);
    if (!seqs || upTo - after > seqs.size) return null;
    const users: string[] = [];
    for (let seq = after + 1; seq <= upTo; seq++) {
      const userId = seqs.get(seq);
      if (userId === undefined) return null;
      users.push(userId);
    }
    for (const seq of seqs.keys()) if (seq <= after) seqs.delete(seq); // older numbers are not asked for again
    return users;
  }
}
const MAX_NOTED_PER_ROOM = 10_000;
