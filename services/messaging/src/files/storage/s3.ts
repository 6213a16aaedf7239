/**
 * S3-compatible adapter (distributed mode), AWS SDK v3: @aws-sdk/lib-storage's Upload streams a body of unknown
 * length as a multipart upload (5 MB parts, a few in flight), so memory stays bounded whatever the file size; an
 * aborted or failed stream aborts the multipart upload, which leaves no object. Tested against versitygw.
 */
import type { Readable } from 'node:stream';
import {
  S3Client,
  GetObjectCommand,
  HeadObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  ListObjectsV2Command,
  CreateBucketCommand,
  HeadBucketCommand,
  NoSuchKey,
  NotFound,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { DomainError } from '@ephemera/proto';
import { checkKey, checkPrefix, type ByteRange, type FileStorage } from './port.ts';

export interface S3StorageOptions {
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** path-style addresses (http://host/bucket/key): versitygw, MinIO and most self-hosted servers need it */
  forcePathStyle?: boolean;
}

export class S3Storage implements FileStorage {
  private readonly client: S3Client;
  readonly bucket: string;

  constructor(opts: S3StorageOptions) {
    this.bucket = opts.bucket;
    this.client = new S3Client({
      endpoint: opts.endpoint,
      region: opts.region,
      forcePathStyle: opts.forcePathStyle ?? false,
      credentials:
        opts.accessKeyId && opts.secretAccessKey
          ? { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey }
          : undefined,
      // Checksums only when the operation requires them: S3-compatible servers differ in the newer checksum headers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  /** Creates the bucket when it is missing (tests, a fresh local stack); a deployment's bucket normally exists. */
  async ensureBucket(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch {
      await this.client.send(new CreateBucketCommand({ Bucket: this.bucket }));
    }
  }

  async put(key: string, body: Readable): Promise<{ size: number }> {
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
    });
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: checkKey(key), Body: body, ContentType: 'application/octet-stream' },
      queueSize: 2,
      partSize: 5 * 1024 * 1024,
      leavePartsOnError: false,
    });
    // A failing body (size limit, bad type, client gone) must abort the multipart upload, not only stop feeding it.
    const failed = new Promise<never>((_, reject) =>
      body.once('error', (err) => {
        void upload.abort().catch(() => {});
        reject(err);
      }),
    );
    await Promise.race([upload.done(), failed]);
    return { size };
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: checkKey(key),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      return answer.Body as Readable;
    } catch (err) {
      if (err instanceof NoSuchKey || (err as { name?: string }).name === 'NoSuchKey')
        throw new DomainError('FILE_NOT_FOUND');
      throw err;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: checkKey(key) }));
      return true;
    } catch (err) {
      if (
        err instanceof NotFound ||
        (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404
      )
        return false;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: checkKey(key) }));
  }

  async deletePrefix(prefix: string): Promise<number> {
    let removed = 0;
    for (;;) {
      const keys = await this.listPage(checkPrefix(prefix));
      if (keys.length === 0) return removed;
      await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      removed += keys.length;
    }
  }

  async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: checkPrefix(prefix), ContinuationToken: token }),
      );
      for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys.sort();
  }

  private async listPage(prefix: string): Promise<string[]> {
    const page = await this.client.send(
      new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, MaxKeys: 1000 }),
    );
    return (page.Contents ?? []).flatMap((o) => (o.Key ? [o.Key] : []));
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
