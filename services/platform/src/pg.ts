/** Postgres access: one pool per service, schema migrations by node-pg-migrate (SQL files, one table per service). */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { runner } from 'node-pg-migrate';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

/** Distinct statements prepared per process at most (each costs every connection a cached plan in its backend). */
const MAX_PREPARED = 1_000;
/**
 * Only the small, frequent statements: a multi-row insert built for each batch size (the embedded event log's,
 * hundreds of parameters) would leave a large prepared statement per size on every connection for little gain.
 */
const MAX_PREPARED_PARAMS = 64;
const MAX_PREPARED_TEXT = 8_192;
const prepared = new Map<string, string>();

/** The name a parameterized statement is prepared under (a hash of its text); null once MAX_PREPARED are in use. */
export function statementName(text: string): string | null {
  const known = prepared.get(text);
  if (known) return known;
  if (prepared.size >= MAX_PREPARED) return null;
  const name = `s${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
  prepared.set(text, name);
  return name;
}

/**
 * Every parameterized query runs as a named (prepared) statement: PostgreSQL parses and plans it once per
 * connection instead of on every call. The services' statements are fixed texts, and most are primary-key lookups
 * and inserts whose parse and plan cost more than their execution: unnamed, PostgreSQL spent about as much CPU per
 * sent message as a gateway (load-tests/README.md). Statements without parameters (BEGIN, COMMIT, SET), and large
 * ones (MAX_PREPARED_PARAMS, MAX_PREPARED_TEXT), are sent as they are.
 */
class PreparingClient extends pg.Client {
  // pg's overloads are not expressible on a subclass; the arguments are handed on unchanged.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(config: any, values?: any, callback?: any): any {
    if (typeof config === 'string' && Array.isArray(values) && values.length > 0 && values.length <= MAX_PREPARED_PARAMS && config.length <= MAX_PREPARED_TEXT) {
      const name = statementName(config);
      if (name) return callback ? super.query({ name, text: config, values }, callback) : super.query({ name, text: config, values });
    }
    return super.query(config, values, callback);
  }
}

export function createPool(connectionString: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString, max, Client: PreparingClient });
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
