/**
 * The database of the admin-analytics unit tests: a private database on the suite's shared PostgreSQL (started by
 * test/global-setup.ts) with the admin schema migrated, and one pool on it for the file (or describe block) that asks
 * for it, closed after it.
 */
import { afterAll, beforeAll } from 'vitest';
import type { AnyEventEnvelope } from '@ephemera/proto';
import { applyOnce, createPool, migrate, type Pool } from '@ephemera/platform';
import { ADMIN_MIGRATIONS } from '../src/index.ts';
import { projectAdmin } from '../src/projection.ts';
import { createTestDatabase } from '../../../test/helpers/db.ts';

export interface AdminTestDatabase {
  /** the database's URL (available once the beforeAll hook ran) */
  readonly url: string;
  /** the file's pool on it (available once the beforeAll hook ran) */
  readonly pool: Pool;
  /** applies each event through the service's real projector, one applyOnce each, as the subscription delivers them */
  apply(events: AnyEventEnvelope[]): Promise<void>;
}

/** a new database with the admin schema migrated, and a pool on it (the caller ends the pool) */
export async function openAdminTestDatabase(): Promise<{ url: string; pool: Pool }> {
  const url = await createTestDatabase();
  await migrate(url, ADMIN_MIGRATIONS, 'admin');
  return { url, pool: createPool(url) };
}

/** Registers the hooks that open the database before the enclosing block's tests and close its pool after them. */
export function useAdminTestDatabase(): AdminTestDatabase {
  let opened: { url: string; pool: Pool } | null = null;
  const current = () => {
    if (!opened) throw new Error('the admin test database is opened in beforeAll; use it inside a test or hook');
    return opened;
  };
  beforeAll(async () => { opened = await openAdminTestDatabase(); });
  afterAll(async () => { await opened?.pool.end(); });
  return {
    get url() { return current().url; },
    get pool() { return current().pool; },
    async apply(events) { for (const e of events) await applyOnce(current().pool, 'admin', [e], projectAdmin); },
  };
}
