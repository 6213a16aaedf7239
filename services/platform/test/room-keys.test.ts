import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { FileRoomKeyStore, MasterKeys, RoomKey, RoomKeyring } from '../src/crypto/index.ts';

const tmpDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'room-keys-'));

describe('room keys', () => {
  it('seals and opens; a wrong AAD, a wrong key or a flipped byte is refused', () => {
    const k = RoomKey.generate('w1');
    const sealed = k.seal('canary text', 'm1');
    expect(sealed.startsWith('e1.')).toBe(true);
    expect(sealed).not.toContain('canary');
    expect(k.open(sealed, 'm1')).toBe('canary text');
    expect(k.seal('canary text', 'm1')).not.toBe(sealed); // random nonce
    expect(() => k.open(sealed, 'm2')).toThrow();
    expect(() => RoomKey.generate('w1').open(sealed, 'm1')).toThrow();
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    raw[20] ^= 1;
    expect(() => k.open(`e1.${raw.toString('base64url')}`, 'm1')).toThrow();
    expect(k.hash('search-v1', 'word')).toBe(k.hash('search-v1', 'word'));
    expect(k.hash('search-v1', 'word')).not.toBe(k.hash('username-v1', 'word'));
  });

  it('the file store keeps a key across instances, never replaces one, and destroys it for good', async () => {
    const dir = tmpDir();
    const masters = new MasterKeys(randomBytes(32));
    const store = new FileRoomKeyStore(dir, masters);
    const k = await store.create('w1');
    const sealed = k.seal('hello');
    const again = await new FileRoomKeyStore(dir, masters).get('w1');
    expect(again!.open(sealed)).toBe('hello');
    await expect(store.create('w1')).rejects.toThrow();
    expect(fs.readFileSync(path.join(dir, 'w1.key'), 'utf8')).not.toContain(k.exportRaw().toString('base64url'));
    await store.destroy('w1');
    expect(await store.get('w1')).toBeNull();
    expect(fs.readdirSync(dir)).toEqual([]);
    await store.destroy('w1'); // idempotent
    expect(await new FileRoomKeyStore(dir, new MasterKeys(randomBytes(32))).get('w2')).toBeNull();
  });

  it('rotation: a new master key with the old one as previous opens and re-wraps every key', async () => {
    const dir = tmpDir();
    const oldMaster = randomBytes(32);
    const k = await new FileRoomKeyStore(dir, new MasterKeys(oldMaster)).create('w1');
    const sealed = k.seal('x');
    await expect(new FileRoomKeyStore(dir, new MasterKeys(randomBytes(32))).get('w1')).rejects.toThrow(
      /unknown master key/,
    );
    const newMaster = randomBytes(32);
    const rotating = new FileRoomKeyStore(dir, new MasterKeys(newMaster, [oldMaster]));
    expect(await rotating.rewrapAll()).toBe(1);
    expect((await new FileRoomKeyStore(dir, new MasterKeys(newMaster)).get('w1'))!.open(sealed)).toBe('x');
  });

  it('the keyring fetches once, caches, and forgets', async () => {
    let calls = 0;
    const key = RoomKey.generate('w1');
    const ring = new RoomKeyring(async (id) => {
      calls++;
      return id === 'w1' ? key : null;
    });
    const [a, b] = await Promise.all([ring.key('w1'), ring.key('w1')]);
    expect(a).toBe(key);
    expect(b).toBe(key);
    expect(calls).toBe(1);
    expect(await ring.key('nope')).toBeNull();
    ring.forget('w1');
    expect(await ring.key('w1')).toBeNull();
    expect(ring.cached('w1')).toBeNull();
  });

  it('confirm asks the owner past the cache: a key destroyed after it was cached is gone from then on', async () => {
    let destroyed = false;
    let calls = 0;
    const key = RoomKey.generate('w1');
    const ring = new RoomKeyring(async () => {
      calls++;
      return destroyed ? null : key;
    });
    expect(await ring.key('w1')).toBe(key);
    expect(await ring.confirm('w1')).toBe(true);
    expect(calls).toBe(2);
    destroyed = true;
    expect(ring.cached('w1')).toBe(key); // the cache alone would still answer
    expect(await ring.confirm('w1')).toBe(false);
    expect(await ring.key('w1')).toBeNull();
    expect(ring.isGone('w1')).toBe(true);
  });
});
