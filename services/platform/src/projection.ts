/**
 * Idempotent projections. A service's read model is changed only by applying events through here: the event id is
 * recorded in the same transaction as the change, so an event delivered twice (at-least-once log, or applied once
 * by the command path and again by the consumer) changes the read model once. Replaying the log from the start
 * into empty tables rebuilds the same read model.
 */
import type { AnyEventEnvelope } from '@ephemera/proto';
import { inTransaction, type Pool, type PoolClient } from './pg.ts';

export type Projector = (client: PoolClient, event: AnyEventEnvelope) => Promise<void>;

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
export async function applyOnce(pool: Pool, schema: string, events: AnyEventEnvelope[], project: Projector, options: { flush?: boolean } = {}): Promise<AnyEventEnvelope[]> {
  return inTransaction(pool, async (client) => {
    if (options.flush === false) await client.query('SET LOCAL synchronous_commit TO OFF');
    const applied: AnyEventEnvelope[] = [];
    for (const event of events) {
      const r = await client.query(`INSERT INTO ${schema}.processed_events (event_id) VALUES ($1) ON CONFLICT DO NOTHING`, [event.id]);
      if (r.rowCount === 0) continue;
      await project(client, event);
      applied.push(event);
    }
    return applied;
  });
}

/**
 * A subscription's handlers for a projection: each delivery through applyOnce, and (handleMany, used by adapters
 * that fetch in batches) what arrived together in one applyOnce transaction: one commit and one flush for many.
 * `skip` leaves out events already applied another way (messaging's command path applies its own sends).
 */
export function projectionHandlers(
  pool: Pool, schema: string, project: Projector, options: { flush?: boolean; skip?: (event: AnyEventEnvelope) => boolean } = {},
): { handler: (d: { event: AnyEventEnvelope }) => Promise<void>; handleMany: (ds: { event: AnyEventEnvelope }[]) => Promise<void> } {
  const applyAll = async (events: AnyEventEnvelope[]) => {
    const todo = options.skip ? events.filter((e) => !options.skip!(e)) : events;
    if (todo.length) await applyOnce(pool, schema, todo, project, { flush: options.flush });
  };
  return { handler: ({ event }) => applyAll([event]), handleMany: (deliveries) => applyAll(deliveries.map((d) => d.event)) };
}
