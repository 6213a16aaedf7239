// The upload's encryption thread (file-cipher-thread.ts starts it; the format is file-crypto.ts's).
// Plain JavaScript: a worker thread does not inherit the tsx loader everywhere the service runs (test runners).
//
// A message is one batch of one file: `buf` holds chunk i's plaintext at i * (CHUNK + TAG) (the last one may be
// shorter); each chunk is sealed as file-crypto.ts seals it and its ciphertext and tag are written back in place, so
// `buf` comes back laid out exactly as stored: chunk, tag, chunk, tag...
import { parentPort } from 'node:worker_threads';
import { createCipheriv, createSecretKey } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// Each chunk's cipher output is a new 64 KiB buffer, garbage once copied back into the batch. This thread allocates
// almost nothing else, so V8 would collect them only after about 64 MB of them (its external-memory trigger): a
// 500 MB upload grew the process by 30 MB more than on the main thread. A young-generation collection every 8 MB
// sealed frees them at once (about a millisecond each). The flag is process-wide but only contexts created after it
// get a `gc`: this thread takes it from a fresh context of its own (the main thread's globals are unchanged).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
const GC_EVERY = 8 << 20;
let sinceGc = 0;

const TAG = 16;
const keys = new Map(); // stream id -> KeyObject, while the stream runs

parentPort.on('message', (m) => {
  if (m.type === 'close') {
    keys.delete(m.stream);
    return;
  }
  const { stream, key, prefix, objectId, firstIndex, lengths, last, chunk } = m;
  try {
    let k = keys.get(stream);
    if (!k) {
      k = createSecretKey(Buffer.from(key));
      keys.set(stream, k);
    }
    const buf = Buffer.from(m.buf);
    const stride = chunk + TAG;
    const nonce = Buffer.alloc(12);
    Buffer.from(prefix).copy(nonce, 0, 0, 8);
    let length = 0;
    for (let i = 0; i < lengths.length; i++) {
      const index = firstIndex + i;
      const at = i * stride;
      const n = lengths[i];
      const isLast = last && i === lengths.length - 1;
      nonce.writeUInt32BE(index, 8);
      const c = createCipheriv('aes-256-gcm', k, nonce);
      c.setAAD(Buffer.from(`${objectId}:${index}:${isLast ? 1 : 0}`, 'utf8'));
      const sealed = c.update(buf.subarray(at, at + n));
      const rest = c.final(); // GCM: always empty
      sealed.copy(buf, at);
      rest.copy(buf, at + sealed.length);
      c.getAuthTag().copy(buf, at + n);
      length = at + n + TAG;
    }
    parentPort.postMessage({ stream, buf: m.buf, length }, [m.buf]);
    sinceGc += length;
    if (sinceGc > GC_EVERY) {
      sinceGc = 0;
      gc({ type: 'minor' });
    }
  } catch (err) {
    parentPort.postMessage({ stream, error: String(err?.message ?? err) });
  }
});
