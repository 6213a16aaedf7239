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

  get(ws: { id: string; lastSeq: number }, read: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const cached = this.entries.get(ws.id);
    if (cached && cached.seq === ws.lastSeq && now - cached.at < this.maxAgeMs) return cached.value;
    const value = read();
    const entry = { seq: ws.lastSeq, at: now, value };
    this.entries.delete(ws.id);
    if (this.entries.size >= this.rooms) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(ws.id, entry);
    value.catch(() => {
      if (this.entries.get(ws.id) === entry) this.entries.delete(ws.id);
    });
    return value;
  }
}
