/**
 * Recycled 64 KiB buffers for bodies that stream through the process (the embedded upload handoff: uWS's chunks
 * must be copied, uWS reuses its memory after each callback).
 *
 * Why not fresh buffers: V8 counts every new ArrayBuffer as external memory and, about every 64 MB of it, runs a
 * full mark-compact of the whole heap (the embedded app's is about 60 MB live). A 100 MB upload copied into fresh
 * buffers, then encrypted into fresh buffers again, started 3 or more full collections and a dozen scavenges each
 * time. A buffer taken here is given back by whoever consumed its bytes (`recycle`, in the file encryption: the
 * cipher has copied them) and taken again by the next copy.
 *
 * Safety: a buffer comes back only when every byte copied into it has been recycled, counted per buffer. Bytes that
 * never reach `recycle` (a multipart boundary, a body dropped midway, a consumer that keeps what it reads) keep their
 * buffer out of the free list for good: it is garbage-collected like any other. So a consumer that is not sure it is
 * the last holder of a piece simply does not call `recycle`; one that does must do it once per piece (the count
 * cannot tell a piece recycled twice from two pieces). A piece of a buffer this module did not hand out is ignored.
 */

export const RECYCLED_SIZE = 64 * 1024;
/** Free buffers kept at most (4 MB); beyond that a recycled buffer is left to the garbage collector. */
const KEEP = 64;

const free: Buffer[] = [];
/** Bytes of each handed-out buffer not yet recycled. Weak: an unreturned buffer is collected as usual. */
const outstanding = new WeakMap<ArrayBufferLike, { left: number }>();

/** A copy of `src` (at most RECYCLED_SIZE bytes) in a recycled buffer. */
export function copyToRecycled(src: Uint8Array): Buffer {
  if (src.byteLength > RECYCLED_SIZE || src.byteLength === 0) return Buffer.from(src);
  const whole = free.pop() ?? Buffer.allocUnsafeSlow(RECYCLED_SIZE);
  whole.set(src);
  outstanding.set(whole.buffer, { left: src.byteLength });
  return whole.subarray(0, src.byteLength);
}

/** `piece`'s bytes are consumed: nothing reads them again. Its buffer is reused once all of its bytes are. */
export function recycle(piece: Buffer): void {
  const entry = outstanding.get(piece.buffer);
  if (!entry) return;
  entry.left -= piece.byteLength;
  if (entry.left > 0) return;
  outstanding.delete(piece.buffer);
  // Fewer than 0 left: a piece was recycled twice (a bug elsewhere); the buffer is not trusted with reuse.
  if (entry.left === 0 && free.length < KEEP) free.push(Buffer.from(piece.buffer, 0, RECYCLED_SIZE));
}

/** Free buffers waiting to be reused (tests). */
export const recycledFree = (): number => free.length;
