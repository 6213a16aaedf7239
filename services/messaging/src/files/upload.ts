/**
 * The multipart upload, streamed (busboy): the form's fields come first (purpose, channelId, caption, durationMs),
 * then the one file part. Nothing of the file is held in memory beyond the first SNIFF_BYTES (type detection) and,
 * for small images, the copy the thumbnail is made from. The size limit is counted as the bytes arrive: one byte past
 * it fails the upload with 413 (the storage adapter throws away what it had written) and the rest of the request is
 * read and dropped, so the client always gets the answer.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import busboy from 'busboy';
import {
  CAPTION_MAX,
  DomainError,
  SERVICE_TEXTS,
  UPLOAD_FIELDS,
  UPLOAD_PURPOSES,
  VOICE_MAX_MS,
  type UploadPurpose,
} from '@ephemera/proto';
import { detectType, SNIFF_BYTES, textCheck, type Detected } from './file-types.ts';

export interface UploadFields {
  purpose: UploadPurpose;
  channelId: string | null;
  caption: string | null;
  durationMs: number | null;
}
/** `size()`: the bytes of the file passed on so far (all of it once `body` has ended). */
export interface IncomingFile {
  name: string;
  declaredType: string;
  detected: Detected;
  body: Readable;
  truncated: () => boolean;
  size: () => number;
}

/**
 * Parses the request; `onFile` runs once with the fields read so far and the file (its body must be consumed or
 * destroyed). `limitFor` gives the byte limit once the fields are known (the purpose changes it).
 */
export function parseUpload(
  req: Readable & { headers: IncomingHttpHeaders },
  limitFor: (fields: UploadFields) => Promise<number>,
  onFile: (fields: UploadFields, file: IncomingFile) => Promise<unknown>,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      // 512 KB buffers: fewer, larger chunks through parsing, encryption and the disk (throughput; memory stays small)
      bb = busboy({
        headers: req.headers,
        highWaterMark: 512 * 1024,
        fileHwm: 512 * 1024,
        limits: { files: 1, fields: 8, fieldSize: 1024, parts: 10, fieldNameSize: 32 },
      });
    } catch {
      reject(new DomainError('FILE_REQUIRED', 'Use multipart/form-data with a file'));
      return;
    }
    const raw: Record<string, string> = {};
    let handled: Promise<unknown> | null = null;
    let failed: unknown = null;
    const fail = (err: unknown) => {
      failed ??= err;
    };

    bb.on('field', (name, value) => {
      raw[name] = value;
    });
    bb.on('file', (_name, stream, info) => {
      if (handled || _name !== UPLOAD_FIELDS.file) {
        stream.resume();
        return;
      }
      let limited: ReturnType<typeof limitStream> | null = null;
      // The request can fail while the limit is looked up (the client went away): busboy then fails this stream
      // before limitStream listens, and an 'error' nobody listens to would end the process. limitStream sees it.
      stream.on('error', () => {});
      handled = (async () => {
        const fields = parseFields(raw);
        const limit = await limitFor(fields);
        // busboy's own limit cannot change after construction: count here, one byte past the limit is enough.
        limited = limitStream(stream, limit, SNIFF_BYTES);
        const head = await limited.head;
        const detected = await detectType(head, info.filename ?? '', info.mimeType ?? '', fields.purpose);
        let body: Readable = limited.body;
        if (detected.text) {
          const checked = textCheck();
          body.once('error', (err) => checked.destroy(err)); // pipe() would not pass a failure (the limit) on
          body = body.pipe(checked);
        }
        return onFile(fields, {
          name: cleanName(info.filename ?? '', detected.ext),
          declaredType: info.mimeType ?? '',
          detected,
          body,
          truncated: limited.exceeded,
          size: limited.size,
        });
      })().catch((err) => {
        // Whatever failed, the rest of the part is read and dropped so busboy can finish the request.
        limited?.body.destroy();
        stream.resume();
        throw err;
      });
      handled.catch(fail);
    });
    bb.on('error', (err) => fail(new DomainError('FILE_REQUIRED', `Upload failed: ${(err as Error).message}`)));
    bb.on('close', () => {
      if (!handled) {
        reject(failed ?? new DomainError('FILE_REQUIRED', 'No file in the upload'));
        return;
      }
      handled.then(resolve, reject);
    });
    // pipe() passes on neither a failure nor an early end of the body (the client went away, a handed-over body
    // dropped): either stops busboy, and with it the file's stream and its storage, so the upload fails, not hangs.
    req.once('error', (err) => bb.destroy(err));
    req.once('close', () => {
      if (!req.readableEnded) bb.destroy(new DomainError('FILE_REQUIRED', 'The upload was cut off'));
    });
    req.pipe(bb);
  });
}

function parseFields(raw: Record<string, string>): UploadFields {
  const purpose = (raw[UPLOAD_FIELDS.purpose] ?? 'message') as UploadPurpose;
  if (!UPLOAD_PURPOSES.includes(purpose)) throw new DomainError('VALIDATION', 'Unknown upload purpose');
  const channelId = raw[UPLOAD_FIELDS.channelId]?.trim() || null;
  if (purpose !== 'avatar' && !channelId)
    throw new DomainError('VALIDATION', 'channelId is required (before the file in the form)');
  if (channelId && !/^[A-Za-z0-9_-]{1,64}$/.test(channelId)) throw new DomainError('VALIDATION', 'Invalid id');
  const caption = raw[UPLOAD_FIELDS.caption]?.trim() || null;
  if (caption && [...caption].length > CAPTION_MAX) throw new DomainError('VALIDATION', SERVICE_TEXTS.captionTooLong);
  const d = raw[UPLOAD_FIELDS.durationMs];
  const durationMs = d && /^\d{1,9}$/.test(d) ? Number(d) : null;
  if (purpose === 'voice' && durationMs !== null && durationMs > VOICE_MAX_MS + 2000)
    throw new DomainError('VALIDATION', SERVICE_TEXTS.voiceTooLong);
  return {
    purpose,
    channelId: purpose === 'avatar' ? null : channelId,
    caption: purpose === 'avatar' ? null : caption,
    durationMs,
  };
}

/** The user's name is metadata only: no path, no control characters, at most 200 characters, an extension kept. */
function cleanName(name: string, ext: string): string {
  const base = name
    .replace(/^.*[\\/]/, '')
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .trim()
    .slice(0, 200);
  return base || `file.${ext}`;
}

/**
 * Passes at most `limit` bytes; one more destroys the stream with FILE_TOO_LARGE. `head` gives the first `headBytes`
 * (or all, if shorter) for the type check, a copy, while `body` keeps every byte, the head's included: one stream
 * layer between busboy and the storage, not three (each layer costs every chunk some microseconds, 1,600 chunks per
 * 100 MB).
 */
function limitStream(
  stream: Readable,
  limit: number,
  headBytes: number,
): { body: Readable; head: Promise<Buffer>; exceeded: () => boolean; size: () => number } {
  let seen = 0;
  let exceeded = false;
  let headChunks: Buffer[] | null = [];
  let settleHead!: (head: Buffer | Error) => void;
  const head = new Promise<Buffer>((resolve, reject) => {
    settleHead = (h) => {
      if (!headChunks) return;
      headChunks = null;
      if (h instanceof Error) reject(h);
      else resolve(h);
    };
  });
  head.catch(() => {}); // a failure before anyone awaits the head is reported through the body too
  const headDone = () => settleHead(Buffer.concat(headChunks!).subarray(0, headBytes));
  // Object mode: each read hands on one of busboy's buffers as it is (a byte-mode read() joins all it holds into a
  // new buffer: one more copy of the whole file). At most 8 buffers wait here before busboy is paused, once the head
  // is complete (before that nobody reads yet; the head is at most `headBytes` and one buffer).
  const body = new Readable({
    objectMode: true,
    highWaterMark: 8,
    read() {
      stream.resume();
    },
    destroy(err, cb) {
      stream.resume();
      settleHead(err ?? new DomainError('FILE_REQUIRED', 'The upload was cut off'));
      cb(err);
    },
  });
  // A failure before anyone reads the body (the limit passed within the head's bytes) is reported through the head;
  // whoever consumes the body sees it through its own listener (pipeline). Never an unhandled 'error'.
  body.on('error', () => {});
  stream.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (body.destroyed) return; // the consumer gave up: the rest is dropped
    if (seen > limit) {
      exceeded = true;
      stream.resume();
      body.destroy(new DomainError('FILE_TOO_LARGE'));
      return;
    }
    if (headChunks) {
      headChunks.push(chunk);
      if (seen >= headBytes) headDone();
    }
    if (!body.push(chunk) && !headChunks) stream.pause();
  });
  stream.on('end', () => {
    if (exceeded) return;
    if (headChunks) headDone();
    body.push(null);
  });
  stream.on('error', (err) => body.destroy(err));
  if (stream.destroyed) body.destroy(stream.errored ?? new DomainError('FILE_REQUIRED', 'The upload was cut off'));
  return { body, head, exceeded: () => exceeded, size: () => Math.min(seen, limit) };
}
