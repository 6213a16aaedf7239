/**
 * The upload's encryption off the event loop: the same stored format as `encryptStream` (file-crypto.ts), sealed by
 * one worker thread (file-cipher-worker.mjs) shared by every upload of the process.
 *
 * Why: a 100 MB upload kept the main thread about 280 ms busy, a third of it in AES-GCM (Node's `cipher.update`
 * also zero-fills each output buffer). On the event loop that time is taken from every socket of the process, and
 * the upload itself runs no faster than one core; in a worker the sealing overlaps with the parsing of the next bytes.
 *
 * How: the plaintext is copied into batches of BATCH_CHUNKS chunks, each chunk at its stored offset (a gap for its
 * tag after it), and the batch's memory is transferred to the worker (no copy), sealed in place and transferred
 * back, ready to write. A full batch is sent only when the next byte arrives (until then it is not known whether its
 * last chunk is the file's last). At most IN_FLIGHT batches per upload are out; the input then waits (backpressure,
 * bounded memory). One worker keeps each upload's batches in order. The batches' memory is recycled
 * (platform/recycled-buffers.ts): a storage that is done with a sealed batch gives it back (`recycle`, local.ts),
 * so a steady upload reuses a few megabytes instead of allocating (and page-faulting, and collecting) 100 MB per 100 MB.
 */
import { Worker } from 'node:worker_threads';
import { Transform, type TransformCallback } from 'node:stream';
import { lendRecycled, recycle, takeRecycled } from '@ephemera/platform';
import { CHUNK, TAG, type FileKey } from './file-crypto.ts';

const STRIDE = CHUNK + TAG;
/** chunks per batch: 512 KiB of plaintext, 200 round trips per 100 MB */
export const BATCH_CHUNKS = 8;
const BATCH_BYTES = BATCH_CHUNKS * STRIDE;
/** batches of one upload out at the worker at once (2 MB): enough to keep it busy while the next batch fills */
const IN_FLIGHT = 4;

interface Result {
  stream: number;
  buf?: ArrayBuffer;
  length?: number;
  error?: string;
}
interface Listener {
  done(r: Result): void;
  fail(err: Error): void;
}

let worker: Worker | null = null;
const listeners = new Map<number, Listener>();
let nextStream = 1;

function cipherWorker(): Worker {
  if (worker) return worker;
  // A small young generation: the thread's garbage is the cipher's output buffers, collected every few megabytes
  // (file-cipher-worker.mjs); V8's default lets it grow to 48 MB of semi-spaces (a 500 MB upload: +20-50 MB of RSS).
  const w = new Worker(new URL('./file-cipher-worker.mjs', import.meta.url), {
    resourceLimits: { maxYoungGenerationSizeMb: 2 },
  });
  w.on('message', (r: Result) => listeners.get(r.stream)?.done(r));
  const lost = (err: Error) => {
    if (worker === w) worker = null; // the next upload starts a new one
    for (const l of [...listeners.values()]) l.fail(err);
  };
  w.on('error', lost);
  w.on('exit', (code) => lost(new Error(`the file encryption thread stopped (${code})`)));
  w.unref(); // ref'd only while an upload waits for it (below): an idle worker keeps nothing alive
  worker = w;
  return w;
}

/** Plaintext in, sealed chunks out (file-crypto.ts's format), sealed on the encryption thread. */
export function encryptStreamOffThread(k: FileKey, objectId: string): Transform {
  const w = cipherWorker();
  const stream = nextStream++;
  const key = new Uint8Array(k.key); // copies: the worker keeps nothing of the caller's buffers
  const prefix = new Uint8Array(k.prefix);
  let buf = takeRecycled(BATCH_BYTES);
  let lengths: number[] = []; // bytes of each chunk of the batch being filled
  let firstIndex = 0; // the file's chunk number of the batch's first chunk
  let sent = 0;
  let pushed = 0; // batches back from the worker (it answers one stream's batches in the order they were sent)
  let waiting: (() => void) | null = null; // the input (or the end) waits for batches to come back
  let ended = false;

  const post = (last: boolean) => {
    const ab = buf.buffer as ArrayBuffer;
    w.postMessage({ stream, key, prefix, objectId, firstIndex, lengths, last, chunk: CHUNK, buf: ab }, [ab]);
    sent += 1;
    firstIndex += lengths.length;
    lengths = [];
    buf = last ? Buffer.alloc(0) : takeRecycled(BATCH_BYTES);
  };
  const release = () => {
    if (!listeners.delete(stream)) return;
    w.postMessage({ type: 'close', stream });
    if (listeners.size === 0) w.unref();
  };
  const wake = () => {
    const go = waiting;
    waiting = null;
    go?.();
  };

  const t = new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      let at = 0;
      while (at < chunk.length) {
        const full = lengths.length === BATCH_CHUNKS && lengths[BATCH_CHUNKS - 1] === CHUNK;
        if (full) post(false); // more bytes follow: the batch's last chunk is not the file's last
        if (lengths.length === 0 || lengths[lengths.length - 1] === CHUNK) lengths.push(0);
        const i = lengths.length - 1;
        const take = Math.min(CHUNK - lengths[i]!, chunk.length - at);
        chunk.copy(buf, i * STRIDE + lengths[i]!, at, at + take);
        lengths[i]! += take;
        at += take;
      }
      recycle(chunk); // copied: the upload's buffer can be reused (platform/recycled-buffers.ts)
      if (sent - pushed >= IN_FLIGHT) waiting = () => done();
      else done();
    },
    flush(done: TransformCallback) {
      if (lengths.length === 0) lengths.push(0); // an empty file is one empty chunk
      post(true);
      ended = true;
      waiting = () => {
        release();
        done();
      }; // once every batch is back and pushed
    },
    destroy(err, cb) {
      release();
      waiting = null;
      cb(err);
    },
  });

  if (listeners.size === 0) w.ref();
  listeners.set(stream, {
    done(r) {
      if (r.error !== undefined) {
        t.destroy(new Error(`file encryption failed: ${r.error}`));
        return;
      }
      t.push(lendRecycled(r.buf!, r.length!));
      pushed += 1;
      if (ended ? pushed === sent : sent - pushed < IN_FLIGHT) wake();
    },
    fail(err) {
      t.destroy(err);
    },
  });
  return t;
}
