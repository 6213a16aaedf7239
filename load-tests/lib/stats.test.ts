import { describe, expect, it } from 'vitest';
import {
  bucketOf,
  bucketRange,
  coreBusyPct,
  coreTimes,
  cpuDeltaUs,
  Histogram,
  median,
  parseProcStat,
  percentileSorted,
} from './stats.ts';

describe('percentiles', () => {
  it('nearest rank on a sorted array', () => {
    const a = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentileSorted(a, 50)).toBe(50);
    expect(percentileSorted(a, 99)).toBe(99);
    expect(percentileSorted(a, 100)).toBe(100);
    expect(percentileSorted(a, 0)).toBe(1);
    expect(percentileSorted([7], 99)).toBe(7);
    expect(percentileSorted([], 50)).toBeNaN();
  });

  it('median of odd, even, with NaN', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([NaN, 5])).toBe(5);
    expect(median([])).toBeNaN();
  });
});

describe('histogram', () => {
  it('buckets are contiguous and hold their values', () => {
    let prevHigh = 0;
    for (let i = 0; i < 3000; i++) {
      const [lo, hi] = bucketRange(i);
      expect(lo).toBe(prevHigh);
      expect(bucketOf(lo)).toBe(i);
      expect(bucketOf(hi - 1)).toBe(i);
      expect((hi - lo) / lo <= 1 / 128 || hi - lo === 1).toBe(true);
      prevHigh = hi;
    }
  });

  it('percentiles within 1% of the exact ones', () => {
    const h = new Histogram();
    const xs: number[] = [];
    let seed = 42;
    for (let i = 0; i < 20000; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const v = Math.round(Math.exp((seed / 2 ** 31) * 14)); // 1 .. 1.2M, log-spread
      xs.push(v);
      h.record(v);
    }
    xs.sort((a, b) => a - b);
    for (const p of [50, 90, 95, 99, 99.9]) {
      const exact = percentileSorted(xs, p);
      expect(Math.abs(h.percentile(p) - exact)).toBeLessThanOrEqual(Math.max(1, exact * 0.01));
    }
    expect(h.percentile(100)).toBe(xs[xs.length - 1]);
    expect(h.max).toBe(xs[xs.length - 1]);
    expect(h.min).toBe(xs[0]);
  });

  it('small values are exact; merge and JSON round trip keep counts', () => {
    const a = new Histogram();
    const b = new Histogram();
    [1, 2, 3].forEach((v) => a.record(v));
    [4, 5].forEach((v) => b.record(v));
    const m = Histogram.from(JSON.parse(JSON.stringify(a.toJSON()))).merge(b);
    expect(m.count).toBe(5);
    expect(m.percentile(50)).toBe(3);
    expect(m.percentile(100)).toBe(5);
    expect(m.mean()).toBe(3);
    expect(new Histogram().percentile(50)).toBeNaN();
  });
});

describe('/proc parsing', () => {
  it('reads utime+stime and a comm with spaces and parentheses', () => {
    const line = '1234 (node (x) y) S 1000 1234 1000 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 11 0 500 0 0';
    expect(parseProcStat(line)).toEqual({ pid: 1234, comm: 'node (x) y', ppid: 1000, cpuTicks: 325 });
  });

  it('CPU delta per label in microseconds, new processes from zero', () => {
    const before = new Map([[1, { label: 'node', comm: 'node', ticks: 100 }]]);
    const after = new Map([
      [1, { label: 'node', comm: 'node', ticks: 150 }],
      [2, { label: 'node/postgres', comm: 'postgres', ticks: 3 }],
    ]);
    expect(cpuDeltaUs(before, after)).toEqual({ node: 500000, 'node/postgres': 30000 });
  });

  it('per-core busy from /proc/stat', () => {
    const a = coreTimes('cpu  1 1 1 1\ncpu0 100 0 50 800 50 0 0 0 0 0\ncpu1 10 0 0 990 0 0 0 0 0 0\n');
    const b = coreTimes('cpu  1 1 1 1\ncpu0 150 0 100 850 50 0 0 0 0 0\ncpu1 20 0 0 1080 0 0 0 0 0 0\n');
    expect(coreBusyPct(a, b)).toEqual([(100 / 150) * 100, 10]);
  });
});
