/** The storage contract on both adapters: local disk, and S3 against a real S3-compatible server (versitygw). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
    endpoint: server.endpoint, bucket: 'ephemera-files', region: server.region, accessKeyId: server.accessKeyId,
    secretAccessKey: server.secretAccessKey, forcePathStyle: true,
  });
  await storage.ensureBucket();
  return { storage, stop: () => server.stop() };
});
