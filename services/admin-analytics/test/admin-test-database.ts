/**
 * The database of the admin-analytics unit tests: a private database on the suite's shared PostgreSQL (started by
 * test/global-setup.ts) with the admin schema migrated, and one pool on it for the file (or describe block) that asks
 * for it, closed after it.
 */
import { afterAll, beforeAll } from 'vitest';
import type { AnyEventEnvelope } from '@ephemera/proto';
import { RoomKey, RoomKeyring, applyOnce, createPool, migrate, type Pool } from '@ephemera/platform';
import { ADMIN_MIGRATIONS } from '../src/index.ts';
import { adminProjector } from '../src/projection.ts';
import { AccountFields } from '../src/account-fields.ts';
import { createTestDatabase } from '../../../test/helpers/db.ts';

export interface AdminTestDatabase {
  /** the database's URL (available once the beforeAll hook ran) */
  readonly url: string;
  /** the file's pool on it (available once the beforeAll hook ran) */
  readonly pool: Pool;
  /** applies each event through the service's real projector, one applyOnce each, as the subscription delivers them */
  apply(events: AnyEventEnvelope[]): Promise<void>;
  /** the accounts' keys (every account has one, made in memory when first asked for) and the lookup key */
  readonly fields: AccountFields;
  /** the keyring behind `fields`: forget(id) plays an account deleted by billing (its key destroyed) */
  readonly keyring: RoomKeyring;
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
  const keyring = new RoomKeyring(async (id) => RoomKey.generate(id));
  const fields = new AccountFields(keyring);
  const project = adminProjector(fields);
  beforeAll(async () => {
    opened = await openAdminTestDatabase();
  });
  afterAll(async () => {
    await opened?.pool.end();
  });
  return {
    get url() {
      return current().url;
    },
    get pool() {
      return current().pool;
    },
    fields,
    keyring,
    async apply(events) {
      for (const e of events) await applyOnce(current().pool, 'admin', [e], project);
    },
  };
}
