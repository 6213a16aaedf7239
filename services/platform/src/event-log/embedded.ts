/**
 * Embedded event log: a Postgres table plus in-process dispatch (`npm start`). Same port and guarantees as Kafka
 * (see port.ts), without a broker:
 *  - append() inserts the records in one transaction under an advisory lock, so positions are committed in
 *    position order and a reader that has seen position N has seen every committed record below N;
 *  - each subscription is a loop that reads rows after its group's committed position, hands them to the handler
 *    in order and commits the position after each batch (at-least-once; consumers dedupe by event id);
 *  - appends in this process wake the loops at once; a slow poll catches appends from other processes.
 * One active consumer per group at a time (one process hosts every service in embedded mode).
 */
import { EventEmitter } from 'node:events';
import { parseEnvelope, type Topic } from '@ephemera/proto';
import type { Pool } from '../pg.ts';
import type { EventLog, LogRecord, SubscribeOptions, Subscription, Delivery } from './port.ts';

const APPEND_LOCK = 0x45504845; // 'EPHE'
const BATCH = 500;
const POLL_MS = 1000;

export class EmbeddedEventLog implements EventLog {
  private readonly wake = new EventEmitter();
  private readonly subscriptions = new Set<EmbeddedSubscription>();

  constructor(private readonly pool: Pool) {
    this.wake.setMaxListeners(0);
  }

  async init(_topics: Topic[]): Promise<void> {
    await this.pool.query(`
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
      );`).catch((err) => {
      // Two processes creating the tables at once race on the catalog; the loser finds them created.
      if (!/already exists|duplicate key/.test(String(err))) throw err;
    });
  }

  async append(records: LogRecord[]): Promise<void> {
    if (records.length === 0) return;
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [APPEND_LOCK]);
      const values: unknown[] = [];
      const rows = records.map((r, i) => {
        values.push(r.topic, r.key, r.event.id, JSON.stringify(r.event), JSON.stringify(r.headers ?? {}));
        const b = i * 5;
        return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5})`;
      });
      await client.query(`INSERT INTO event_log (topic, key, event_id, event, headers) VALUES ${rows.join(',')}`, values);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
    this.wake.emit('appended');
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    const sub = new EmbeddedSubscription(this.pool, options, this.wake, () => this.subscriptions.delete(sub));
    await sub.start();
    this.subscriptions.add(sub);
    return sub;
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
  }
}

class EmbeddedSubscription implements Subscription {
  private position = 0n;
  private stopped = false;
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private readonly onWake = () => this.kick();

  constructor(
    private readonly pool: Pool,
    private readonly options: SubscribeOptions,
    private readonly wake: EventEmitter,
    private readonly onStop: () => void,
  ) {}

  async start(): Promise<void> {
    // One committed position per group, kept for the first topic (positions are global across topics).
    const topicKey = this.options.topics.join(',');
    const found = await this.pool.query('SELECT position FROM event_log_offsets WHERE group_id = $1 AND topic = $2', [this.options.groupId, topicKey]);
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
    this.timer = setInterval(() => this.kick(), POLL_MS);
    this.kick();
  }

  private kick(): void {
    if (this.stopped) return;
    if (this.running) { this.again = true; return; }
    this.running = this.drain().finally(() => {
      this.running = null;
      if (this.again && !this.stopped) { this.again = false; this.kick(); }
    });
  }

  /** Deliver every record after the position, batch by batch; retry a failed record after a pause. */
  private async drain(): Promise<void> {
    while (!this.stopped) {
      const { rows } = await this.pool.query(
        'SELECT position, topic, key, event, headers FROM event_log WHERE position > $1 AND topic = ANY($2) ORDER BY position LIMIT $3',
        [this.position.toString(), this.options.topics, BATCH],
      ).catch(() => ({ rows: [] as any[] }));
      if (rows.length === 0) return;
      for (const row of rows) {
        if (this.stopped) return;
        const delivery: Delivery = { topic: row.topic, key: row.key, event: parseEnvelope(row.event), headers: row.headers, position: String(row.position) };
        try {
          await this.options.handler(delivery);
        } catch {
          await this.commit();
          this.again = true; // redeliver from this record after a short pause
          await new Promise((r) => setTimeout(r, 100));
          return;
        }
        this.position = BigInt(row.position);
      }
      await this.commit();
    }
  }

  private async commit(): Promise<void> {
    await this.pool.query(
      `INSERT INTO event_log_offsets (group_id, topic, position) VALUES ($1, $2, $3)
       ON CONFLICT (group_id, topic) DO UPDATE SET position = EXCLUDED.position`,
      [this.options.groupId, this.options.topics.join(','), this.position.toString()],
    ).catch(() => {});
  }

  async caughtUp(): Promise<void> {
    const { rows } = await this.pool.query('SELECT coalesce(max(position), 0) AS p FROM event_log WHERE topic = ANY($1)', [this.options.topics]);
    const target = BigInt(rows[0].p);
    while (!this.stopped && this.position < target) {
      this.kick();
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake.off('appended', this.onWake);
    if (this.timer) clearInterval(this.timer);
    await this.running;
    await this.commit();
    this.onStop();
  }
}
