/**
 * admin-analytics' keyring source in distributed mode (clients.ts adminKeySource): the admin key from its own store,
 * a room key from the room service's route, an account or contact-message key from billing's route; null only when
 * no owner has the key (deleted); an owner that does not answer is an error (delivered again), never "deleted".
 * The owners are their real key routes over real key stores, served on loopback.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_AGGREGATE } from '@ephemera/proto';
import {
  DEV_MASTER_KEY,
  RoomKeyring,
  createLogger,
  errorHandler,
  fileRoomKeys,
  newId,
  serviceCredential,
  type OwnedRoomKeys,
} from '@ephemera/platform';
import { internalRoomKeyRouter } from '@ephemera/room/src/room-keys-http.ts';
import { internalAccountKeyRouter } from '@ephemera/billing/src/account-keys-http.ts';
import { adminKeySource } from '../src/clients.ts';

const credential = serviceCredential('admin-analytics', 'x'.repeat(32));
const dirs: string[] = [];
const servers: Server[] = [];
const store = (): OwnedRoomKeys => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-key-source-'));
  dirs.push(dir);
  return fileRoomKeys(dir, DEV_MASTER_KEY);
};
async function serve(router: express.Router): Promise<string> {
  const app = express();
  app.use(router);
  app.use(errorHandler(createLogger('test', 'silent')));
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('adminKeySource (distributed admin-analytics)', () => {
  const own = store();
  const room = store();
  const billing = store();
  let roomUrl = '';
  let billingUrl = '';
  beforeAll(async () => {
    roomUrl = await serve(internalRoomKeyRouter(room.store));
    billingUrl = await serve(internalAccountKeyRouter(billing.store));
  });
  afterAll(async () => {
    for (const s of servers) await new Promise((r) => s.close(r));
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it("opens each topic with its owner's key: admin (own), room (room service), account and contact message (billing)", async () => {
    const adminKey = await own.store.create(ADMIN_AGGREGATE);
    const roomKey = await room.store.create(newId());
    const accountKey = await billing.store.create(newId());
    const source = adminKeySource(own.store, { roomUrl, billingUrl }, credential);
    for (const key of [adminKey, roomKey, accountKey]) {
      const got = await source(key.workspaceId);
      expect(got?.exportRaw().equals(key.exportRaw()), key.workspaceId).toBe(true);
    }
    // the admin key is never asked of the others, and the others' keys are not in its own store
    expect(await own.store.get(roomKey.workspaceId)).toBeNull();
  });

  it('null only when no owner has the key: a destroyed key is gone for the keyring', async () => {
    const accountKey = await billing.store.create(newId());
    const keyring = new RoomKeyring(adminKeySource(own.store, { roomUrl, billingUrl }, credential));
    expect(await keyring.key(accountKey.workspaceId)).not.toBeNull();
    await billing.store.destroy(accountKey.workspaceId);
    const fresh = new RoomKeyring(adminKeySource(own.store, { roomUrl, billingUrl }, credential));
    expect(await fresh.key(accountKey.workspaceId)).toBeNull();
    expect(fresh.isGone(accountKey.workspaceId)).toBe(true);
    expect(await adminKeySource(own.store, { roomUrl, billingUrl }, credential)(newId())).toBeNull();
  });

  it('an owner that does not answer is an outage, not a deletion: the lookup throws and nothing is marked gone', async () => {
    const accountKey = await billing.store.create(newId());
    const down = 'http://127.0.0.1:1';
    const withoutBilling = new RoomKeyring(adminKeySource(own.store, { roomUrl, billingUrl: down }, credential, 1_000));
    await expect(withoutBilling.key(accountKey.workspaceId)).rejects.toThrow(/account-keys/);
    expect(withoutBilling.isGone(accountKey.workspaceId)).toBe(false);
    const withoutRoom = new RoomKeyring(adminKeySource(own.store, { roomUrl: down, billingUrl }, credential, 1_000));
    await expect(withoutRoom.key(accountKey.workspaceId)).rejects.toThrow(/room-keys/);
    expect(withoutRoom.isGone(accountKey.workspaceId)).toBe(false);
  });
});
