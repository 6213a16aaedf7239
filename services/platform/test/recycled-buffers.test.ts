import { describe, expect, it } from 'vitest';
import { copyToRecycled, recycle, recycledFree, RECYCLED_SIZE } from '../src/recycled-buffers.ts';

const bytes = (n: number, fill: number) => Buffer.alloc(n, fill);

describe('recycled buffers (the embedded upload handoff)', () => {
  it('copies the bytes: the source can change afterwards', () => {
    const src = bytes(1000, 1);
    const copy = copyToRecycled(src);
    src.fill(2);
    expect(copy.length).toBe(1000);
    expect(copy.every((b) => b === 1)).toBe(true);
    recycle(copy);
  });

  it('reuses a buffer only once every byte copied into it is recycled, piece by piece', () => {
    const a = copyToRecycled(bytes(300, 7));
    const [first, second] = [a.subarray(0, 100), a.subarray(100)];
    recycle(first);
    // 200 bytes still unread: the next copy must not land in a's memory
    const b = copyToRecycled(bytes(300, 8));
    expect(b.buffer).not.toBe(a.buffer);
    expect(second.every((x) => x === 7)).toBe(true);
    recycle(second); // a is free now
    const c = copyToRecycled(bytes(50, 9));
    expect(c.buffer).toBe(a.buffer);
    recycle(b);
    recycle(c);
  });

  it('never reuses a buffer whose bytes were not all recycled (a boundary, a dropped body)', () => {
    const a = copyToRecycled(bytes(500, 3));
    recycle(a.subarray(0, 499));
    for (let i = 0; i < 5; i++) {
      const next = copyToRecycled(bytes(10, 4));
      expect(next.buffer).not.toBe(a.buffer);
      recycle(next);
    }
    expect(a.every((x) => x === 3)).toBe(true);
  });

  it('does not trust a buffer with more bytes recycled than were copied into it', () => {
    const a = copyToRecycled(bytes(100, 5));
    const free = recycledFree();
    recycle(a.subarray(0, 60));
    recycle(a.subarray(0, 60)); // the same piece twice: a bug elsewhere; 120 of 100 bytes
    expect(recycledFree()).toBe(free);
    const b = copyToRecycled(bytes(100, 6));
    expect(b.buffer).not.toBe(a.buffer);
    recycle(b);
  });

  it('ignores buffers it did not hand out; copies larger than a buffer are plain copies', () => {
    const free = recycledFree();
    recycle(Buffer.alloc(RECYCLED_SIZE));
    const big = copyToRecycled(bytes(RECYCLED_SIZE + 1, 1));
    expect(big.length).toBe(RECYCLED_SIZE + 1);
    recycle(big);
    expect(recycledFree()).toBe(free);
  });
});
