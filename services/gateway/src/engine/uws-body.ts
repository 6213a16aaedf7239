/**
 * A uWS request's body as a Node Readable, for the embedded proxy's body handoff (platform/body-handoff.ts): the
 * express route reads it in-process instead of over a loopback socket. Backpressure reaches the client: while the
 * reader is behind (more than highWaterMark buffered), uWS stops reading the socket (res.pause) until it catches up.
 */
import { Readable } from 'node:stream';
import type { HttpResponse } from '@btc-vision/uwebsockets.js';
import { copyToRecycled, RECYCLED_SIZE } from '@ephemera/platform';

/** Buffered before uWS is paused: two of uWS's receive buffers (512 KB). */
const HIGH_WATER_MARK = 1024 * 1024;
/**
 * uWS's chunks (up to its 512 KB receive buffer, of every size) are copied in pieces of at most 64 KiB, into
 * recycled buffers (platform/recycled-buffers.ts: the file encryption gives them back once the cipher has read them,
 * so a large upload does not allocate its size again and again). With copies of uWS's own sizes into fresh buffers
 * the process's heap grew by 40-55 MB during a 500 MB upload instead of 25-35 MB
 * (services/embedded/test/upload-memory.test.ts), with the same bytes in flight.
 */
const PIECE = RECYCLED_SIZE;

export interface UwsBody {
  body: Readable;
  /** The answer is under way: whatever the client still sends is read and dropped; the body is destroyed. */
  stop(): void;
  /** The client went away: a body not received whole fails (its reader stops and cleans up); `res` is not touched again. */
  abort(): void;
}

/** Must be called synchronously in the uWS handler (uWS requires onData before it returns). */
export function uwsBody(res: HttpResponse): UwsBody {
  let paused = false;
  // From here on `res` is not touched for the body: it is answered, aborted or fully read, and uWS throws on a
  // pause/resume of an answered or aborted response.
  let done = false;
  let complete = false; // the client sent its last byte
  const finish = () => {
    if (done) return;
    done = true;
    if (paused) { paused = false; res.resume(); } // keep reading the socket so the rest is drained and dropped
  };
  const body = new Readable({
    highWaterMark: HIGH_WATER_MARK,
    read() { if (paused && !done) { paused = false; res.resume(); } },
    // The reader gave up (or the handoff dropped an unclaimed body): the rest of the request is dropped.
    destroy(err, cb) { finish(); cb(err); },
  });
  res.onData((chunk, isLast) => {
    if (done) return;
    // uWS reuses the chunk's memory after this callback: copy before handing it on.
    let more = true;
    for (let at = 0; at < chunk.byteLength; at += PIECE) {
      more = body.push(copyToRecycled(new Uint8Array(chunk, at, Math.min(PIECE, chunk.byteLength - at)))) && more;
    }
    if (isLast) {
      // uWS may hand over data left in its receive buffer after a pause, the last chunk too: a socket left paused
      // here would stay paused for the connection's next request (keep-alive).
      complete = true;
      finish();
      body.push(null);
      return;
    }
    if (!more && !paused) { paused = true; res.pause(); }
  });
  return {
    body,
    stop() { finish(); body.destroy(); },
    abort() {
      done = true;
      // A body received whole is read to its end as usual (the upload completes, as it would over a socket).
      if (!complete) body.destroy(new Error('the client closed the request'));
    },
  };
}
