/**
 * Local disk adapter (embedded mode): one file per object under DATA_DIR/files/{workspaceId}/{fileId}. A put writes
 * to a temporary name and renames it into place when the stream ends, so a failed or aborted upload leaves nothing
 * under the key (and its temporary file is removed).
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Writable, type Readable } from 'node:stream';
import { recycle } from '@ephemera/platform';
import { DomainError } from '@ephemera/proto';
import { checkKey, checkPrefix, type ByteRange, type FileStorage } from './port.ts';

export class LocalDiskStorage implements FileStorage {
  constructor(readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true });
  }

  private file(key: string): string {
    return path.join(this.dir, ...checkKey(key).split('/'));
  }

  async put(key: string, body: Readable): Promise<{ size: number }> {
    const target = this.file(key);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${randomBytes(6).toString('hex')}.part`;
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
    });
    try {
      await pipeline(body, recyclingFileWriter(temp));
      await fsp.rename(temp, target);
      return { size };
    } catch (err) {
      await fsp.rm(temp, { force: true });
      throw err;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.file(key);
    try {
      const handle = await fsp.open(file, 'r');
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new DomainError('FILE_NOT_FOUND');
      throw err;
    }
  }

  async exists(key: string): Promise<boolean> {
    return fsp.access(this.file(key)).then(
      () => true,
      () => false,
    );
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.file(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<number> {
    const dir = path.join(this.dir, checkPrefix(prefix).slice(0, -1));
    const names = await fsp.readdir(dir).catch(() => [] as string[]);
    await fsp.rm(dir, { recursive: true, force: true });
    return names.filter((n) => !n.endsWith('.part')).length;
  }

  async list(prefix: string): Promise<string[]> {
    const room = checkPrefix(prefix).slice(0, -1);
    const names = await fsp.readdir(path.join(this.dir, room)).catch(() => [] as string[]);
    return names
      .filter((n) => !n.endsWith('.part'))
      .map((n) => `${room}/${n}`)
      .sort();
  }
}

/**
 * A file writer that gives each written buffer back (`recycle`, platform/recycled-buffers.ts) once the disk has it:
 * the upload's sealed batches are then reused by the next ones (files/file-cipher-thread.ts). Everything buffered
 * meanwhile goes out in one writev. (fs.WriteStream does the same but cannot say when a buffer is written.)
 */
function recyclingFileWriter(file: string): Writable {
  let handle: fsp.FileHandle | null = null;
  const writeAll = async (chunks: Buffer[]) => {
    let left = chunks.reduce((n, c) => n + c.length, 0);
    let rest = chunks;
    while (left > 0) {
      // a short write (a full disk fails with ENOSPC) continues where it stopped
      const { bytesWritten } = await handle!.writev(rest);
      left -= bytesWritten;
      let skip = bytesWritten;
      while (rest.length && skip >= rest[0]!.length) {
        skip -= rest[0]!.length;
        rest = rest.slice(1);
      }
      if (skip > 0) rest = [rest[0]!.subarray(skip), ...rest.slice(1)];
    }
    for (const c of chunks) recycle(c);
  };
  return new Writable({
    highWaterMark: 512 * 1024,
    construct(cb) {
      fsp.open(file, 'w', 0o600).then((h) => {
        handle = h;
        cb();
      }, cb);
    },
    writev(chunks, cb) {
      writeAll(chunks.map((c) => c.chunk as Buffer)).then(() => cb(), cb);
    },
    final(cb) {
      handle!.close().then(() => {
        handle = null;
        cb();
      }, cb);
    },
    destroy(err, cb) {
      if (!handle) {
        cb(err);
        return;
      }
      handle
        .close()
        .catch(() => {})
        .finally(() => cb(err));
    },
  });
}
