/**
 * File uploads from the browser (docs/protocol.md Files): POST multipart to /api/workspaces/{id}/files with
 * XMLHttpRequest (fetch has no upload progress), fields before the file, the member's bearer token; cancel aborts
 * the request. Signed links for <img>/<video>/<audio> come from the link route. The client checks type and size
 * first only to answer sooner; the server decides.
 */
import { API, CAPTION_MAX, ERRORS, type UploadPurpose } from '@ephemera/proto/client';
import type { MessageFile } from '@ephemera/proto';
import { t, type MessageId } from '../i18n/i18n.ts';
import { errorText } from '../i18n/errorText.ts';
import { formatNumber } from '../i18n/format.ts';

/** The browser's own upload failures (no answer of the server's): English here, every language in the room catalog. */
const UPLOAD_FAILED = 'Upload failed';
const UPLOAD_ERROR = 'Error uploading file';
const OWN_FAILURES = new Map<string, MessageId>([
  [UPLOAD_FAILED, 'room.upload.failed'],
  [UPLOAD_ERROR, 'room.upload.error'],
]);

export type StoredFile = MessageFile & { expiresAt: string | null };
export type UploadResult = { ok: true; file: StoredFile } | { ok: false; code: string; message: string };
export interface UploadHandle {
  done: Promise<UploadResult>;
  abort(): void;
}

/** What the file input offers (docs/product/files.md F2); the server checks the bytes. */
export const ACCEPTED_TYPES = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'video/mp4',
  'video/webm',
  'video/quicktime',
  'application/pdf',
  'text/plain',
  'text/csv',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
];
const ACCEPTED_EXTENSIONS = [
  'jpg',
  'jpeg',
  'png',
  'gif',
  'webp',
  'mp4',
  'webm',
  'mov',
  'pdf',
  'txt',
  'csv',
  'doc',
  'docx',
  'xls',
  'xlsx',
];
export const ACCEPT_ATTRIBUTE = [...ACCEPTED_TYPES, ...ACCEPTED_EXTENSIONS.map((e) => `.${e}`)].join(',');

/** Why a chosen file cannot go (before uploading): too large for the room's plan, or not an allowed type. */
export function precheck(file: File, maxFileSizeMb: number): 'too-large' | 'type' | null {
  const ext = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase() ?? '';
  if (!ACCEPTED_TYPES.includes(file.type) && !ACCEPTED_EXTENSIONS.includes(ext)) return 'type';
  if (file.size > maxFileSizeMb * 1024 * 1024) return 'too-large';
  return null;
}

export function uploadFile(opts: {
  workspaceId: string;
  userToken: string;
  purpose: UploadPurpose;
  channelId?: string;
  caption?: string;
  durationMs?: number;
  file: Blob;
  name: string;
  onProgress?(fraction: number): void;
}): UploadHandle {
  const xhr = new XMLHttpRequest();
  const form = new FormData();
  form.append('purpose', opts.purpose);
  if (opts.channelId) form.append('channelId', opts.channelId);
  if (opts.caption?.trim()) form.append('caption', opts.caption.trim().slice(0, CAPTION_MAX));
  if (opts.durationMs !== undefined) form.append('durationMs', String(Math.round(opts.durationMs)));
  form.append('file', opts.file, opts.name); // last: the server reads the fields first
  const done = new Promise<UploadResult>((resolve) => {
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) opts.onProgress?.(e.loaded / e.total);
    };
    xhr.onload = () => {
      type Answer = { file?: StoredFile; code?: string; message?: string } | null;
      let body: Answer = null;
      try {
        body = JSON.parse(xhr.responseText) as Answer;
      } catch {
        /* not JSON */
      }
      if (xhr.status === 201 && body?.file) resolve({ ok: true, file: body.file });
      else
        resolve({
          ok: false,
          code: body?.code ?? 'UPLOAD_FAILED',
          message: body?.message ?? (xhr.status === 413 ? ERRORS.FILE_TOO_LARGE : UPLOAD_FAILED),
        });
    };
    xhr.onerror = () => resolve({ ok: false, code: 'UPLOAD_FAILED', message: UPLOAD_ERROR });
    xhr.onabort = () => resolve({ ok: false, code: 'ABORTED', message: 'Upload cancelled' });
  });
  xhr.open('POST', API.uploadFile(opts.workspaceId));
  xhr.setRequestHeader('Authorization', `Bearer ${opts.userToken}`);
  xhr.send(form);
  return { done, abort: () => xhr.abort() };
}

/**
 * The text a failed upload shows (docs/product/files.md F10), null for one the user cancelled. Too large for the
 * room: the spec's text first, then the server's, which names the limit. In the active language (the room's
 * catalogs must be loaded); a text the browser does not know shows as the server sent it.
 */
export function uploadFailureText(result: { code: string; message: string }): string | null {
  if (result.code === 'ABORTED') return null;
  if (result.code === 'FILE_TOO_LARGE') {
    const spec = errorText('FILE_TOO_LARGE', ERRORS.FILE_TOO_LARGE);
    return result.message && result.message !== ERRORS.FILE_TOO_LARGE ? `${spec} ${result.message}` : spec;
  }
  return uploadErrorText(result);
}

/** An upload's refusal or failure as it came, in the active language (the voice message's notice). */
export function uploadErrorText(result: { code: string; message: string }): string {
  const own = OWN_FAILURES.get(result.message || UPLOAD_FAILED);
  return own ? t(own) : errorText(result.code, result.message);
}

/**
 * Whether trying the same upload again can help (files.md F12): the request got no answer of the server's (the
 * network failed, or a proxy answered), not a refusal of the file (type, size, storage full), nor a cancel.
 */
export function isRetryable(result: { code: string }): boolean {
  return result.code === 'UPLOAD_FAILED';
}

/** A file moved or deleted since it was chosen cannot be read: checked before uploading (F10). */
export function isReadable(file: Blob): Promise<boolean> {
  return file
    .slice(0, 1)
    .arrayBuffer()
    .then(
      () => true,
      () => false,
    );
}

/** Signed addresses an element can load (15 minutes). */
export async function fileLink(
  workspaceId: string,
  fileId: string,
  userToken: string,
): Promise<{ url: string; thumbnailUrl: string | null } | null> {
  const res = await fetch(API.fileLink(workspaceId, fileId), {
    headers: { Authorization: `Bearer ${userToken}` },
  }).catch(() => null);
  if (!res?.ok) return null;
  const body = (await res.json().catch(() => null)) as { url?: string; thumbnailUrl?: string | null } | null;
  return body?.url ? { url: body.url, thumbnailUrl: body.thumbnailUrl ?? null } : null;
}

/** one decimal in the active language's mark (1.5 / 1,5), no grouping */
const ONE_DECIMAL = { minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: false } as const;

/** A file's size: 512 B, 1.5 KB, 5.0 MB (1,5 KB in German). */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${formatNumber(bytes / 1024, ONE_DECIMAL)} KB`;
  return `${formatNumber(bytes / 1024 / 1024, ONE_DECIMAL)} MB`;
}

export function formatDuration(ms: number | null): string {
  if (ms === null) return '';
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
