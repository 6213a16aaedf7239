import pg from 'pg';
import { afterAll } from 'vitest';
import { TOPICS } from '@ephemera/proto';
import { EmbeddedEventLog } from '../src/event-log/embedded.ts';
import { createTestDatabase } from '../../../test/helpers/db.ts';
import { eventLogContract, restartable } from './event-log.contract.ts';

// One database for this file; each log instance gets its own pool, as a restarted process would.
const url = createTestDatabase();
const pools: pg.Pool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
});

async function connect(): Promise<EmbeddedEventLog> {
  const pool = new pg.Pool({ connectionString: await url });
  pools.push(pool);
  const log = new EmbeddedEventLog(pool);
  await log.init(Object.values(TOPICS));
  return log;
}

eventLogContract('embedded', restartable(connect));
