/** The storage contract on both adapters: local disk, and S3 against a real S3-compatible server (versitygw). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, it, expect } from 'vitest';
import { lendRecycled, takeRecycled } from '@ephemera/platform';
import { recycledFree } from '../../../platform/src/recycled-buffers.ts';
import { LocalDiskStorage } from '../../src/files/storage/local.ts';
import { S3Storage } from '../../src/files/storage/s3.ts';
import { startVersitygw } from '../../../../test/helpers/versitygw.ts';
import { storageContract } from './storage-contract.ts';

storageContract('local disk', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-files-'));
  return { storage: new LocalDiskStorage(dir), stop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
});

storageContract('S3 (versitygw)', async () => {
  const server = await startVersitygw();
  const storage = new S3Storage({
    endpoint: server.endpoint,
    bucket: 'ephemera-files',
    region: server.region,
    accessKeyId: server.accessKeyId,
    secretAccessKey: server.secretAccessKey,
    forcePathStyle: true,
  });
  await storage.ensureBucket();
  return { storage, stop: () => server.stop() };
});

describe('local disk writer', () => {
  it('gives each recycled buffer back once written, and stores its bytes', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-files-'));
    try {
      const storage = new LocalDiskStorage(dir);
      const size = 100_000; // a size no other buffer of the process is recycled at
      const pieces = Array.from({ length: 6 }, (_, i) => lendRecycled(takeRecycled(size).fill(i), size));
      const free = recycledFree(size);
      await storage.put('w1/f1', Readable.from(pieces));
      expect(recycledFree(size)).toBe(free + 6);
      const stored = fs.readFileSync(path.join(dir, 'w1', 'f1'));
      expect(stored.length).toBe(6 * size);
      expect([0, 1, 2, 3, 4, 5].every((i) => stored[i * size] === i && stored[(i + 1) * size - 1] === i)).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
