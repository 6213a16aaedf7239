/**
 * The one query the System Health figures make of the database (system-metrics.ts): a round trip that reads no
 * table, as /readyz's check does, timed for the database query time and sampled for the uptime.
 */
import type { Pool } from '@ephemera/platform';

/** resolves once the database has answered; rejects as the query does */
export async function pingDatabase(pool: Pool): Promise<void> {
  await pool.query('SELECT 1');
}
