/**
 * Messaging's writers per room, around platform's recorder (write-path.ts): each room has one queue, drained by one
 * loop that takes its sends as batches and runs every other command alone between them (messaging-service.ts). Here
 * is what a room's writes share: its last sequence number, whether its read model can be trusted after a failed write
 * ("uncertain"), the batch in flight that its reads wait for, and the events applied on the command path (so that our
 * own-events consumer skips them).
 */
import type { Pool, RecordHooks, Subscription } from '@ephemera/platform';
import { lastMessageSeq } from './messages-repository.ts';

/** A room's queued work: a batch of sends, or one command. */
export type RoomWork<S> = { kind: 'send'; send: S } | { kind: 'command'; run: () => Promise<void> };

/** Upper bound of one batch: keeps one append and one transaction reasonably sized. */
const MAX_BATCH = 256;

export class RoomWrites<S> {
  private readonly queues = new Map<string, RoomWork<S>[]>();
  private readonly lastSeq = new Map<string, number>();
  /** rooms whose last write failed: their sequence must be re-read from the caught-up read model */
  private readonly uncertain = new Set<string>();
  /**
   * A room's batch of sends from its append until its read-model write is done: reads of that room wait for it. From
   * the append on, not from the answer: a gateway acknowledges a send as soon as its message is in the log
   * (gateway/src/sent-acks.ts), which can be before our append returns.
   */
  private readonly writing = new Map<string, Promise<void>>();
  /** ids of events this process applied itself, so its own-events consumer need not apply them again */
  private readonly appliedHere = new Set<string>();
  /** set by the module: the projection of our own events, to recover after a failed write */
  ownProjection: Subscription | null = null;

  constructor(
    private readonly pool: Pool,
    /** one batch of a room's sends; when it throws, every send of the batch is refused with its error */
    private readonly sendBatch: (workspaceId: string, batch: S[]) => Promise<void>,
    private readonly refuse: (send: S, err: unknown) => void,
  ) {}

  enqueue(workspaceId: string, work: RoomWork<S>): void {
    const queue = this.queues.get(workspaceId);
    if (queue) {
      queue.push(work);
      return;
    }
    this.queues.set(workspaceId, [work]);
    void this.drain(workspaceId);
  }

  /** The room's single writer: runs while its queue has work, one batch of sends (or one other command) at a time. */
  private async drain(workspaceId: string): Promise<void> {
    const queue = this.queues.get(workspaceId)!;
    try {
      while (queue.length > 0) {
        const first = queue[0]!;
        if (first.kind === 'command') {
          queue.shift();
          await first.run();
          continue;
        }
        let n = 1;
        while (n < queue.length && n < MAX_BATCH && queue[n]!.kind === 'send') n += 1;
        const batch = queue.splice(0, n).map((w) => (w as { send: S }).send);
        await this.sendBatch(workspaceId, batch).catch((err) => {
          for (const s of batch) this.refuse(s, err);
        });
      }
    } finally {
      this.queues.delete(workspaceId);
    }
  }

  /** After a failed write our read model is trusted again only once it has caught up with our own events. */
  async trustReadModel(workspaceId: string): Promise<void> {
    if (!this.uncertain.has(workspaceId)) return;
    await this.ownProjection?.caughtUp();
    this.uncertain.delete(workspaceId);
    this.lastSeq.delete(workspaceId);
  }

  /**
   * How a room's writes observe the recorder. The events may or may not be in the log when an append fails (an
   * append can fail after the broker has them), and durable events whose apply failed are not in the read model yet:
   * either way the room becomes uncertain, and its next write and reads first wait for our projection of the log, so
   * a retry dedupes and numbering continues after what is really there.
   */
  hooks(workspaceId: string): Required<Pick<RecordHooks, 'appendFailed' | 'applied' | 'notApplied'>> {
    const becomeUncertain = () => {
      this.uncertain.add(workspaceId);
      this.lastSeq.delete(workspaceId);
    };
    return {
      appendFailed: becomeUncertain,
      notApplied: becomeUncertain,
      applied: (events) => {
        for (const e of events) this.appliedHere.add(e.id);
        if (this.appliedHere.size > 50_000) this.appliedHere.clear(); // a cache: the consumer falls back to applyOnce
      },
    };
  }

  /** The room's batch is in flight until the returned function is called (settled() waits for it). */
  writeStarted(workspaceId: string): () => void {
    let done!: () => void;
    const finished = new Promise<void>((resolve) => {
      done = resolve;
    });
    this.writing.set(workspaceId, finished);
    return () => {
      if (this.writing.get(workspaceId) === finished) this.writing.delete(workspaceId);
      done();
    };
  }

  /**
   * Read your writes: a message that was acknowledged is in the read model before any read of its room (also
   * admin-messaging.ts). A read during a batch's append waits for the batch: its sends may be acknowledged already.
   */
  async settled(workspaceId: string): Promise<void> {
    await this.writing.get(workspaceId);
    if (this.uncertain.has(workspaceId)) await this.ownProjection?.caughtUp(); // a failed apply: the consumer has it
  }

  /** The room's last message sequence number (read once from the read model, then kept here). */
  async currentSeq(workspaceId: string): Promise<number> {
    const cached = this.lastSeq.get(workspaceId);
    if (cached !== undefined) return cached;
    const seq = await lastMessageSeq(this.pool, workspaceId);
    this.lastSeq.set(workspaceId, seq);
    return seq;
  }

  /** The room's numbering continues after `seq` (its batch is durable). */
  appended(workspaceId: string, seq: number): void {
    this.lastSeq.set(workspaceId, seq);
  }

  /** True once for an event this process applied on the command path (the consumer then skips it). */
  takeAppliedHere(eventId: string): boolean {
    return this.appliedHere.delete(eventId);
  }

  forgetWorkspace(workspaceId: string): void {
    this.lastSeq.delete(workspaceId);
  }
}
