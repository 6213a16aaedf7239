/**
 * File content at rest (docs/crypto.md, Files): every stored object (a file, and an image's thumbnail) has its own
 * data key (32 random bytes) and nonce prefix, so no key and nonce ever seal two objects; a file's keys are sealed
 * under the room's key (AAD `file-key:{fileId}`) and kept in the file's sealed metadata. Destroying the room key
 * therefore makes every stored file unreadable, wherever copies of the objects remain.
 *
 * The bytes are encrypted as a stream of fixed-size chunks (AES-256-GCM, 64 KiB of plaintext each, 16-byte tag
 * after each): memory stays bounded whatever the file size, and a byte range can be served by decrypting only the
 * chunks it touches (video and voice seeking). Chunk i uses nonce = prefix(8) | i (uint32 BE) and AAD
 * `{objectId}:{i}:{last}`, so chunks cannot be reordered, moved to another file or cut off at the end unnoticed.
 */
import { createCipheriv, createDecipheriv, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { recycle, type RoomKey } from '@ephemera/platform';

export const CHUNK = 64 * 1024;
/** bytes of the GCM tag stored after each chunk */
export const TAG = 16;

export interface FileKey {
  key: Buffer;
  prefix: Buffer;
}

/**
 * The key imported once per file for the cipher: createCipheriv with raw bytes imports them again for every
 * 64 KiB chunk (1,600 times per 100 MB); with a KeyObject the chunks' ciphers cost about 10 % less.
 */
const imported = new WeakMap<FileKey, KeyObject>();
function cipherKey(k: FileKey): KeyObject {
  let key = imported.get(k);
  if (!key) {
    key = createSecretKey(k.key);
    imported.set(k, key);
  }
  return key;
}

export const newFileKey = (): FileKey => ({ key: randomBytes(32), prefix: randomBytes(8) });

/** The keys of one upload: the file's, and its thumbnail's (an object of its own, so a key of its own). */
export interface FileKeys {
  file: FileKey;
  thumb: FileKey;
}
export const newFileKeys = (): FileKeys => ({ file: newFileKey(), thumb: newFileKey() });

const b64 = (b: Buffer) => b.toString('base64');
const bytes = (s: string) => Buffer.from(s, 'base64');

export const sealFileKeys = (room: RoomKey, fileId: string, k: FileKeys): string =>
  room.sealJson(
    { k: b64(k.file.key), p: b64(k.file.prefix), tk: b64(k.thumb.key), tp: b64(k.thumb.prefix) },
    `file-key:${fileId}`,
  );

/**
 * A file's keys. Files stored before thumbnails had keys of their own hold one key (no tk/tp): their thumbnail was
 * sealed under the file's key, and is still read with it.
 */
export function openFileKeys(room: RoomKey, fileId: string, sealed: string): FileKeys {
  const { k, p, tk, tp } = room.openJson<{ k: string; p: string; tk?: string; tp?: string }>(
    sealed,
    `file-key:${fileId}`,
  );
  const file = { key: bytes(k), prefix: bytes(p) };
  return { file, thumb: tk && tp ? { key: bytes(tk), prefix: bytes(tp) } : file };
}

/** Chunks a plaintext of `size` bytes is stored in (an empty file is one empty chunk). */
export const chunkCount = (size: number) => Math.max(1, Math.ceil(size / CHUNK));
/** Stored (encrypted) size of a plaintext of `size` bytes. */
export const storedSize = (size: number) => size + chunkCount(size) * TAG;

function nonce(k: FileKey, index: number): Buffer {
  const n = Buffer.alloc(12);
  k.prefix.copy(n, 0, 0, 8);
  n.writeUInt32BE(index, 8);
  return n;
}
const aad = (objectId: string, index: number, last: boolean) =>
  Buffer.from(`${objectId}:${index}:${last ? 1 : 0}`, 'utf8');

/**
 * Seals one chunk given as pieces (the input is never copied into one buffer): ciphertext pieces, then the tag. The
 * cipher has copied each piece, and nothing else reads the plaintext after this stream: recycled buffers (the
 * embedded upload's, platform/recycled-buffers.ts) go back to be reused.
 */
function sealChunk(k: FileKey, objectId: string, index: number, last: boolean, plain: Buffer[], out: Buffer[]): void {
  const c = createCipheriv('aes-256-gcm', cipherKey(k), nonce(k, index));
  c.setAAD(aad(objectId, index, last));
  for (const piece of plain) {
    out.push(c.update(piece));
    recycle(piece);
  }
  const rest = c.final();
  if (rest.length) out.push(rest);
  out.push(c.getAuthTag());
}

function openChunk(k: FileKey, objectId: string, index: number, last: boolean, sealed: Buffer): Buffer {
  const d = createDecipheriv('aes-256-gcm', cipherKey(k), nonce(k, index));
  d.setAAD(aad(objectId, index, last));
  d.setAuthTag(sealed.subarray(sealed.length - TAG));
  return Buffer.concat([d.update(sealed.subarray(0, sealed.length - TAG)), d.final()]);
}

/**
 * Plaintext in, sealed chunks out. One full chunk is held back until it is known whether it is the last. The input
 * is cut into chunks by reference (subarray), never concatenated: a chunk is a list of pieces fed to one cipher, and
 * every sealed piece is pushed as it is (the file writer gathers them into one writev).
 */
export function encryptStream(k: FileKey, objectId: string): Transform {
  let pending: Buffer[] = []; // the current chunk's pieces, fewer than CHUNK bytes in all
  let pendingLength = 0;
  let held: Buffer[] | null = null; // a full chunk, sealed when the next byte (or the end) arrives
  let index = 0;
  const seal = (out: Buffer[], last: boolean) => {
    if (held) {
      sealChunk(k, objectId, index, last, held, out);
      index += 1;
      held = null;
    }
  };
  const pushAll = (t: Transform, out: Buffer[]) => {
    for (const b of out) t.push(b);
  };
  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      const out: Buffer[] = [];
      let at = 0;
      while (at < chunk.length) {
        const take = Math.min(CHUNK - pendingLength, chunk.length - at);
        if (held) seal(out, false); // more bytes follow the held chunk: it was not the last
        pending.push(at === 0 && take === chunk.length ? chunk : chunk.subarray(at, at + take));
        pendingLength += take;
        at += take;
        if (pendingLength === CHUNK) {
          held = pending;
          pending = [];
          pendingLength = 0;
        }
      }
      pushAll(this, out);
      done();
    },
    flush(done: TransformCallback) {
      const out: Buffer[] = [];
      if (pendingLength > 0 || !held) {
        seal(out, false);
        sealChunk(k, objectId, index, true, pending, out);
      } else {
        seal(out, true);
      }
      pushAll(this, out);
      done();
    },
  });
}

/**
 * The stored byte range that holds plaintext bytes [start, end] of a file of `size` bytes, and the decrypting
 * transform that turns that stored range back into exactly those plaintext bytes.
 */
export function decryptRange(
  k: FileKey,
  objectId: string,
  size: number,
  start: number,
  end: number,
): { stored: { start: number; end: number }; transform: Transform } {
  const total = chunkCount(size);
  const first = Math.floor(start / CHUNK);
  const lastIndex = Math.min(total - 1, Math.floor(Math.max(end, 0) / CHUNK));
  const storedStart = first * (CHUNK + TAG);
  const storedEnd = Math.min(storedSize(size), (lastIndex + 1) * (CHUNK + TAG)) - 1;
  let index = first;
  let pending: Buffer = Buffer.alloc(0);
  let skip = start - first * CHUNK;
  let remaining = size === 0 ? 0 : end - start + 1;
  const emit = (t: Transform, sealed: Buffer) => {
    const plain = openChunk(k, objectId, index, index === total - 1, sealed);
    index += 1;
    const part = plain.subarray(skip, skip + remaining);
    skip = 0;
    remaining -= part.length;
    if (part.length) t.push(part);
  };
  const transform = new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      try {
        pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
        while (pending.length >= CHUNK + TAG) {
          emit(this, pending.subarray(0, CHUNK + TAG));
          pending = pending.subarray(CHUNK + TAG);
        }
        done();
      } catch (err) {
        done(err as Error);
      }
    },
    flush(done: TransformCallback) {
      try {
        if (pending.length) emit(this, pending);
        if (index <= lastIndex) throw new Error('stored file is truncated');
        done();
      } catch (err) {
        done(err as Error);
      }
    },
  });
  return { stored: { start: storedStart, end: storedEnd }, transform };
}
