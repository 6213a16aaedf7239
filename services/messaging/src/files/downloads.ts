/**
 * Reading a stored file: the signed links members load media with (bound to the member and to a time, signed under
 * the room's key), and a download (the bytes or one range, decrypted as they stream, with safe headers). The file
 * service (files/service.ts) checks who may read the file before either.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Readable } from 'node:stream';
import { DomainError } from '@ephemera/proto';
import type { RoomKey, RoomKeyring } from '@ephemera/platform';
import type { FileStorage } from './storage/port.ts';
import { decryptRange, openFileKeys, storedSize } from './file-crypto.ts';
import { INLINE_MIMES } from './file-types.ts';
import { describe, type StoredFile } from './repository.ts';

/** Signed links live this long: long enough to load a page of media, short enough that a leaked one soon dies. */
export const LINK_TTL_MS = 15 * 60 * 1000;

export interface Download {
  status: 200 | 206;
  headers: Record<string, string>;
  body: Readable;
}

/** The file's signed address (and its thumbnail's) for this member, from `now` for LINK_TTL_MS. */
export function signedLinks(
  file: StoredFile,
  key: RoomKey,
  userId: string,
  now: number,
): { url: string; thumbnailUrl: string | null; expiresAt: string } {
  const exp = now + LINK_TTL_MS;
  const base = describe(file);
  const sign = (variant: string) =>
    `u=${encodeURIComponent(userId)}&exp=${exp}&sig=${signature(key, file.id, variant, userId, exp)}`;
  return {
    url: `${base.url}?${sign('file')}`,
    thumbnailUrl: file.thumbnailKey ? `${base.url}?variant=thumb&${sign('thumb')}` : null,
    expiresAt: new Date(exp).toISOString(),
  };
}

/** Checks a signed link: the signature under the room's key, not expired; answers the member it names. */
export async function checkSignedLink(
  keyring: RoomKeyring,
  workspaceId: string,
  fileId: string,
  variant: string,
  q: { u?: unknown; exp?: unknown; sig?: unknown },
  now: number,
): Promise<string> {
  const userId = typeof q.u === 'string' ? q.u : '';
  const exp = Number(q.exp);
  const sig = typeof q.sig === 'string' ? q.sig : '';
  if (!userId || !Number.isFinite(exp) || !sig) throw new DomainError('NOT_AUTHENTICATED');
  if (exp < now) throw new DomainError('NOT_AUTHENTICATED', 'This link has expired');
  const key = await keyring.key(workspaceId);
  if (!key) throw new DomainError('WORKSPACE_NOT_FOUND');
  const want = Buffer.from(signature(key, fileId, variant, userId, exp));
  const got = Buffer.from(sig);
  if (want.length !== got.length || !timingSafeEqual(want, got)) throw new DomainError('NOT_AUTHENTICATED');
  return userId;
}

/** The file's bytes (or a range), decrypted as they stream, with safe headers. */
export async function fileDownload(
  storage: FileStorage,
  file: StoredFile,
  key: RoomKey,
  variant: 'file' | 'thumb',
  rangeHeader: string | undefined,
): Promise<Download> {
  const thumb = variant === 'thumb';
  const fileKeys = openFileKeys(key, file.id, file.meta.fileKey);
  const fileKey = thumb ? fileKeys.thumb : fileKeys.file;
  if (thumb && !file.thumbnailKey) throw new DomainError('FILE_NOT_FOUND');
  const size = thumb ? (file.thumbnailSize ?? 0) : file.size;
  const mime = thumb ? 'image/webp' : file.meta.mime;
  const range = thumb ? null : parseRange(rangeHeader, size);
  const start = range?.start ?? 0;
  const end = range?.end ?? size - 1;
  const objectId = thumb ? `${file.id}.thumb` : file.id;
  const plan = decryptRange(fileKey, objectId, size, start, end);
  const source = await storage.get(
    thumb ? file.thumbnailKey! : file.storageKey,
    size === 0 ? undefined : plan.stored.end < storedSize(size) - 1 || plan.stored.start > 0 ? plan.stored : undefined,
  );
  const body = source.pipe(plan.transform);
  source.on('error', (err) => plan.transform.destroy(err));
  const inline = INLINE_MIMES.has(mime);
  const name = thumb ? `${file.meta.name}.webp` : file.meta.name;
  const headers: Record<string, string> = {
    'Content-Type': mime.startsWith('text/') ? `${mime}; charset=utf-8` : mime,
    'Content-Length': String(size === 0 ? 0 : end - start + 1),
    'Content-Disposition': `${inline ? 'inline' : 'attachment'}; filename="${asciiName(name)}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    'X-Content-Type-Options': 'nosniff',
    // Even if a browser were talked into rendering it, a served file runs nothing and reaches nothing.
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'Cache-Control': 'private, no-store',
    'Accept-Ranges': thumb ? 'none' : 'bytes',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
  if (range) headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
  return { status: range ? 206 : 200, headers, body };
}

function signature(key: RoomKey, fileId: string, variant: string, userId: string, exp: number): string {
  return key.hash('file-link-v1', `${fileId}\u0000${variant}\u0000${userId}\u0000${exp}`);
}

const asciiName = (name: string) => name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');

/** One range of `bytes=a-b`, `bytes=a-` or `bytes=-n`; anything else (several ranges, nonsense): the whole file. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!m || size === 0 || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start > end || start >= size) throw new DomainError('VALIDATION', 'Range Not Satisfiable');
  return { start, end };
}
