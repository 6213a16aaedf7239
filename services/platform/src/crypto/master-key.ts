/**
 * The master key wraps (encrypts) every room's data key at rest (docs/crypto.md "Key hierarchy"). It comes from
 * configuration: ROOM_MASTER_KEY (distributed; a Kubernetes Secret) or DATA_DIR/master.key (embedded, created once).
 * Rotation: ROOM_MASTER_KEY takes the new key, ROOM_MASTER_KEYS_PREVIOUS lists the old ones (comma-separated) so
 * existing wrapped keys still open; FileRoomKeyStore.rewrapAll() re-wraps every room key under the new one.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** A fixed key for development and tests only: the services warn at start when they fall back to it. */
export const DEV_MASTER_KEY = Buffer.from('ephemera development master key, never production!'.slice(0, 32), 'utf8');

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

/** A short public id of a master key, stored beside each wrapped key so rotation knows which one wrapped it. */
export const masterKeyId = (key: Buffer): string => createHash('sha256').update(key).digest('hex').slice(0, 16);

export interface WrappedKey {
  v: 1;
  kid: string;
  wrapped: string;
}

/** The current master key and the previous ones (read-only, during rotation). */
export class MasterKeys {
  private readonly byId = new Map<string, Buffer>();
  readonly currentId: string;

  constructor(
    private readonly current: Buffer,
    previous: Buffer[] = [],
  ) {
    this.currentId = masterKeyId(current);
    for (const k of [current, ...previous]) this.byId.set(masterKeyId(k), k);
  }

  /** AES-256-GCM under the current master key; the AAD binds the wrapped key to its room. */
  wrap(workspaceId: string, roomKey: Buffer): WrappedKey {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.current, nonce);
    cipher.setAAD(Buffer.from(`room-key:${workspaceId}`, 'utf8'));
    const body = Buffer.concat([cipher.update(roomKey), cipher.final()]);
    return {
      v: 1,
      kid: this.currentId,
      wrapped: Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64url'),
    };
  }

  unwrap(workspaceId: string, w: WrappedKey): Buffer {
    const master = this.byId.get(w.kid);
    if (!master) throw new Error(`room key of ${workspaceId} is wrapped by an unknown master key ${w.kid}`);
    const raw = Buffer.from(w.wrapped, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', master, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(`room-key:${workspaceId}`, 'utf8'));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]);
  }
}
