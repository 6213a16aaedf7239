/** The storage adapter a process uses: S3 when S3_BUCKET is set (distributed), else local disk under DATA_DIR. */
import path from 'node:path';
import { LocalDiskStorage } from './local.ts';
import { S3Storage } from './s3.ts';
import type { FileStorage } from './port.ts';

export { LocalDiskStorage } from './local.ts';
export { S3Storage, type S3StorageOptions } from './s3.ts';
export type { FileStorage, ByteRange } from './port.ts';

/** The S3_* settings (config.ts, docs/configuration.md); absent bucket: none. */
export interface S3Env {
  S3_ENDPOINT?: string;
  S3_BUCKET?: string;
  S3_ACCESS_KEY_ID?: string;
  S3_SECRET_ACCESS_KEY?: string;
  S3_REGION?: string;
  S3_FORCE_PATH_STYLE?: string;
}

export async function storageFromEnv(env: S3Env, dataDir?: string): Promise<FileStorage> {
  if (env.S3_BUCKET) {
    const s3 = new S3Storage({
      endpoint: env.S3_ENDPOINT || undefined,
      bucket: env.S3_BUCKET,
      region: env.S3_REGION || 'us-east-1',
      accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
      forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true',
    });
    await s3.ensureBucket();
    return s3;
  }
  if (!dataDir)
    throw new Error('file storage: set S3_BUCKET (and S3_ENDPOINT, credentials) or run embedded with a DATA_DIR');
  return new LocalDiskStorage(path.join(dataDir, 'files'));
}
