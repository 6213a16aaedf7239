/**
 * The recorder (services/platform/src/write-path.ts) against a real embedded event log and a real read model in
 * PostgreSQL: append failure, apply failure after a durable append, no events, and run()'s order.
 */
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TOPICS, type AnyEventEnvelope } from '@ephemera/proto';
import { EmbeddedEventLog } from '../src/event-log/embedded.ts';
import type { EventLog, LogRecord } from '../src/event-log/port.ts';
import { makeEvent, systemActor } from '../src/events.ts';
import { PROCESSED_EVENTS_DDL, type Projector } from '../src/projection.ts';
import { createRecorder } from '../src/write-path.ts';
import { createTestDatabase } from '../../../test/helpers/db.ts';

let pool: pg.Pool;
let realLog: EmbeddedEventLog;
/** the real log, counting appends; `failAppends` makes the next appends fail before reaching it */
let appends = 0;
let failAppends = false;
const log: EventLog = {
  init: (topics) => realLog.init(topics),
  append: (records: LogRecord[]) => {
    appends += 1;
    if (failAppends) return Promise.reject(new Error('broker unavailable'));
    return realLog.append(records);
  },
  subscribe: (options) => realLog.subscribe(options),
  close: () => realLog.close(),
};

/** a read model of one table: each admin.action-recorded event's action; `failApplies` makes it throw */
let failApplies = false;
const project: Projector = async (client, event) => {
  if (event.type !== 'admin.action-recorded') return;
  await client.query('INSERT INTO wp.actions (event_id, action) VALUES ($1, $2)', [event.id, event.payload.action]);
  if (failApplies) throw new Error('read model unavailable');
};

let seq = 0;
const event = (): AnyEventEnvelope =>
  makeEvent(
    'admin.action-recorded',
    'admin',
    ++seq,
    {
      action: 'config.changed',
      target: null,
      reason: null,
      admin: 'a@example.com',
      details: {},
      at: new Date().toISOString(),
    },
    systemActor,
  ) as AnyEventEnvelope;

const applied = async () => (await pool.query('SELECT event_id FROM wp.actions')).rows.map((r) => r.event_id);
const processed = async () => (await pool.query('SELECT event_id FROM wp.processed_events')).rowCount;
const inLog = async (id: string) => (await pool.query('SELECT 1 FROM event_log WHERE event_id = $1', [id])).rowCount;

beforeAll(async () => {
  pool = new pg.Pool({ connectionString: await createTestDatabase() });
  realLog = new EmbeddedEventLog(pool);
  await realLog.init(Object.values(TOPICS));
  await pool.query('CREATE SCHEMA wp');
  await pool.query(PROCESSED_EVENTS_DDL('wp'));
  await pool.query('CREATE TABLE wp.actions (event_id uuid PRIMARY KEY, action text NOT NULL)');
});
afterAll(async () => {
  await realLog.close();
  await pool.end();
});
beforeEach(async () => {
  await pool.query('TRUNCATE wp.actions, wp.processed_events');
  appends = 0;
  failAppends = false;
  failApplies = false;
});

describe('createRecorder', () => {
  it('appends durably, then applies to the read model once', async () => {
    const recorder = createRecorder({ log, readModel: { pool, schema: 'wp', project } });
    const e = event();
    const order: string[] = [];
    const hooks = {
      appended: () => order.push('appended'),
      applied: (es: AnyEventEnvelope[]) => order.push(`applied ${es.length}`),
    };
    expect(await recorder.record([e], hooks)).toBe(true);
    expect(order).toEqual(['appended', 'applied 1']);
    expect(await inLog(e.id)).toBe(1);
    expect(await applied()).toEqual([e.id]);
    // the consumer's later delivery of the same event changes nothing: applyOnce
    expect(await recorder.record([e])).toBe(true);
    expect(await applied()).toEqual([e.id]);
  });

  it('an append that fails rejects and applies nothing', async () => {
    const seen: string[] = [];
    const recorder = createRecorder({ log, readModel: { pool, schema: 'wp', project } });
    failAppends = true;
    await expect(
      recorder.record([event()], {
        appended: () => seen.push('appended'),
        appendFailed: (err) => seen.push(`appendFailed: ${(err as Error).message}`),
        applied: () => seen.push('applied'),
        notApplied: () => seen.push('notApplied'),
      }),
    ).rejects.toThrow('broker unavailable');
    expect(seen).toEqual(['appendFailed: broker unavailable']);
    expect(await applied()).toEqual([]);
    expect(await processed()).toBe(0);
  });

  it('an apply that fails after a durable append resolves false, logs, tells notApplied and leaves the event to the consumer', async () => {
    const warned: unknown[] = [];
    const seen: string[] = [];
    const recorder = createRecorder({
      log,
      readModel: { pool, schema: 'wp', project },
      logger: { warn: ((obj: unknown) => warned.push(obj)) as never },
    });
    const e = event();
    failApplies = true;
    const hooks = {
      appended: () => seen.push('appended'),
      applied: () => seen.push('applied'),
      notApplied: (err: unknown) => seen.push(`notApplied: ${(err as Error).message}`),
    };
    expect(await recorder.record([e], hooks)).toBe(false);
    expect(seen).toEqual(['appended', 'notApplied: read model unavailable']);
    expect(await inLog(e.id)).toBe(1); // it happened
    expect(await applied()).toEqual([]); // the apply's transaction rolled back, its id included
    expect(await processed()).toBe(0);
    expect(warned).toHaveLength(1);
    // the consumer's delivery applies it
    failApplies = false;
    expect(await recorder.record([e])).toBe(true);
    expect(await applied()).toEqual([e.id]);
  });

  it('no events: nothing is appended or applied', async () => {
    const recorder = createRecorder({ log, readModel: { pool, schema: 'wp', project } });
    expect(await recorder.record([])).toBe(true);
    expect(appends).toBe(0);
    expect(await recorder.run(() => ({ events: [], answer: 'nothing to record' }))).toBe('nothing to record');
    expect(appends).toBe(0);
  });

  it('without a read model it only appends', async () => {
    const recorder = createRecorder({ log });
    const e = event();
    expect(await recorder.record([e])).toBe(true);
    expect(await inLog(e.id)).toBe(1);
    expect(await processed()).toBe(0);
  });

  it('run records the decision, then runs its after-effect, then answers; a failed append skips both', async () => {
    const recorder = createRecorder({ log, readModel: { pool, schema: 'wp', project } });
    const e = event();
    const seen: string[][] = [];
    const answer = await recorder.run(async () => ({
      events: [e],
      answer: 42,
      after: async () => {
        seen.push(await applied());
      },
    }));
    expect(answer).toBe(42);
    expect(seen).toEqual([[e.id]]);

    failAppends = true;
    let afterRan = false;
    await expect(
      recorder.run(() => ({
        events: [event()],
        answer: 0,
        after: async () => {
          afterRan = true;
        },
      })),
    ).rejects.toThrow('broker unavailable');
    expect(afterRan).toBe(false);
  });
});
