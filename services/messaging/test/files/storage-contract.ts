/**
 * THE storage contract (services/messaging/src/files/storage/port.ts): every adapter passes the same tests
 * (storage.test.ts runs them on local disk and on S3 against a real versitygw).
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FileStorage } from '../../src/files/storage/port.ts';

const read = async (s: Readable) => {
  const parts: Buffer[] = [];
  for await (const c of s) parts.push(c as Buffer);
  return Buffer.concat(parts);
};
/** A stream that yields `bytes` in uneven chunks, then fails if `failAfter` is set. */
function source(bytes: Buffer, failAfter?: number): Readable {
  return Readable.from(
    (async function* () {
      let at = 0;
      while (at < bytes.length) {
        const n = Math.min(bytes.length - at, 1 + Math.floor(Math.random() * 300_000));
        if (failAfter !== undefined && at + n > failAfter) throw new Error('client went away');
        yield bytes.subarray(at, at + n);
        at += n;
      }
    })(),
  );
}

export function storageContract(name: string, make: () => Promise<{ storage: FileStorage; stop(): Promise<void> }>) {
  describe(`file storage contract: ${name}`, () => {
    let storage: FileStorage;
    let stop: () => Promise<void>;
    const room = () => `r${randomBytes(6).toString('hex')}`;
    beforeAll(async () => {
      ({ storage, stop } = await make());
    }, 240_000);
    afterAll(async () => {
      await storage?.close?.();
      await stop?.();
    });

    it('put then get gives the same bytes and size, also across several S3 parts (12 MB)', async () => {
      const r = room();
      for (const size of [0, 1, 70_000, 12 * 1024 * 1024 + 5]) {
        const bytes = randomBytes(size);
        const key = `${r}/f${size}`;
        expect(await storage.put(key, source(bytes))).toEqual({ size });
        expect((await read(await storage.get(key))).equals(bytes)).toBe(true);
        expect(await storage.exists(key)).toBe(true);
      }
    });

    it('get of a range answers exactly those bytes', async () => {
      const bytes = randomBytes(200_000);
      const key = `${room()}/ranged`;
      await storage.put(key, source(bytes));
      expect(
        (await read(await storage.get(key, { start: 65_000, end: 131_071 }))).equals(bytes.subarray(65_000, 131_072)),
      ).toBe(true);
      expect(
        (await read(await storage.get(key, { start: 199_999, end: 199_999 }))).equals(bytes.subarray(199_999)),
      ).toBe(true);
    });

    it('a missing key is FILE_NOT_FOUND on get and false on exists', async () => {
      const key = `${room()}/missing`;
      await expect(storage.get(key).then(read)).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
      expect(await storage.exists(key)).toBe(false);
    });

    it('a stream that fails half way leaves nothing under the key or the room', async () => {
      const r = room();
      await expect(storage.put(`${r}/broken`, source(randomBytes(7 * 1024 * 1024), 6 * 1024 * 1024))).rejects.toThrow();
      expect(await storage.exists(`${r}/broken`)).toBe(false);
      expect(await storage.list(`${r}/`)).toEqual([]);
    });

    it('list, delete and deletePrefix touch only the room named', async () => {
      const [a, b] = [room(), room()];
      for (const key of [`${a}/one`, `${a}/one.thumb`, `${a}/two`, `${b}/one`])
        await storage.put(key, source(randomBytes(10)));
      expect(await storage.list(`${a}/`)).toEqual([`${a}/one`, `${a}/one.thumb`, `${a}/two`]);
      await storage.delete(`${a}/two`);
      await storage.delete(`${a}/never-there`);
      expect(await storage.list(`${a}/`)).toEqual([`${a}/one`, `${a}/one.thumb`]);
      expect(await storage.deletePrefix(`${a}/`)).toBe(2);
      expect(await storage.list(`${a}/`)).toEqual([]);
      expect(await storage.list(`${b}/`)).toEqual([`${b}/one`]);
    });

    it("keys are the server's own shape: a path or a user's name is refused", async () => {
      for (const key of ['../etc/passwd', 'room/../../x', 'room/a b.png', 'room', '/abs/path']) {
        await expect(storage.put(key, source(Buffer.from('x')))).rejects.toThrow(/invalid storage key/);
      }
      await expect(storage.deletePrefix('')).rejects.toThrow(/invalid storage prefix/);
    });
  });
}
