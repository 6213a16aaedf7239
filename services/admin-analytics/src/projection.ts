/**
 * The service's read models, all projected from the event log (every topic) through applyOnce: a replay from the
 * start into empty tables rebuilds them identically. Each part owns its tables and its projector.
 */
import type { AnyEventEnvelope } from '@ephemera/proto';
import type { PoolClient } from '@ephemera/platform';
import { projectAnalytics } from './analytics/index.ts';
import { projectDirectory } from './directory/index.ts';
import { projectSystem } from './system/index.ts';

export async function projectAdmin(client: PoolClient, event: AnyEventEnvelope): Promise<void> {
  await projectDirectory(client, event); // first: the others may read who an account or a room is
  await projectAnalytics(client, event);
  await projectSystem(client, event);
}
