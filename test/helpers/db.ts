/** A private database per test file on the suite's shared Postgres server (started by test/global-setup.ts). */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sharedInfra } from './infra.ts';
import { TOPICS } from '@ephemera/proto';
import { EmbeddedEventLog, createPool } from '@ephemera/platform';

export async function createTestDatabase(adminUrl: string = sharedInfra('pgUrl')): Promise<string> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    // Two files creating databases at the same moment can collide on template1 (55006): retry briefly.
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE ${name}`);
        break;
      } catch (err) {
        if ((err as { code?: string }).code !== '55006' || attempt >= 20) throw err;
        await new Promise((r) => setTimeout(r, 50 * (attempt + 1)));
      }
    }
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A new test database holding a copy of `from`'s embedded event log and nothing else: a replay target. Services
 * booted on it rebuild every read model from offset zero.
 */
export async function databaseWithLogOf(from: pg.Pool): Promise<string> {
  const url = await createTestDatabase();
  const pool = createPool(url);
  try {
    await new EmbeddedEventLog(pool).init(Object.values(TOPICS));
    const { rows } = await from.query(
      'SELECT topic, key, event_id, event::text AS event, headers FROM event_log ORDER BY position',
    );
    for (const r of rows) {
      await pool.query(
        'INSERT INTO event_log (topic, key, event_id, event, headers) VALUES ($1, $2, $3, $4::json, $5)',
        [r.topic, r.key, r.event_id, r.event, r.headers],
      );
    }
  } finally {
    await pool.end();
  }
  return url;
}
