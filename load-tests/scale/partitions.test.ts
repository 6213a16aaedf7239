import { describe, expect, it } from 'vitest';
import { partitionOf, roomId, seededRandom } from './partitions.ts';

// Java Kafka's murmur2 of these keys (its UtilsTest): the partition is (hash & 0x7fffffff) % partitions, what the
// broker's own clients compute, so a room lands where any Java-compatible producer would put it.
const JAVA_MURMUR2: [string, number][] = [
  ['21', -973932308],
  ['foobar', -790332482],
  ['a-little-bit-long-string', -985981536],
  ['a-little-bit-longer-string', -1486304829],
  ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
  ['abc', 479470107],
];

describe('partitionOf', () => {
  it("places a key where Java's murmur2 partitioner does", () => {
    for (const partitions of [4, 7, 64, 172]) {
      for (const [key, hash] of JAVA_MURMUR2) {
        expect(partitionOf(key, partitions), `${key} of ${partitions}`).toBe((hash & 0x7fffffff) % partitions);
      }
    }
  });

  it('spreads generated room ids over every partition, deterministically per seed', () => {
    const ids = (seed: number) => {
      const random = seededRandom(seed);
      return Array.from({ length: 2000 }, () => roomId(random));
    };
    expect(ids(7)).toEqual(ids(7));
    expect(ids(7)).not.toEqual(ids(8));
    const counts = new Array<number>(16).fill(0);
    for (const id of ids(7)) counts[partitionOf(id, 16)]!++;
    expect(Math.min(...counts)).toBeGreaterThan(2000 / 16 / 2);
    expect(ids(7).every((id) => /^[a-zA-Z0-9]{16}$/.test(id))).toBe(true);
  });
});
