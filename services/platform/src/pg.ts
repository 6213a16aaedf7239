/** Postgres access: one pool per service, schema migrations by node-pg-migrate (SQL files, one table per service). */
import pg from 'pg';
import { runner } from 'node-pg-migrate';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

export function createPool(connectionString: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString, max });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  return pool;
}

/** Apply a service's migrations (services/<name>/migrations/*.sql). Safe to call from several processes at once. */
export async function migrate(databaseUrl: string, dir: string, service: string): Promise<void> {
  await runner({
    databaseUrl,
    dir,
    direction: 'up',
    migrationsTable: `pgmigrations_${service.replace(/[^a-z0-9_]/gi, '_')}`,
    log: () => {},
    advisoryLockMode: 'wait',
  } as Parameters<typeof runner>[0]);
}

/** Readiness: the database answers a query. */
export async function pgReady(pool: pg.Pool): Promise<boolean> {
  return (await pool.query('SELECT 1')).rowCount === 1;
}

/** Run fn in a transaction; rolls back on throw. */
export async function inTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}
