/**
 * Auto-delete's own database state (auto-delete.ts): the history of its runs (admin.cleanup_runs, kept by
 * projection.ts from the cleanup.run audit entries) and the Postgres advisory lock that lets one run at a time
 * across replicas.
 */
import type { Pool, PoolClient } from '@ephemera/platform';

/** pg advisory lock key of a run ("autodel" in ASCII) */
const RUN_LOCK = 0x6175746f64656c;

/** takes the run lock on `client`'s session; false while another session holds it */
export async function tryTakeRunLock(client: PoolClient): Promise<boolean> {
  const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [RUN_LOCK]);
  return rows[0]?.ok ?? false;
}

/** gives back the run lock `client`'s session holds */
export async function releaseRunLock(client: PoolClient): Promise<void> {
  await client.query('SELECT pg_advisory_unlock($1)', [RUN_LOCK]);
}

/** a run holds the lock on another connection (another replica, or this one between two requests) */
export async function runningElsewhere(pool: Pool): Promise<boolean> {
  const { rows } = await pool.query<{ n: string }>(
    `SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND granted
       AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
       AND ((classid::bigint << 32) | objid::bigint) = $1`,
    [RUN_LOCK],
  );
  return Number(rows[0]?.n ?? 0) > 0;
}

/** every run's deletions summed, and the latest run's time and deletions */
export async function cleanupHistory(
  pool: Pool,
): Promise<{ deletedTotal: number; lastRunAt: string | null; lastDeleted: number }> {
  const { rows } = await pool.query<{ total: string | null; last_at: Date | null; last_deleted: number | null }>(
    `SELECT (SELECT sum(deleted) FROM admin.cleanup_runs) AS total, l.at AS last_at, l.deleted AS last_deleted
     FROM (SELECT 1) one LEFT JOIN LATERAL (SELECT at, deleted FROM admin.cleanup_runs ORDER BY at DESC LIMIT 1) l ON true`,
  );
  const r = rows[0];
  return {
    deletedTotal: Number(r?.total ?? 0),
    lastRunAt: r?.last_at?.toISOString() ?? null,
    lastDeleted: r?.last_deleted ?? 0,
  };
}
