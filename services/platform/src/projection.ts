/**
 * Idempotent projections. A service's read model is changed only by applying events through here: the event id is
 * recorded in the same transaction as the change, so an event delivered twice (at-least-once log, or applied once
 * by the command path and again by the consumer) changes the read model once. Replaying the log from the start
 * into empty tables rebuilds the same read model.
 */
import type { AnyEventEnvelope } from '@ephemera/proto';
import { inTransaction, type Pool, type PoolClient } from './pg.ts';

/**
 * Applies one event to a read model. `many`, when a projector has it, applies a run of events (in order, each new)
 * with fewer statements than one call per event: applyOnce hands it every new event of a batch at once. Each
 * statement is a round trip to PostgreSQL, and under load those round trips, not the SQL, were most of a service's
 * projection cost (docs/decisions/2026-11-27-batched-projection-statements.md).
 */
type EventType = AnyEventEnvelope['type'];
type EventOf<T extends EventType> = Extract<AnyEventEnvelope, { type: T }>;
/** A maximal run of events of one type, or one other event (eventRuns). */
export type EventRun<T extends EventType> =
  { single: false; events: EventOf<T>[] } | { single: true; events: [AnyEventEnvelope] };

export type Projector = ((client: PoolClient, event: AnyEventEnvelope) => Promise<void>) & {
  many?: (client: PoolClient, events: AnyEventEnvelope[]) => Promise<void>;
};

/** SQL for the table every projecting service needs; the services' first migration includes it. */
export const PROCESSED_EVENTS_DDL = (schema: string) => `
  CREATE TABLE IF NOT EXISTS ${schema}.processed_events (
    event_id uuid PRIMARY KEY,
    processed_at timestamptz NOT NULL DEFAULT now()
  );`;

/**
 * Apply events in order, each at most once; returns the events that were new.
 * `flush: false` lets the commit return before the WAL reaches disk (synchronous_commit off). That is safe only
 * where the event log lives in the same PostgreSQL (embedded mode): WAL is replayed in order, so a crash that
 * loses this commit also loses every later one, including the consumer offset that would have skipped the event,
 * and the consumer applies it again. With Kafka holding the offsets it is not safe, so the default is to flush.
 */
export async function applyOnce(
  pool: Pool,
  schema: string,
  events: AnyEventEnvelope[],
  project: Projector,
  options: { flush?: boolean } = {},
): Promise<AnyEventEnvelope[]> {
  if (events.length === 0) return [];
  return inTransaction(pool, async (client) => {
    if (options.flush === false) await client.query('SET LOCAL synchronous_commit TO OFF');
    // Every id of the batch recorded in one statement; RETURNING names the ones not seen before (in PostgreSQL's
    // lowercase form). An id twice in one batch is new once: the first occurrence is applied.
    const { rows } = await client.query<{ event_id: string }>(
      `INSERT INTO ${schema}.processed_events (event_id) SELECT unnest($1::uuid[]) ON CONFLICT DO NOTHING RETURNING event_id`,
      [events.map((e) => e.id)],
    );
    const isNew = new Set(rows.map((r) => r.event_id));
    const applied = events.filter((e) => isNew.delete(e.id.toLowerCase()));
    if (project.many) await project.many(client, applied);
    else for (const event of applied) await project(client, event);
    return applied;
  });
}

/**
 * A subscription's handlers for a projection: each delivery through applyOnce, and (handleMany, used by adapters
 * that fetch in batches) what arrived together in one applyOnce transaction: one commit and one flush for many.
 * `skip` leaves out events already applied another way (messaging's command path applies its own sends).
 */
export function projectionHandlers(
  pool: Pool,
  schema: string,
  project: Projector,
  options: { flush?: boolean; skip?: (event: AnyEventEnvelope) => boolean } = {},
): {
  handler: (d: { event: AnyEventEnvelope }) => Promise<void>;
  handleMany: (ds: { event: AnyEventEnvelope }[]) => Promise<void>;
} {
  const applyAll = async (events: AnyEventEnvelope[]) => {
    const todo = options.skip ? events.filter((e) => !options.skip!(e)) : events;
    if (todo.length) await applyOnce(pool, schema, todo, project, { flush: options.flush });
  };
  return {
    handler: ({ event }) => applyAll([event]),
    handleMany: (deliveries) => applyAll(deliveries.map((d) => d.event)),
  };
}

/**
 * The events split, in order, into maximal runs of one type (what a projector's `many` can write with one statement)
 * and the other events one by one: projectors composed over the same runs keep the order of a one-by-one apply.
 */
export function eventRuns<T extends EventType>(events: AnyEventEnvelope[], type: T): EventRun<T>[] {
  const runs: EventRun<T>[] = [];
  for (const event of events) {
    const last = runs[runs.length - 1];
    if (event.type !== type) runs.push({ single: true, events: [event] });
    else if (last && !last.single) last.events.push(event as EventOf<T>);
    else runs.push({ single: false, events: [event as EventOf<T>] });
  }
  return runs;
}

/**
 * `one` given a `many` that writes each run of `type` with `writeRun` (one statement for the run) and applies every
 * other event through `one`, in order.
 */
export function writingRuns<T extends EventType>(
  type: T,
  one: Projector,
  writeRun: (client: PoolClient, events: EventOf<T>[]) => Promise<void>,
): Projector {
  one.many = async (client, events) => {
    for (const run of eventRuns(events, type)) {
      if (run.single) await one(client, run.events[0]);
      else await writeRun(client, run.events);
    }
  };
  return one;
}
