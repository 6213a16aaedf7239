/**
 * Embedded event log: a Postgres table plus in-process dispatch (`npm start`). Same port and guarantees as Kafka
 * (see port.ts), without a broker:
 *  - append() inserts the records in one transaction under an advisory lock, so positions are committed in
 *    position order and a reader that has seen position N has seen every committed record below N;
 *  - group commit: appends that arrive while a write is in flight are written together in the next
 *    transaction, so many rooms sending at once share one flush to disk instead of queueing one flush each;
 *  - each subscription is a loop that reads rows after its group's position and hands them to the handler in
 *    order; the position is committed at most once a second and at stop (at-least-once: after a crash a
 *    consumer sees up to a second of records again, and consumers dedupe by event id);
 *  - records this process appends are handed from memory to every subscription that has examined the log up to
 *    just before them (the common case: no query per record); a subscription that is behind, or that failed,
 *    reads from the table instead; a slow poll catches appends from other processes.
 * One active consumer per group at a time (one process hosts every service in embedded mode).
 */
import { EventEmitter } from 'node:events';
import { parseEnvelope, type Topic } from '@ephemera/proto';
import { inTransaction, type Pool } from '../pg.ts';
import type { EventLog, LogRecord, SubscribeOptions, Subscription, Delivery } from './port.ts';
import { registerLagSource } from '../metrics-consumer-lag.ts';
import { embeddedLag } from './lag.ts';
import { AppendGroups } from './append-groups.ts';

const APPEND_LOCK = 0x45504845; // 'EPHE'
const BATCH = 500;
const POLL_MS = 1000;
const COMMIT_EVERY_MS = 1000;
/** rows per INSERT statement: 5 parameters each, well under PostgreSQL's 65535 parameter limit */
const ROWS_PER_INSERT = 2000;

/** One committed write, as subscriptions receive it: everything in (after, last] that this process appended. */
/** a row of event_log as the consumer reads it (pg gives bigint as a string) */
interface EventLogRow {
  position: string;
  topic: Topic;
  key: string;
  event: unknown;
  headers: Record<string, string>;
}
interface CommittedBatch {
  after: bigint;
  last: bigint;
  rows: { position: bigint; record: LogRecord }[];
}

export class EmbeddedEventLog implements EventLog {
  private readonly wake = new EventEmitter();
  private readonly subscriptions = new Set<EmbeddedSubscription>();
  /** the single writer: everything appended while a transaction was in flight goes into the next one */
  private readonly appends = new AppendGroups<LogRecord>((records) => this.write(records));
  /** highest position this process has committed (or seen committed at init) */
  private lastCommitted = 0n;

  constructor(private readonly pool: Pool) {
    this.wake.setMaxListeners(0);
  }

  async init(_topics: Topic[]): Promise<void> {
    await this.createTables();
    const { rows } = await this.pool.query('SELECT coalesce(max(position), 0) AS p FROM event_log');
    this.lastCommitted = BigInt(rows[0].p);
  }

  private async createTables(): Promise<void> {
    await this.pool
      .query(
        `
      CREATE TABLE IF NOT EXISTS event_log (
        position bigserial PRIMARY KEY,
        topic text NOT NULL,
        key text NOT NULL,
        event_id uuid NOT NULL,
        event json NOT NULL,            -- json, not jsonb: keeps NUL escapes and key order exactly as written
        headers jsonb NOT NULL DEFAULT '{}',
        appended_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX IF NOT EXISTS event_log_topic_position ON event_log (topic, position);
      CREATE TABLE IF NOT EXISTS event_log_offsets (
        group_id text NOT NULL,
        topic text NOT NULL,
        position bigint NOT NULL,
        PRIMARY KEY (group_id, topic)
      );`,
      )
      .catch((err) => {
        // Two processes creating the tables at once race on the catalog; the loser finds them created.
        if (!/already exists|duplicate key/.test(String(err))) throw err;
      });
  }

  append(records: LogRecord[]): Promise<void> {
    if (records.length === 0) return Promise.resolve();
    return this.appends.append(records);
  }

  /** One group's transaction; on commit its records go to the subscriptions that are up to date. */
  private async write(records: LogRecord[]): Promise<void> {
    const positions = await this.insert(records);
    const rows = records
      .map((record) => ({ position: positions.get(record.event.id)!, record }))
      .sort((a, b) => (a.position < b.position ? -1 : 1));
    const committed: CommittedBatch = { after: this.lastCommitted, last: rows[rows.length - 1]!.position, rows };
    this.lastCommitted = committed.last;
    this.wake.emit('appended', committed);
  }

  /** Insert in one transaction; answers each event id's position. */
  private insert(records: LogRecord[]): Promise<Map<string, bigint>> {
    return inTransaction(this.pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [APPEND_LOCK]);
      const positions = new Map<string, bigint>();
      for (let from = 0; from < records.length; from += ROWS_PER_INSERT) {
        const chunk = records.slice(from, from + ROWS_PER_INSERT);
        const values: unknown[] = [];
        const rows = chunk.map((r, i) => {
          values.push(r.topic, r.key, r.event.id, JSON.stringify(r.event), JSON.stringify(r.headers ?? {}));
          const b = i * 5;
          return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5})`;
        });
        const inserted = await client.query(
          `INSERT INTO event_log (topic, key, event_id, event, headers) VALUES ${rows.join(',')} RETURNING position, event_id`,
          values,
        );
        for (const r of inserted.rows) positions.set(r.event_id, BigInt(r.position));
      }
      return positions;
    });
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    const sub = new EmbeddedSubscription(
      this.pool,
      options,
      this.wake,
      () => this.lastCommitted,
      () => this.subscriptions.delete(sub),
    );
    await sub.start();
    this.subscriptions.add(sub);
    return sub;
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
  }
}

class EmbeddedSubscription implements Subscription {
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
