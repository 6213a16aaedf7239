/** File content at rest: chunked AES-256-GCM under a per-file key sealed by the room key (docs/crypto.md, Files). */
import { describe, it, expect } from 'vitest';
import { createCipheriv, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { copyToRecycled, RoomKey } from '@ephemera/platform';
import {
  CHUNK,
  decryptRange,
  encryptStream,
  newFileKey,
  newFileKeys,
  openFileKeys,
  sealFileKeys,
  storedSize,
} from '../../src/files/file-crypto.ts';

const collect = async (s: Readable) => {
  const p: Buffer[] = [];
  for await (const c of s) p.push(c as Buffer);
  return Buffer.concat(p);
};
const encrypt = (k: ReturnType<typeof newFileKey>, id: string, bytes: Buffer) =>
  collect(Readable.from([bytes]).pipe(encryptStream(k, id)));
const decrypt = (
  k: ReturnType<typeof newFileKey>,
  id: string,
  size: number,
  stored: Buffer,
  start = 0,
  end = size - 1,
) => {
  const plan = decryptRange(k, id, size, start, end);
  return collect(Readable.from([stored.subarray(plan.stored.start, plan.stored.end + 1)]).pipe(plan.transform));
};

describe('file encryption', () => {
  it('round-trips every size around the chunk boundaries; the stored size is predictable', async () => {
    const k = newFileKey();
    for (const size of [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK, 3 * CHUNK + 17]) {
      const bytes = randomBytes(size);
      const stored = await encrypt(k, 'f1', bytes);
      expect(stored.length).toBe(storedSize(size));
      expect(stored.includes(bytes.subarray(0, Math.min(size, 32))) && size >= 32).toBe(false); // no plaintext run
      expect((await decrypt(k, 'f1', size, stored)).equals(bytes)).toBe(true);
    }
  });

  it('gives recycled input buffers back once sealed: reusing them at once does not change what was stored', async () => {
    const k = newFileKey();
    const bytes = randomBytes(6 * CHUNK + 999);
    // the embedded upload's pieces: recycled 64 KiB copies, cut at other places than the cipher's chunks
    const pieces: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += 40_000) pieces.push(copyToRecycled(bytes.subarray(at, at + 40_000)));
    const encrypting = encryptStream(k, 'f0');
    const sealed: Buffer[] = [];
    encrypting.on('data', (c: Buffer) => sealed.push(c));
    const reused = new Set<ArrayBufferLike>();
    for (const piece of pieces) {
      encrypting.write(piece);
      // what a next upload would do meanwhile: take free buffers and overwrite them
      const next = copyToRecycled(Buffer.alloc(40_000, 0xee));
      if (pieces.some((p) => p.buffer === next.buffer)) reused.add(next.buffer);
    }
    encrypting.end();
    await new Promise((r) => encrypting.once('end', r));
    expect(reused.size).toBeGreaterThan(0); // the pieces did come back, and were written over
    expect((await decrypt(k, 'f0', bytes.length, Buffer.concat(sealed))).equals(bytes)).toBe(true);
  });

  it('serves any byte range by decrypting only the chunks it touches', async () => {
    const k = newFileKey();
    const bytes = randomBytes(5 * CHUNK + 123);
    const stored = await encrypt(k, 'f2', bytes);
    for (const [s, e] of [
      [0, 0],
      [CHUNK - 1, CHUNK],
      [CHUNK + 5, 4 * CHUNK + 7],
      [5 * CHUNK, 5 * CHUNK + 122],
      [1000, 1000],
    ] as const) {
      expect((await decrypt(k, 'f2', bytes.length, stored, s, e)).equals(bytes.subarray(s, e + 1))).toBe(true);
    }
  });

  it('refuses a tampered byte, a chunk of another file, and a file cut short at a chunk boundary', async () => {
    const k = newFileKey();
    const bytes = randomBytes(2 * CHUNK + 10);
    const stored = await encrypt(k, 'f3', bytes);
    const flipped = Buffer.from(stored);
    flipped[CHUNK + 20]! ^= 1;
    await expect(decrypt(k, 'f3', bytes.length, flipped)).rejects.toThrow();
    await expect(decrypt(k, 'other', bytes.length, stored)).rejects.toThrow();
    const truncated = stored.subarray(0, 2 * (CHUNK + 16));
    await expect(decrypt(k, 'f3', 2 * CHUNK, truncated)).rejects.toThrow();
  });

  it('stores the same bytes however the input is split (the documented format: old files still open)', async () => {
    const k = newFileKey();
    const bytes = randomBytes(3 * CHUNK + 999);
    const whole = await encrypt(k, 'f6', bytes);
    const cuts = [1, CHUNK - 3, CHUNK, CHUNK + 1, 2 * CHUNK + 500, 3 * CHUNK];
    const pieces = cuts.map((c, i) => bytes.subarray(i ? cuts[i - 1] : 0, c)).concat(bytes.subarray(cuts.at(-1)));
    expect((await collect(Readable.from(pieces).pipe(encryptStream(k, 'f6')))).equals(whole)).toBe(true);
    // Chunk 0 sealed by hand as docs/crypto.md says: nonce = prefix | 0 (uint32 BE), AAD "f6:0:0", tag after.
    const nonce = Buffer.concat([k.prefix, Buffer.alloc(4)]);
    const c = createCipheriv('aes-256-gcm', k.key, nonce).setAAD(Buffer.from('f6:0:0'));
    const chunk0 = Buffer.concat([c.update(bytes.subarray(0, CHUNK)), c.final(), c.getAuthTag()]);
    expect(whole.subarray(0, CHUNK + 16).equals(chunk0)).toBe(true);
  });

  it('the file keys open only under their room key and file id', () => {
    const room = RoomKey.generate('w1');
    const k = newFileKeys();
    const sealed = sealFileKeys(room, 'f4', k);
    const opened = openFileKeys(room, 'f4', sealed);
    expect(opened.file.key.equals(k.file.key) && opened.file.prefix.equals(k.file.prefix)).toBe(true);
    expect(opened.thumb.key.equals(k.thumb.key) && opened.thumb.prefix.equals(k.thumb.prefix)).toBe(true);
    expect(() => openFileKeys(room, 'f5', sealed)).toThrow();
    expect(() => openFileKeys(RoomKey.generate('w1'), 'f4', sealed)).toThrow();
  });

  it('a file and its thumbnail never share a key and nonce; a file sealed with one key still opens its thumbnail', () => {
    const k = newFileKeys();
    expect(k.thumb.key.equals(k.file.key) || k.thumb.prefix.equals(k.file.prefix)).toBe(false);
    const room = RoomKey.generate('w1');
    const single = newFileKey();
    const older = room.sealJson(
      { k: single.key.toString('base64'), p: single.prefix.toString('base64') },
      'file-key:f6',
    );
    const opened = openFileKeys(room, 'f6', older);
    expect(opened.thumb.key.equals(single.key) && opened.thumb.prefix.equals(single.prefix)).toBe(true);
  });
});
