/**
 * Reading one answer of the link-preview fetcher: at most its cap of decompressed bytes (cut or refused past it, as
 * the retrieval asks), then the connection dropped; and a page's bytes to text. Apart from the hops and their checks
 * (fetcher.ts).
 */
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { failed, type Texts } from './fetch-texts.ts';

/** What one retrieval reads: the accepted media types, the cap and what happens past it, the words. */
export interface Retrieval {
  accept: string;
  accepts(mediaType: string): boolean;
  maxBytes: number;
  /** past maxBytes: keep what was read (a page: its head is enough) or refuse (an image cut short is no image) */
  overflow: 'cut' | 'refuse';
  texts: Texts;
}

/** Read at most maxBytes of the decompressed body, then drop the connection (and cut or refuse, as asked). */
export function readBody(
  res: IncomingMessage,
  signal: AbortSignal,
  what: Retrieval,
): Promise<{ body: Buffer; truncated: boolean }> {
  const { maxBytes, texts: t } = what;
  const encoding = String(res.headers['content-encoding'] ?? 'identity')
    .trim()
    .toLowerCase();
  let stream: Readable;
  if (encoding === 'identity' || encoding === '') stream = res;
  else if (encoding === 'gzip' || encoding === 'x-gzip') stream = res.pipe(zlib.createGunzip());
  else if (encoding === 'deflate') stream = res.pipe(zlib.createInflate());
  else if (encoding === 'br') stream = res.pipe(zlib.createBrotliDecompress());
  else {
    res.destroy();
    return Promise.reject(failed(t.encoding));
  }

  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const settle = (fn: () => void) => {
      if (done) return;
      done = true;
      signal.removeEventListener('abort', onAbort);
      res.destroy();
      if (stream !== res) stream.destroy();
      fn();
    };
    const onAbort = () => settle(() => reject(signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    stream.on('data', (chunk: Buffer) => {
      if (done) return;
      chunks.push(chunk);
      size += chunk.length;
      if (what.overflow === 'refuse' ? size > maxBytes : size >= maxBytes) {
        settle(() =>
          what.overflow === 'refuse'
            ? reject(failed(t.tooLarge(maxBytes)))
            : resolve({ body: Buffer.concat(chunks).subarray(0, maxBytes), truncated: true }),
        );
      }
    });
    stream.on('end', () => settle(() => resolve({ body: Buffer.concat(chunks), truncated: false })));
    const onError = () => settle(() => reject(failed(t.unreadable)));
    stream.on('error', onError);
    if (stream !== res) res.on('error', onError);
    res.on('close', () => {
      if (!res.complete) onError();
    });
  });
}

/** Bytes to text: the charset of the Content-Type header, else a <meta charset> near the start, else UTF-8. */
export function decode(body: Buffer, contentType: string): string {
  const fromHeader = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1];
  const fromMeta = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(body.subarray(0, 2048).toString('latin1'))?.[1];
  for (const label of [fromHeader, fromMeta, 'utf-8']) {
    if (!label) continue;
    try {
      return new TextDecoder(label).decode(body);
    } catch {
      /* unknown label: try the next */
    }
  }
  return body.toString('utf8');
}
