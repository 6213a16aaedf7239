/**
 * A request's body handed to the upload route in-process (platform/body-handoff.ts), the same on both engines: a
 * Readable of its own, so the route may destroy it (an early refusal) without touching the client's socket, whose
 * answer is still to be written. Backpressure reaches the client: while the route is behind (more than
 * HIGH_WATER_MARK buffered), the source (uWS's response, or Node's request) is paused until it catches up.
 */
import { Readable } from 'node:stream';

/** Buffered before the source is paused: two of uWS's receive buffers (512 KB each). */
const HIGH_WATER_MARK = 1024 * 1024;

export interface BodySource {
  pause(): void;
  resume(): void;
}

export class HandedBody {
  readonly body: Readable;
  private paused = false;
  // From here on the source is not paused or resumed for the body: it is answered, aborted or read whole (uWS throws
  // on a pause or resume of an answered or aborted response).
  private done = false;
  private complete = false; // the client sent its last byte

  constructor(private readonly source: BodySource) {
    this.body = new Readable({
      highWaterMark: HIGH_WATER_MARK,
      read: () => {
        if (this.paused && !this.done) {
          this.paused = false;
          source.resume();
        }
      },
      // The reader gave up (or the handoff dropped an unclaimed body): the rest of the request is dropped.
      destroy: (err, cb) => {
        this.finish();
        cb(err);
      },
    });
  }

  /** Whether the client's next bytes are still wanted (no longer once answered, aborted or read whole). */
  get wanted(): boolean {
    return !this.done;
  }

  /** The client's next bytes; `last`: they end the body. Ignored once the body is done with. */
  push(chunks: Uint8Array[], last: boolean): void {
    if (this.done) return;
    let more = true;
    for (const chunk of chunks) more = this.body.push(chunk) && more;
    if (last) {
      // A source left paused here would stay paused for the connection's next request (keep-alive).
      this.complete = true;
      this.finish();
      this.body.push(null);
      return;
    }
    if (!more && !this.paused) {
      this.paused = true;
      this.source.pause();
    }
  }

  /** The answer is under way: whatever the client still sends is read and dropped; the body is destroyed. */
  stop(): void {
    this.finish();
    this.body.destroy();
  }

  /** The client went away: a body not received whole fails (its reader stops and cleans up); the source is not touched again. */
  abort(): void {
    this.done = true;
    // A body received whole is read to its end as usual (the upload completes, as it would over a socket).
    if (!this.complete) this.body.destroy(new Error('the client closed the request'));
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    if (this.paused) {
      this.paused = false;
      this.source.resume();
    } // keep reading, so the rest is drained and dropped
  }
}
