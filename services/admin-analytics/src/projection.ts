/**
 * The service's read models, all projected from the event log (every topic) through applyOnce: a replay from the
 * start into empty tables rebuilds them identically (sealed values once opened: each seal takes a fresh nonce). Each
 * part owns its tables and its projector.
 */
import type { Projector } from '@ephemera/platform';
import type { AccountFields } from './account-fields.ts';
import { projectAnalytics } from './analytics/index.ts';
import { projectDirectory } from './directory/index.ts';
import { projectSystem } from './system/index.ts';

/** `fields`: the accounts' keys and the lookup key, for the directory's sealed copy of accounts */
export const adminProjector =
  (fields: AccountFields): Projector =>
  async (client, event) => {
    await projectDirectory(client, event, fields); // first: the others may read who an account or a room is
    await projectAnalytics(client, event);
    await projectSystem(client, event);
  };
