/**
 * A Kafka consumer's positions, committed in the background instead of after every fetched batch.
 *
 * kafkajs' autoCommit sends an OffsetCommit after each batch. At chat rates a batch is one record, and every
 * service runs one to three consumer groups, so each sent message cost the broker (and each consumer) several
 * commits, each a write to __consumer_offsets. Here a subscription commits what its handler finished at most every
 * `intervalMs`, at once when asked (caughtUp waits for committed positions, so it asks), and when it stops.
 *
 * Nothing changes for delivery guarantees: only positions whose handler resolved are committed, so a crash or a
 * rebalance redelivers at most the records handled since the last commit, and every handler here is idempotent
 * (applyOnce, or a fan-out a client dedupes by message id).
 */
import type { Consumer } from 'kafkajs';
import type { Logger } from '../log.ts';
import { fromPartitionId } from './topic-offsets.ts';

export interface OffsetCommitterOptions {
  consumer: Consumer;
  groupId: string;
  logger: Logger;
  /** the longest a handled position waits before it is committed */
  intervalMs: number;
  /** the next offset to handle per partitionId (topic-offsets.ts), kept by the subscription as its handler resolves */
  handledUpTo: Map<string, bigint>;
  /** the partitions this member owns now (others' positions are not ours to commit after a rebalance) */
  owns: (topic: string, partition: number) => boolean;
}

export class OffsetCommitter {
  private readonly committed = new Map<string, bigint>();
  private readonly timer: NodeJS.Timeout;
  /** the commit in flight, and whether another must follow it (a caller asked while it ran) */
  private running: Promise<void> | null = null;
  private again: Promise<void> | null = null;

  constructor(private readonly opts: OffsetCommitterOptions) {
    this.timer = setInterval(() => {
      this.commit().catch(() => {});
    }, opts.intervalMs);
    this.timer.unref();
  }

  /**
   * Commits every position handled before this call. Concurrent callers share the commit in flight and at most one
   * more after it, so a caller always sees its own positions committed when the promise resolves.
   */
  commit(): Promise<void> {
    if (!this.running) {
      this.running = this.commitOnce().finally(() => {
        this.running = null;
      });
      return this.running;
    }
    this.again ??= this.running
      .catch(() => {})
      .then(() => {
        this.again = null;
        return this.commit();
      });
    return this.again;
  }

  /**
   * The group's positions as the broker has them. kafkajs skips a commit without an error while its consumer
   * restarts (after a broker outage, say); a position the broker lacks is committed again by the next commit.
   */
  reconcile(brokerCommitted: Map<string, bigint>): void {
    for (const [id, mine] of this.committed) {
      if ((brokerCommitted.get(id) ?? -1n) < mine) this.committed.delete(id);
    }
  }

  /** Stops the timer and commits what is left (the consumer is disconnected after this). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.commit().catch((err) =>
      this.opts.logger.warn({ err, groupId: this.opts.groupId }, 'final offset commit failed'),
    );
  }

  private async commitOnce(): Promise<void> {
    const pending: { topic: string; partition: number; offset: string; id: string; next: bigint }[] = [];
    for (const [id, next] of this.opts.handledUpTo) {
      if ((this.committed.get(id) ?? -1n) >= next) continue;
      const { topic, partition } = fromPartitionId(id);
      if (!this.opts.owns(topic, partition)) continue;
      pending.push({ topic, partition, offset: next.toString(), id, next });
    }
    if (pending.length === 0) return;
    try {
      await this.opts.consumer.commitOffsets(
        pending.map(({ topic, partition, offset }) => ({ topic, partition, offset })),
      );
    } catch (err) {
      // Mostly a rebalance in progress: the partitions' new owner starts from the last committed position.
      this.opts.logger.debug({ err, groupId: this.opts.groupId }, 'offset commit refused; the next one retries');
      throw err;
    }
    for (const { id, next } of pending) {
      if ((this.committed.get(id) ?? -1n) < next) this.committed.set(id, next);
    }
  }
}
