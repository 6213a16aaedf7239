/**
 * What may be uploaded (docs/product/files.md F2): jpeg, png, gif, webp; mp4, webm, quicktime; pdf; plain
 * text; csv; Word doc and docx; Excel xls and xlsx. Decided from the bytes (file-type's magic numbers), never from
 * the name or the declared type, with two narrow exceptions the bytes cannot settle:
 *  - plain text and csv have no magic number: accepted only when nothing else is detected, the declared type or the
 *    extension says text or csv, and the whole content is UTF-8 without NUL (checked while streaming: textCheck);
 *  - doc and xls are both OLE compound files (file-type: application/x-cfb): the extension picks which one.
 * Voice messages (MediaRecorder): webm (Chromium, Firefox), ogg/opus, mp4/m4a (Safari).
 */
import { fileTypeFromBuffer } from 'file-type';
import { Transform } from 'node:stream';
import { DomainError, type MessageFile, type UploadPurpose } from '@ephemera/proto';

export type FileKind = MessageFile['kind'];
export interface Detected {
  mime: string;
  kind: FileKind;
  ext: string;
  text: boolean;
}

/** Bytes read before deciding: enough for every magic number, and for the zip entries of docx/xlsx. */
export const SNIFF_BYTES = 256 * 1024;

const BY_MIME: Record<string, { kind: FileKind; ext: string }> = {
  'image/jpeg': { kind: 'image', ext: 'jpg' },
  'image/png': { kind: 'image', ext: 'png' },
  'image/gif': { kind: 'image', ext: 'gif' },
  'image/webp': { kind: 'image', ext: 'webp' },
  'video/mp4': { kind: 'video', ext: 'mp4' },
  'video/webm': { kind: 'video', ext: 'webm' },
  'video/quicktime': { kind: 'video', ext: 'mov' },
  'application/pdf': { kind: 'file', ext: 'pdf' },
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': { kind: 'file', ext: 'docx' },
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { kind: 'file', ext: 'xlsx' },
};
const VOICE_MIMES = new Set([
  'video/webm',
  'audio/webm',
  'audio/ogg',
  'audio/opus',
  'audio/mp4',
  'audio/x-m4a',
  'video/mp4',
]);
/** Served inline (in an <img>, <video>, <audio>): passive media only, never html, svg or pdf. */
export const INLINE_MIMES = new Set([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'video/mp4',
  'video/webm',
  'video/quicktime',
  'audio/webm',
  'audio/ogg',
  'audio/opus',
  'audio/mp4',
  'audio/x-m4a',
]);

const extOf = (name: string) => /\.([A-Za-z0-9]{1,8})$/.exec(name)?.[1]?.toLowerCase() ?? '';

export async function detectType(
  head: Buffer,
  name: string,
  declared: string,
  purpose: UploadPurpose,
): Promise<Detected> {
  const found = await fileTypeFromBuffer(head).catch(() => undefined);
  const ext = extOf(name);
  if (purpose === 'voice') {
    if (found && VOICE_MIMES.has(found.mime))
      return {
        mime: found.mime === 'video/webm' ? 'audio/webm' : found.mime,
        kind: 'voice',
        ext: found.ext,
        text: false,
      };
    throw new DomainError('FILE_TYPE_NOT_SUPPORTED');
  }
  let detected: Detected | null = null;
  if (found) {
    const known = BY_MIME[found.mime];
    if (known) detected = { mime: found.mime, ...known, text: false };
    else if (found.mime === 'application/x-cfb' && (ext === 'doc' || ext === 'xls')) {
      detected = {
        mime: ext === 'doc' ? 'application/msword' : 'application/vnd.ms-excel',
        kind: 'file',
        ext,
        text: false,
      };
    }
  } else {
    const d = declared.toLowerCase().split(';')[0]!.trim();
    const csv = d === 'text/csv' || ext === 'csv';
    if (csv || d === 'text/plain' || ext === 'txt') {
      if (!validUtf8Start(head)) throw new DomainError('FILE_TYPE_NOT_SUPPORTED');
      detected = { mime: csv ? 'text/csv' : 'text/plain', kind: 'file', ext: csv ? 'csv' : 'txt', text: true };
    }
  }
  if (!detected) throw new DomainError(purpose === 'avatar' ? 'PROFILE_IMAGE_TYPE' : 'FILE_TYPE_NOT_SUPPORTED');
  if (purpose === 'avatar' && detected.kind !== 'image') throw new DomainError('PROFILE_IMAGE_TYPE');
  return detected;
}

/** The head may end inside a multi-byte character: only the bytes before it must decode. */
function validUtf8Start(head: Buffer): boolean {
  if (head.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** Passes bytes through, failing with FILE_TYPE_NOT_SUPPORTED at the first NUL or invalid UTF-8 (text and csv). */
export function textCheck(): Transform {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      try {
        if (chunk.includes(0)) throw new DomainError('FILE_TYPE_NOT_SUPPORTED');
        decoder.decode(chunk, { stream: true });
        done(null, chunk);
      } catch (err) {
        done(err instanceof DomainError ? err : new DomainError('FILE_TYPE_NOT_SUPPORTED'));
      }
    },
    flush(done) {
      try {
        decoder.decode();
        done();
      } catch {
        done(new DomainError('FILE_TYPE_NOT_SUPPORTED'));
      }
    },
  });
}
