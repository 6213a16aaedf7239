/**
 * The admin aggregate's event numbers (events.ts): the admin.event_seq sequence, so every admin event, from any
 * replica, gets the next one.
 */
import type { Pool } from '@ephemera/platform';

/** the next number of the admin aggregate's events */
export async function nextAdminEventSequence(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ seq: string }>("SELECT nextval('admin.event_seq') AS seq");
  return Number(rows[0].seq);
}
