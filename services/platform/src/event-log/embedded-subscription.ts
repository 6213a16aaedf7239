/**
 * The embedded event log's subscription (embedded.ts holds the log and its writer): a loop that reads rows after
 * its group's position and hands them to the handler in order, taking the records this process appended from memory
 * when it is exactly up to them and reading the table otherwise; the position committed at most once a second and at
 * stop (at-least-once; consumers dedupe by event id). Apart from the writer because the two meet only at the
 * committed batches the writer announces.
 */
import type { EventEmitter } from 'node:events';
import { parseEnvelope, type Topic } from '@ephemera/proto';
import type { Pool } from '../pg.ts';
import type { LogRecord, SubscribeOptions, Subscription, Delivery } from './port.ts';
import { registerLagSource } from '../metrics-consumer-lag.ts';
import { embeddedLag } from './lag.ts';

const BATCH = 500;
const POLL_MS = 1000;
const COMMIT_EVERY_MS = 1000;

/** a row of event_log as the consumer reads it (pg gives bigint as a string) */
interface EventLogRow {
  position: string;
  topic: Topic;
  key: string;
  event: unknown;
  headers: Record<string, string>;
}
/** One committed write, as subscriptions receive it: everything in (after, last] that this process appended. */
export interface CommittedBatch {
  after: bigint;
  last: bigint;
  rows: { position: bigint; record: LogRecord }[];
}

export class EmbeddedSubscription implements Subscription {
  /** last record handed to the handler (committed as the group's position) */
  private position = 0n;
  /** every committed record at or below this was handed over or is not ours: memory batches after it are safe */
  private expected = -1n;
  private readonly memory: CommittedBatch[] = [];
  private needQuery = true;
  private querying = false;
  private stopped = false;
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private commitTimer: NodeJS.Timeout | null = null;
  private readonly topics: Set<string>;
  private readonly onWake = (batch?: CommittedBatch) => this.offer(batch);
  private unregisterLag: (() => void) | null = null;

  constructor(
    private readonly pool: Pool,
    private readonly options: SubscribeOptions,
    private readonly wake: EventEmitter,
    private readonly lastCommitted: () => bigint,
    private readonly onStop: () => void,
  ) {
    this.topics = new Set(options.topics);
  }

  async start(): Promise<void> {
    // One committed position per group (positions are global across topics).
    const topicKey = this.options.topics.join(',');
    const found = await this.pool.query('SELECT position FROM event_log_offsets WHERE group_id = $1 AND topic = $2', [
      this.options.groupId,
      topicKey,
    ]);
    if (found.rows[0]) {
      this.position = BigInt(found.rows[0].position);
    } else {
      if (!this.options.fromBeginning) {
        const max = await this.pool.query('SELECT coalesce(max(position), 0) AS p FROM event_log');
        this.position = BigInt(max.rows[0].p);
      }
      await this.commit();
    }
    this.wake.on('appended', this.onWake);
    this.unregisterLag = registerLagSource(() => embeddedLag(this.pool, this.options, this.position));
    this.timer = setInterval(() => {
      this.needQuery = true;
      this.kick();
    }, POLL_MS);
    this.kick();
  }

  /** A batch this process just committed: take it from memory if we are exactly up to it, else read the table. */
  private offer(batch?: CommittedBatch): void {
    if (!batch || this.querying || this.needQuery || batch.after !== this.expected) this.needQuery = true;
    else {
      this.memory.push(batch);
      this.expected = batch.last;
    }
    this.kick();
  }

  private kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.loop().finally(() => {
      this.running = null;
      if (this.again && !this.stopped) {
        this.again = false;
        this.kick();
      }
    });
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      if (this.needQuery) {
        this.needQuery = false;
        this.memory.length = 0;
        if (!(await this.drainTable())) return;
        continue;
      }
      const batch = this.memory.shift();
      if (!batch) return;
      for (const { position, record } of batch.rows) {
        if (!this.topics.has(record.topic)) continue;
        if (!(await this.handle({ ...record, position: String(position) }, position))) return;
      }
      this.commitSoon();
    }
  }

  /** Read every record after the position from the table, batch by batch. False when a handler failed. */
  private async drainTable(): Promise<boolean> {
    this.querying = true;
    try {
      while (!this.stopped) {
        const seen = this.lastCommitted(); // every record up to here is committed, so the query below sees it
        const { rows } = await this.pool
          .query<EventLogRow>(
            'SELECT position, topic, key, event, headers FROM event_log WHERE position > $1 AND topic = ANY($2) ORDER BY position LIMIT $3',
            [this.position.toString(), this.options.topics, BATCH],
          )
          .catch(() => ({ rows: null }));
        if (!rows) {
          this.needQuery = true;
          return false;
        }
        for (const row of rows) {
          if (this.stopped) return false;
          const delivery: Delivery = {
            topic: row.topic,
            key: row.key,
            event: parseEnvelope(row.event),
            headers: row.headers,
            position: String(row.position),
          };
          if (!(await this.handle(delivery, BigInt(row.position)))) return false;
        }
        this.commitSoon();
        if (rows.length < BATCH) {
          this.expected = this.position > seen ? this.position : seen;
          return true;
        }
      }
      return false;
    } finally {
      this.querying = false;
    }
  }

  /** Hand one record over; on failure, go back to the table from this record after a short pause. */
  private async handle(delivery: Delivery, position: bigint): Promise<boolean> {
    try {
      await this.options.handler(delivery);
      this.position = position;
      return true;
    } catch {
      this.needQuery = true;
      this.memory.length = 0;
      await this.commit();
      await new Promise((r) => setTimeout(r, 100));
      this.again = true;
      return false;
    }
  }

  /** Offsets are committed at most once a second: a commit is a durable write, and redelivery is harmless. */
  private commitSoon(): void {
    if (this.commitTimer || this.stopped) return;
    this.commitTimer = setTimeout(() => {
      this.commitTimer = null;
      void this.commit();
    }, COMMIT_EVERY_MS);
    this.commitTimer.unref();
  }

  private async commit(): Promise<void> {
    await this.pool
      .query(
        `INSERT INTO event_log_offsets (group_id, topic, position) VALUES ($1, $2, $3)
       ON CONFLICT (group_id, topic) DO UPDATE SET position = EXCLUDED.position`,
        [this.options.groupId, this.options.topics.join(','), this.position.toString()],
      )
      .catch(() => {});
  }

  async caughtUp(): Promise<void> {
    const { rows } = await this.pool.query(
      'SELECT coalesce(max(position), 0) AS p FROM event_log WHERE topic = ANY($1)',
      [this.options.topics],
    );
    const target = BigInt(rows[0].p);
    while (!this.stopped && this.position < target) {
      if (!this.running) {
        this.needQuery = true;
        this.kick();
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unregisterLag?.();
    this.wake.off('appended', this.onWake);
    if (this.timer) clearInterval(this.timer);
    if (this.commitTimer) clearTimeout(this.commitTimer);
    await this.running;
    await this.commit();
    this.onStop();
  }
}
