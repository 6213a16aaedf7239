/** The upload's encryption on its thread: byte for byte file-crypto.ts's format, in order, bounded, recycled. */
import { describe, it, expect } from 'vitest';
import { randomBytes } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { copyToRecycled, recycle } from '@ephemera/platform';
import { recycledFree } from '../../../platform/src/recycled-buffers.ts';
import { CHUNK, TAG, encryptStream, newFileKey } from '../../src/files/file-crypto.ts';
import { BATCH_CHUNKS, encryptStreamOffThread } from '../../src/files/file-cipher-thread.ts';

const collect = async (s: Readable) => {
  const p: Buffer[] = [];
  for await (const c of s) p.push(c as Buffer);
  return Buffer.concat(p);
};
const BATCH_BYTES = BATCH_CHUNKS * (CHUNK + TAG);

describe('file encryption on its thread', () => {
  it('stores exactly what encryptStream stores, for every size around chunk and batch boundaries and any split', async () => {
    const k = newFileKey();
    const batch = BATCH_CHUNKS * CHUNK;
    for (const size of [
      0,
      1,
      CHUNK - 1,
      CHUNK,
      CHUNK + 1,
      batch - 1,
      batch,
      batch + 1,
      2 * batch,
      3 * batch + 12_345,
    ]) {
      const bytes = randomBytes(size);
      const expected = await collect(Readable.from([bytes]).pipe(encryptStream(k, 'f1')));
      const whole = await collect(Readable.from(size ? [bytes] : []).pipe(encryptStreamOffThread(k, 'f1')));
      expect(whole.equals(expected), `size ${size}`).toBe(true);
      // the upload's pieces: recycled copies cut at other places than chunks or batches
      const pieces: Buffer[] = [];
      for (let at = 0; at < size; at += 40_000) pieces.push(copyToRecycled(bytes.subarray(at, at + 40_000)));
      expect(
        (await collect(Readable.from(pieces).pipe(encryptStreamOffThread(k, 'f1')))).equals(expected),
        `pieces of ${size}`,
      ).toBe(true);
    }
  });

  it('keeps concurrent uploads apart and each in order', async () => {
    const files = Array.from({ length: 4 }, (_, i) => ({
      k: newFileKey(),
      id: `c${i}`,
      bytes: randomBytes(5 * BATCH_CHUNKS * CHUNK + i * 1000),
    }));
    const sealed = await Promise.all(
      files.map(({ k, id, bytes }) => {
        const pieces = Array.from({ length: Math.ceil(bytes.length / 30_000) }, (_, j) =>
          bytes.subarray(j * 30_000, (j + 1) * 30_000),
        );
        return collect(Readable.from(pieces).pipe(encryptStreamOffThread(k, id)));
      }),
    );
    for (const [i, { k, id, bytes }] of files.entries()) {
      expect(sealed[i]!.equals(await collect(Readable.from([bytes]).pipe(encryptStream(k, id))))).toBe(true);
    }
  });

  it('waits for a slow reader: a few batches out, not the whole file', async () => {
    const k = newFileKey();
    const sealing = encryptStreamOffThread(k, 'slow');
    const input = Readable.from(Array.from({ length: 400 }, () => randomBytes(CHUNK))); // 25 MB
    let read = 0;
    const reader = new Writable({
      highWaterMark: 1,
      write(c: Buffer, _e, cb) {
        read += c.length;
        setTimeout(cb, 20);
      },
    });
    const piping = pipeline(input, sealing, reader);
    await new Promise((r) => setTimeout(r, 200)); // the reader has taken at most 10 of the 50 batches
    // buffered: what the reader has not taken yet (the transform's two sides), at most a handful of 512 KiB batches
    expect(sealing.readableLength + sealing.writableLength).toBeLessThan(8 * BATCH_BYTES);
    expect(read).toBeLessThan(20 * BATCH_BYTES);
    await piping;
    expect(read).toBe(400 * (CHUNK + TAG));
  });

  it('gives its sealed batches to be recycled: a reader that recycles them lets the next upload reuse the memory', async () => {
    const k = newFileKey();
    const before = recycledFree(BATCH_BYTES);
    const reader = new Writable({
      write(c: Buffer, _e, cb) {
        recycle(c);
        cb();
      },
    });
    await pipeline(Readable.from([randomBytes(6 * BATCH_CHUNKS * CHUNK)]), encryptStreamOffThread(k, 'r'), reader);
    expect(recycledFree(BATCH_BYTES)).toBeGreaterThan(before);
  });

  it('a destroyed upload stops without touching the others', async () => {
    const k = newFileKey();
    const broken = encryptStreamOffThread(k, 'gone');
    const failed = new Promise((r) => broken.once('error', r));
    broken.write(randomBytes(3 * BATCH_CHUNKS * CHUNK));
    broken.destroy(new Error('client went away'));
    expect(((await failed) as Error).message).toBe('client went away');
    const bytes = randomBytes(2 * BATCH_CHUNKS * CHUNK + 5);
    const sealed = await collect(Readable.from([bytes]).pipe(encryptStreamOffThread(k, 'kept')));
    expect(sealed.equals(await collect(Readable.from([bytes]).pipe(encryptStream(k, 'kept'))))).toBe(true);
  });
});
