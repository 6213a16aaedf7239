/** Postgres access: one pool per service, schema migrations by node-pg-migrate (SQL files, one table per service). */
import { createHash } from 'node:crypto';
import pg from 'pg';
import client from 'prom-client';
import { runner } from 'node-pg-migrate';
import { withTimeout } from './timeout.ts';

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
 * sent message as a gateway (docs/decisions/2026-11-26-distributed-w3-costs.md). Statements without parameters (BEGIN, COMMIT, SET), and large
 * ones (MAX_PREPARED_PARAMS, MAX_PREPARED_TEXT), are sent as they are.
 */
class PreparingClient extends pg.Client {
  // pg's overloads are not expressible on a subclass; the arguments are handed on unchanged.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(config: any, values?: any, callback?: any): any {
    if (
      typeof config === 'string' &&
      Array.isArray(values) &&
      values.length > 0 &&
      values.length <= MAX_PREPARED_PARAMS &&
      config.length <= MAX_PREPARED_TEXT
    ) {
      const name = statementName(config);
      if (name)
        return callback
          ? super.query({ name, text: config, values }, callback)
          : super.query({ name, text: config, values });
    }
    return super.query(config, values, callback);
  }
}

/**
 * How long a caller waits for a connection (a new one, or a free one from a full pool) before its query fails.
 * Without a bound a connect that never completes, or a pool whose every client is held, makes every later query
 * (readiness included) wait for good; with it the caller gets an error, the pool stays usable, and the refusal
 * reaches the client (a send is not acknowledged and is resent).
 */
export const CONNECT_TIMEOUT_MS = 10_000;
/** Readiness answers within this, whatever the database does (a probe that hangs is a failed probe anyway). */
export const READY_TIMEOUT_MS = 3_000;

/** The open pools of this process, for the gauge below. */
const pools = new Set<pg.Pool>();

class ServicePool extends pg.Pool {
  // pg's overloads (callback or promise) are handed on unchanged.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override end(callback?: any): any {
    pools.delete(this);
    return super.end(callback);
  }
}

export function createPool(connectionString: string, max = 10): pg.Pool {
  const pool = new ServicePool({
    connectionString,
    max,
    Client: PreparingClient,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // Nor a checked-out one: pg-pool listens for errors only on idle clients, so a connection that dies while its
  // client is held between two queries (a transaction awaiting something else when PostgreSQL restarts) emitted an
  // unhandled 'error' and killed the process (the PostgreSQL failure drill, stop 21). With a listener the client is
  // marked broken: its next query fails, the caller's error path runs, and the pool discards it on release.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  pools.add(pool);
  return pool;
}

/** The pools' clients by state, summed over this process's pools: a pool stuck full shows as waiting > 0. */
export const pgPoolGauge = new client.Gauge({
  name: 'ephemera_pg_pool_clients',
  help: 'PostgreSQL pool clients of this process: total open, idle, and callers waiting for one',
  labelNames: ['state'] as const,
  collect() {
    let total = 0,
      idle = 0,
      waiting = 0;
    for (const p of pools) {
      total += p.totalCount;
      idle += p.idleCount;
      waiting += p.waitingCount;
    }
    this.set({ state: 'total' }, total);
    this.set({ state: 'idle' }, idle);
    this.set({ state: 'waiting' }, waiting);
  },
});

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

/** Readiness: the database answers a query within READY_TIMEOUT_MS; throws saying why not. */
export async function pgReady(pool: pg.Pool): Promise<boolean> {
  const { rowCount } = await withTimeout(
    pool.query('SELECT 1'),
    READY_TIMEOUT_MS,
    () =>
      new Error(
        `the database did not answer within ${READY_TIMEOUT_MS} ms (pool: ${pool.totalCount} open, ${pool.idleCount} idle, ${pool.waitingCount} waiting)`,
      ),
  );
  return rowCount === 1;
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
