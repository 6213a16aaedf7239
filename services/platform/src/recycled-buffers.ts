/**
 * Recycled buffers for bodies that stream through the process: 64 KiB ones for the embedded upload handoff (uWS's
 * chunks must be copied, uWS reuses its memory after each callback), and the file encryption's batches
 * (messaging/files/file-cipher-thread.ts: sealed on a thread, written by the storage, then reused).
 *
 * Why not fresh buffers: V8 counts every new ArrayBuffer as external memory and, about every 64 MB of it, runs a
 * full mark-compact of the whole heap (the embedded app's is about 60 MB live). A 100 MB upload copied into fresh
 * buffers, then encrypted into fresh buffers again, started 3 or more full collections and a dozen scavenges each
 * time. A buffer taken here is given back by whoever consumed its bytes (`recycle`: the file encryption once it has
 * copied them, the local disk storage once they are written) and taken again by the next copy.
 *
 * Safety: a buffer comes back only when every byte copied into it has been recycled, counted per buffer. Bytes that
 * never reach `recycle` (a multipart boundary, a body dropped midway, a consumer that keeps what it reads) keep their
 * buffer out of the free list for good: it is garbage-collected like any other. So a consumer that is not sure it is
 * the last holder of a piece simply does not call `recycle`; one that does must do it once per piece (the count
 * cannot tell a piece recycled twice from two pieces). A piece of a buffer this module did not hand out is ignored.
 */

export const RECYCLED_SIZE = 64 * 1024;
/** Free bytes kept at most per buffer size (4 MB); beyond that a recycled buffer is left to the garbage collector. */
const KEEP_BYTES = 4 * 1024 * 1024;

/** Free whole buffers, by size (the upload's 64 KiB copies; the file encryption's batches, files/file-cipher-thread.ts). */
const free = new Map<number, Buffer[]>();
/** Bytes of each handed-out buffer not yet recycled. Weak: an unreturned buffer is collected as usual. */
const outstanding = new WeakMap<ArrayBufferLike, { left: number }>();

/**
 * A whole buffer of `size` bytes, free or new, that nothing else holds: the taker owns it until it lends it
 * (`lendRecycled`). A new one is allocated outside Node's shared pool, so its memory may be transferred to a thread.
 */
export function takeRecycled(size: number): Buffer {
  return free.get(size)?.pop() ?? Buffer.allocUnsafeSlow(size);
}

/**
 * `whole`'s first `length` bytes, lent to a consumer: the buffer goes back to the free list once all of them are
 * recycled. `whole` is a buffer from `takeRecycled` (or its memory, back from a thread).
 */
export function lendRecycled(whole: Buffer | ArrayBuffer, length: number): Buffer {
  const view = whole instanceof ArrayBuffer ? Buffer.from(whole, 0, length) : whole.subarray(0, length);
  if (length > 0) outstanding.set(view.buffer, { left: length });
  return view;
}

/** A copy of `src` (at most RECYCLED_SIZE bytes) in a recycled buffer. */
export function copyToRecycled(src: Uint8Array): Buffer {
  if (src.byteLength > RECYCLED_SIZE || src.byteLength === 0) return Buffer.from(src);
  const whole = takeRecycled(RECYCLED_SIZE);
  whole.set(src);
  return lendRecycled(whole, src.byteLength);
}

/** `piece`'s bytes are consumed: nothing reads them again. Its buffer is reused once all of its bytes are. */
export function recycle(piece: Buffer): void {
  const entry = outstanding.get(piece.buffer);
  if (!entry) return;
  entry.left -= piece.byteLength;
  if (entry.left > 0) return;
  outstanding.delete(piece.buffer);
  // Fewer than 0 left: a piece was recycled twice (a bug elsewhere); the buffer is not trusted with reuse.
  if (entry.left !== 0) return;
  const size = piece.buffer.byteLength;
  const list = free.get(size) ?? free.set(size, []).get(size)!;
  if ((list.length + 1) * size <= KEEP_BYTES) list.push(Buffer.from(piece.buffer, 0, size));
}

/** Free buffers of `size` bytes (RECYCLED_SIZE unless given) waiting to be reused (tests). */
export const recycledFree = (size = RECYCLED_SIZE): number => free.get(size)?.length ?? 0;
