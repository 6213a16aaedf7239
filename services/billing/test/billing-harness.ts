/**
 * Billing's module on a test database, as its tests start it: an embedded event log sealed under file-backed account
 * keys (one key folder per test file, so a restart finds its keys), and a room side that has no rooms.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll } from 'vitest';
import { TOPICS, type AccountRoomsApi } from '@ephemera/proto';
import { EmbeddedEventLog, createLogger, createPool, fileRoomKeys, sealedEventLog } from '@ephemera/platform';
import { startBillingModule, type BillingOptions } from '../src/index.ts';

/** An account with no rooms; anything else a room service would do is not what these tests are about. */
export const NO_ROOMS: AccountRoomsApi = {
  claimWorkspace: async () => {
    throw new Error('not in this test');
  },
  roomsOfAccount: async () => [],
  ownerToken: async () => {
    throw new Error('not in this test');
  },
  deleteRoomsOfAccount: async () => ({ deleted: [] }),
  changeTierOfAccount: async () => ({ changed: [] }),
  extendPaid: async () => {
    throw new Error('not in this test');
  },
};

/** A starter for this test file: every boot shares the file's account keys (in keyDir, removed after the file). */
export function billingHarness(name: string) {
  const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), `billing-${name}-keys-`));
  const masterKey = randomBytes(32);
  afterAll(() => fs.rmSync(keyDir, { recursive: true, force: true }));
  async function boot(databaseUrl: string, options: Partial<BillingOptions> = {}) {
    const pool = createPool(databaseUrl);
    const keys = fileRoomKeys(keyDir, masterKey);
    const log = sealedEventLog(new EmbeddedEventLog(pool), keys.keyring);
    await log.init(Object.values(TOPICS));
    const billing = await startBillingModule({
      databaseUrl,
      pool,
      log,
      logger: createLogger('test', 'silent'),
      accountKeys: keys.store,
      rooms: NO_ROOMS,
      ...options,
    });
    return {
      pool,
      keys,
      billing,
      async stop() {
        await billing.stop();
        await log.close();
        await pool.end();
      },
    };
  }
  return { boot, keyDir };
}
