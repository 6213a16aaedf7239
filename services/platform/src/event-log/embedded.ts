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
 * One active consumer per group at a time (one process hosts every service in embedded mode). The subscriptions'
 * loop is in embedded-subscription.ts.
 */
import { EventEmitter } from 'node:events';
import type { Topic } from '@ephemera/proto';
import { inTransaction, type Pool } from '../pg.ts';
import type { EventLog, LogRecord, SubscribeOptions, Subscription } from './port.ts';
import { AppendGroups } from './append-groups.ts';
import { EmbeddedSubscription, type CommittedBatch } from './embedded-subscription.ts';

const APPEND_LOCK = 0x45504845; // 'EPHE'
/** rows per INSERT statement: 5 parameters each, well under PostgreSQL's 65535 parameter limit */
const ROWS_PER_INSERT = 2000;

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
