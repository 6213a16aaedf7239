import { describe, expect, it } from 'vitest';
import { clientFrame, FrameSplitter } from './rawws.ts';

const serverFrame = (opcode: number, payload: Buffer, fin = true) => {
  const len = payload.length;
  const head =
    len < 126
      ? Buffer.from([opcode | (fin ? 0x80 : 0), len])
      : len < 65536
        ? Buffer.from([opcode | (fin ? 0x80 : 0), 126, len >> 8, len & 255])
        : null;
  return Buffer.concat([head!, payload]);
};

describe('websocket frame splitting', () => {
  it('splits frames of all sizes, across any chunk boundary, and joins fragments', () => {
    const msgs = ['42["message",{"a":1}]', 'x'.repeat(125), 'y'.repeat(126), 'z'.repeat(70000 - 60000)];
    const stream = Buffer.concat([
      ...msgs.map((m) => serverFrame(1, Buffer.from(m))),
      serverFrame(9, Buffer.from('p')),
      serverFrame(1, Buffer.from('frag-'), false),
      serverFrame(0, Buffer.from('ment')),
    ]);
    for (const step of [1, 2, 3, 7, 100, stream.length]) {
      const got: string[] = [];
      const ctl: number[] = [];
      const s = new FrameSplitter(
        (p) => got.push(p.toString()),
        (op) => ctl.push(op),
      );
      for (let i = 0; i < stream.length; i += step) s.push(stream.subarray(i, i + step));
      expect(got).toEqual([...msgs, 'frag-ment']);
      expect(ctl).toEqual([9]);
    }
  });

  it('client frames are masked with a zero key', () => {
    const f = clientFrame(1, Buffer.from('40'));
    expect([...f]).toEqual([0x81, 0x82, 0, 0, 0, 0, 0x34, 0x30]);
    const big = clientFrame(1, Buffer.alloc(300, 97));
    expect(big[1]).toBe(0x80 | 126);
    expect(big.readUInt16BE(2)).toBe(300);
    expect(big.length).toBe(4 + 4 + 300);
  });
});
