/**
 * The backup file (.json), written and read as a stream: neither side ever holds the whole file, so a backup of
 * millions of events costs a few hundred kilobytes of memory (one segment, one batch of rows). The file is one JSON
 * document laid out one element per line:
 *   {"format":"ephemera-admin-backup","version":3,"createdAt":"…","file":"<16 hex>","chunks":[
 *   "<base64: iv (12) | AES-256-GCM ciphertext | tag (16)>",
 *   …
 *   "<base64 of the last chunk>"
 *   ],"checksum":"<SHA-256 hex of the plaintext>"}
 * The plaintext is NDJSON records (records.ts: per part meta, rows…, keys…, end), gzip-compressed, then cut into 64 KiB segments,
 * each sealed under the install's backup key (backup-key.ts). Each segment's additional data is the envelope
 * (format, version, createdAt, the file's random id), its index and whether it is the last (the STREAM
 * construction): segments cannot be swapped, dropped, taken from another backup, or the file cut short. The reader
 * takes exactly this layout; anything else, a wrong key, a changed byte or a wrong checksum is BACKUP_INVALID
 * ("Failed to import backup").
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { z } from 'zod';
import { DomainError } from '@ephemera/proto';
import { invalidBackup, parseRecord, type BackupRecord } from './records.ts';

export const BACKUP_FORMAT = 'ephemera-admin-backup';
export const BACKUP_VERSION = 3;

/** plaintext bytes per sealed segment (after compression) */
const SEGMENT = 64 * 1024;
/** a chunk line is a segment in base64 plus quotes: anything longer is not ours */
const MAX_CHUNK_LINE = Math.ceil((SEGMENT + 28) / 3) * 4 + 8;
/** one NDJSON record (a batch of rows, records.ts ROWS_PER_RECORD): far above what the export writes */
const MAX_RECORD_LINE = 32 * 1024 * 1024;

const HEADER =
  /^\{"format":"ephemera-admin-backup","version":(\d{1,3}),"createdAt":"([^"\\]{1,40})","file":"([0-9a-f]{16})","chunks":\[$/;
const CHUNK = /^"([A-Za-z0-9+/]+={0,2})"(,?)$/;
const TRAILER = /^\],"checksum":"([0-9a-f]{64})"\}$/;

interface Envelope {
  createdAt: string;
  file: string;
}
const aad = (e: Envelope, index: number, last: boolean) =>
  Buffer.from(`${BACKUP_FORMAT}\n${BACKUP_VERSION}\n${e.createdAt}\n${e.file}\n${index}\n${last ? 1 : 0}`);

/** Seals the compressed plaintext segment by segment into the file's lines; one segment held back to mark the last. */
class SegmentSealer extends Transform {
  private pending: Buffer = Buffer.alloc(0);
  private index = 0;

  constructor(
    private readonly key: Buffer,
    private readonly envelope: Envelope,
    private readonly checksum: () => string,
  ) {
    super();
    this.push(
      `{"format":"${BACKUP_FORMAT}","version":${BACKUP_VERSION},"createdAt":"${envelope.createdAt}","file":"${envelope.file}","chunks":[\n`,
    );
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    while (this.pending.length > SEGMENT) {
      // more follows this segment: it is not the last
      this.push(`"${this.seal(this.pending.subarray(0, SEGMENT), false)}",\n`);
      this.pending = this.pending.subarray(SEGMENT);
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    this.push(`"${this.seal(this.pending, true)}"\n],"checksum":"${this.checksum()}"}\n`);
    done();
  }

  private seal(segment: Buffer, last: boolean): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(aad(this.envelope, this.index++, last));
    return Buffer.concat([iv, cipher.update(segment), cipher.final(), cipher.getAuthTag()]).toString('base64');
  }
}

/** Writes NDJSON `lines` (each one record, records.ts) as a sealed backup file at `file`. */
export async function writeBackupFile(
  file: string,
  key: Buffer,
  createdAt: string,
  lines: AsyncIterable<string>,
): Promise<void> {
  const hash = createHash('sha256');
  const envelope = { createdAt, file: randomBytes(8).toString('hex') };
  await pipeline(
    async function* plaintext() {
      for await (const line of lines) {
        const bytes = Buffer.from(`${line}\n`);
        hash.update(bytes);
        yield bytes;
      }
    },
    zlib.createGzip({ level: 6 }),
    new SegmentSealer(key, envelope, () => hash.digest('hex')),
    fs.createWriteStream(file, { mode: 0o600, flags: 'wx' }),
  );
}

/** The lines of a byte stream (without their "\n"); a line longer than `max` is BACKUP_INVALID. */
async function* linesOf(source: AsyncIterable<Buffer>, max: number): AsyncGenerator<string> {
  let rest: Buffer = Buffer.alloc(0);
  for await (const chunk of source) {
    let buf: Buffer = rest.length ? Buffer.concat([rest, chunk]) : chunk;
    let nl: number;
    while ((nl = buf.indexOf(0x0a)) >= 0) {
      if (nl > max) throw invalidBackup();
      yield buf.subarray(0, nl).toString('utf8');
      buf = buf.subarray(nl + 1);
    }
    if (buf.length > max) throw invalidBackup();
    rest = buf;
  }
  if (rest.length) yield rest.toString('utf8');
}

interface Trailer {
  createdAt?: string;
  checksum?: string;
}

/**
 * The plaintext segments of a backup file, checked against the layout and opened in order; answers (at its end)
 * the checksum the trailer gives.
 */
async function* openSegments(lines: AsyncIterable<string>, key: Buffer, trailer: Trailer): AsyncGenerator<Buffer> {
  let envelope: Envelope | null = null;
  let index = 0;
  let state: 'header' | 'chunks' | 'trailer' | 'done' = 'header';
  for await (const line of lines) {
    if (state === 'header') {
      const m = HEADER.exec(line);
      if (!m || Number(m[1]) !== BACKUP_VERSION || !z.iso.datetime().safeParse(m[2]).success) throw invalidBackup();
      envelope = { createdAt: m[2]!, file: m[3]! };
      trailer.createdAt = envelope.createdAt;
      state = 'chunks';
    } else if (state === 'chunks') {
      const m = CHUNK.exec(line);
      if (!m) throw invalidBackup();
      const last = m[2] === '';
      const packed = Buffer.from(m[1]!, 'base64');
      if (packed.length < 12 + 16) throw invalidBackup();
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, packed.subarray(0, 12));
        decipher.setAAD(aad(envelope!, index++, last));
        decipher.setAuthTag(packed.subarray(packed.length - 16));
        yield Buffer.concat([decipher.update(packed.subarray(12, packed.length - 16)), decipher.final()]);
      } catch {
        throw invalidBackup(); // another install's key, a changed byte, a segment out of place
      }
      if (last) state = 'trailer';
    } else if (state === 'trailer') {
      const m = TRAILER.exec(line);
      if (!m) throw invalidBackup();
      trailer.checksum = m[1]!;
      state = 'done';
    } else {
      throw invalidBackup(); // anything after the document
    }
  }
  if (state !== 'done') throw invalidBackup(); // cut short
}

/**
 * Reads the backup file at `file`, handing each record to `onRecord` in order (with backpressure: the next is read
 * when it resolves). Resolves once the whole file was read and its checksum matched; so a caller that applies the
 * records inside a transaction commits only a whole, authentic backup. A refusal is BACKUP_INVALID; what
 * `onRecord` throws passes through unchanged.
 */
export async function readBackupFile(
  file: string,
  key: Buffer,
  onRecord: (record: BackupRecord) => Promise<void>,
): Promise<{ createdAt: string }> {
  const hash = createHash('sha256');
  const trailer: Trailer = {};
  let seen = 'none' as 'none' | 'meta' | 'end';
  try {
    await pipeline(
      fs.createReadStream(file),
      (source: AsyncIterable<Buffer>) => openSegments(linesOf(source, MAX_CHUNK_LINE), key, trailer),
      zlib.createGunzip(),
      async (plaintext: AsyncIterable<Buffer>) => {
        for await (const line of linesOf(plaintext, MAX_RECORD_LINE)) {
          hash.update(`${line}\n`);
          const record = parseRecord(line);
          // each part: meta first (its createdAt the envelope's), then rows and keys, then end; after an end only
          // the next part's meta
          if ((seen === 'meta') === (record.kind === 'meta')) throw invalidBackup();
          if (record.kind === 'meta' && record.createdAt !== trailer.createdAt) throw invalidBackup();
          seen = record.kind === 'end' ? 'end' : 'meta';
          await onRecord(record);
        }
      },
    );
  } catch (err) {
    if (err instanceof DomainError) throw err;
    if (/^Z_|^ERR_ZLIB/.test(String((err as { code?: unknown })?.code ?? ''))) throw invalidBackup(); // not gzip inside
    throw err;
  }
  const checksum = Buffer.from(trailer.checksum ?? '');
  const actual = Buffer.from(hash.digest('hex'));
  if (seen !== 'end' || checksum.length !== actual.length || !timingSafeEqual(checksum, actual)) throw invalidBackup();
  return { createdAt: trailer.createdAt! };
}
