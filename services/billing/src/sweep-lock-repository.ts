/**
 * The SQL of billing's periodic sweeps' one-at-a-time rule (payments/reminders.ts, admin-accounts.ts): a
 * session-level Postgres advisory lock on one connection of the pool, held while the sweep runs, so one replica
 * sweeps at a time.
 */
import type { Pool } from '@ephemera/platform';

/**
 * Runs `sweep` holding the advisory lock `key`, and answers its result; answers `held` without running it when
 * another connection holds the lock.
 */
export async function underSweepLock<T>(pool: Pool, key: number, held: T, sweep: () => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    const locked = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [key]);
    if (!locked.rows[0]?.ok) return held;
    try {
      return await sweep();
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [key]);
    }
  } finally {
    client.release();
  }
}
