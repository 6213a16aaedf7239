/**
 * Room search keys. Each room's key is derived from the master key and the room id (HKDF-SHA256), so every
 * messaging process derives the same key without storing one per room. The room-administration issue replaces
 * this with each room's own random data key, wrapped by the master key and destroyed with the room; the index is
 * built so that only the key source changes (docs/search.md).
 */
import { hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** A fixed key for development and tests only: the services warn at start when they fall back to it. */
export const DEV_MASTER_KEY = Buffer.from('ephemera development master key, never production!'.slice(0, 32), 'utf8');

export type RoomKeyOf = (workspaceId: string) => Buffer;

export function roomSearchKeys(masterKey: Buffer): RoomKeyOf {
  const cache = new Map<string, Buffer>();
  return (workspaceId) => {
    let key = cache.get(workspaceId);
    if (!key) {
      key = Buffer.from(hkdfSync('sha256', masterKey, Buffer.from(workspaceId, 'utf8'), 'ephemera search index v1', 32));
      if (cache.size > 10_000) cache.clear();
      cache.set(workspaceId, key);
    }
    return key;
  };
}

/** ROOM_MASTER_KEY: 32 bytes, base64 or hex. */
export function parseMasterKey(value: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (key.length !== 32) throw new Error('ROOM_MASTER_KEY must be 32 bytes (64 hex characters or base64)');
  return key;
}

/** Embedded mode: a random master key created once under DATA_DIR (mode 0600) and reused on every start. */
export function masterKeyFile(dataDir: string): Buffer {
  const file = path.join(dataDir, 'master.key');
  if (!fs.existsSync(file)) fs.writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
  return parseMasterKey(fs.readFileSync(file, 'utf8').trim());
}
