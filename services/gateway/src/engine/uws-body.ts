/**
 * A uWS request's body for the embedded proxy's body handoff (handed-body.ts): the express route reads it
 * in-process instead of over a loopback socket, and uWS stops reading the socket (res.pause) while the route is behind.
 */
import type { HttpResponse } from '@btc-vision/uwebsockets.js';
import { copyToRecycled, RECYCLED_SIZE } from '@ephemera/platform';
import { HandedBody } from './handed-body.ts';

/**
 * uWS's chunks (up to its 512 KB receive buffer, of every size) are copied in pieces of at most 64 KiB, into
 * recycled buffers (platform/recycled-buffers.ts: the file encryption gives them back once the cipher has read them,
 * so a large upload does not allocate its size again and again). With copies of uWS's own sizes into fresh buffers
 * the process's heap grew by 40-55 MB during a 500 MB upload instead of 25-35 MB
 * (services/embedded/test/upload-memory.test.ts), with the same bytes in flight.
 */
const PIECE = RECYCLED_SIZE;

/** Must be called synchronously in the uWS handler (uWS requires onData before it returns). */
export function uwsBody(res: HttpResponse): HandedBody {
  const handed = new HandedBody({ pause: () => res.pause(), resume: () => res.resume() });
  res.onData((chunk, isLast) => {
    if (!handed.wanted) return;
    // uWS reuses the chunk's memory after this callback: copy before handing it on.
    const pieces: Buffer[] = [];
    for (let at = 0; at < chunk.byteLength; at += PIECE)
      pieces.push(copyToRecycled(new Uint8Array(chunk, at, Math.min(PIECE, chunk.byteLength - at))));
    handed.push(pieces, isLast);
  });
  return handed;
}
