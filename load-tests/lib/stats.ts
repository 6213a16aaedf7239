/**
 * Statistics for the bench: a small log-linear histogram (HDR-style, ~0.8% precision, mergeable, serialisable over
 * IPC), exact percentiles of sorted arrays, medians, and process CPU time read from /proc.
 */
import { readFileSync, readdirSync } from 'node:fs';

const SUB_BITS = 7; // 128 sub-buckets per power of two: relative error < 1/128
const SUB = 1 << SUB_BITS;
const LINEAR = SUB * 2; // values below 256 get one bucket each

export function bucketOf(v: number): number {
  if (v < LINEAR) return v;
  const e = 31 - Math.clz32(v); // floor(log2 v), v < 2^31
  const shift = e - SUB_BITS;
  return LINEAR + (e - SUB_BITS - 1) * SUB + ((v >>> shift) - SUB);
}
/** The [low, high) range of values a bucket holds. */
export function bucketRange(i: number): [number, number] {
  if (i < LINEAR) return [i, i + 1];
  const k = i - LINEAR;
  const shift = Math.floor(k / SUB) + 1;
  const low = ((k % SUB) + SUB) * 2 ** shift;
  return [low, low + 2 ** shift];
}

/** Integer-valued histogram (we record microseconds). Values above 2^31-1 are clamped. */
export class Histogram {
  counts = new Map<number, number>();
  count = 0;
  min = Infinity;
  max = -Infinity;
  sum = 0;

  record(value: number): void {
    const v = Math.min(0x7fffffff, Math.max(0, Math.round(value)));
    const b = bucketOf(v);
    this.counts.set(b, (this.counts.get(b) ?? 0) + 1);
    this.count++;
    this.sum += v;
    if (v < this.min) this.min = v;
    if (v > this.max) this.max = v;
  }
  merge(o: Histogram): this {
    for (const [b, c] of o.counts) this.counts.set(b, (this.counts.get(b) ?? 0) + c);
    this.count += o.count;
    this.sum += o.sum;
    this.min = Math.min(this.min, o.min);
    this.max = Math.max(this.max, o.max);
    return this;
  }
  /** Nearest-rank percentile (p in 0..100), reported as the middle of its bucket, clamped to [min, max]. */
  percentile(p: number): number {
    if (this.count === 0) return NaN;
    const rank = Math.max(1, Math.ceil((p / 100) * this.count));
    if (rank >= this.count) return this.max;
    const keys = [...this.counts.keys()].sort((a, b) => a - b);
    let seen = 0;
    for (const k of keys) {
      seen += this.counts.get(k)!;
      if (seen >= rank) {
        const [lo, hi] = bucketRange(k);
        return Math.min(this.max, Math.max(this.min, hi - lo === 1 ? lo : (lo + hi - 1) / 2));
      }
    }
    return this.max;
  }
  mean(): number {
    return this.count ? this.sum / this.count : NaN;
  }
  toJSON(): HistogramJSON {
    return { counts: [...this.counts], count: this.count, min: this.min, max: this.max, sum: this.sum };
  }
  static from(j: HistogramJSON): Histogram {
    const h = new Histogram();
    h.counts = new Map(j.counts);
    h.count = j.count;
    h.min = j.min ?? Infinity;
    h.max = j.max ?? -Infinity;
    h.sum = j.sum;
    return h;
  }
}
export interface HistogramJSON {
  counts: [number, number][];
  count: number;
  min: number | null;
  max: number | null;
  sum: number;
}

/** Nearest-rank percentile of an ascending array. */
export function percentileSorted(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}

export function median(xs: number[]): number {
  const v = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

// ---------------------------------------------------------------- CPU from /proc

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux x86-64). */
export const CLK_TCK = 100;

export interface ProcStat {
  pid: number;
  comm: string;
  ppid: number;
  cpuTicks: number;
}

/** Parses a /proc/<pid>/stat line (comm may contain spaces and parentheses). */
export function parseProcStat(line: string): ProcStat {
  const open = line.indexOf('(');
  const close = line.lastIndexOf(')');
  const pid = Number(line.slice(0, open).trim());
  const comm = line.slice(open + 1, close);
  const f = line.slice(close + 2).split(' '); // f[0] = state (field 3)
  const utime = Number(f[11]); // field 14
  const stime = Number(f[12]); // field 15
  return { pid, comm, ppid: Number(f[1]), cpuTicks: utime + stime };
}

export function readProcStat(pid: number): ProcStat | null {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/** Every live process: pid -> stat. */
export function allProcs(): Map<number, ProcStat> {
  const out = new Map<number, ProcStat>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = readProcStat(Number(name));
    if (s) out.set(s.pid, s);
  }
  return out;
}

/** The pid and all its live descendants. */
export function processTree(root: number, procs = allProcs()): ProcStat[] {
  const children = new Map<number, number[]>();
  for (const s of procs.values()) {
    const l = children.get(s.ppid) ?? [];
    l.push(s.pid);
    children.set(s.ppid, l);
  }
  const out: ProcStat[] = [];
  const stack = [root];
  const seen = new Set<number>();
  while (stack.length) {
    const pid = stack.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    const s = procs.get(pid);
    if (!s) continue;
    out.push(s);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** A labelled process (the label groups it in the report: "node", "gateway", "postgres"...). */
export interface Watched {
  label: string;
  pid: number;
}
/** CPU sample: pid -> { label, comm, ticks } for every watched process and its descendants. */
export type CpuSample = Map<number, { label: string; comm: string; ticks: number }>;

const COMM_LABEL: Record<string, string> = { java: 'kafka', 'redis-server': 'redis' };

export function sampleCpu(watched: Watched[]): CpuSample {
  const procs = allProcs();
  const out: CpuSample = new Map();
  for (const w of watched) {
    for (const s of processTree(w.pid, procs)) {
      if (out.has(s.pid) || s.comm === 'esbuild') continue; // tsx's transpiler service: not the server's work
      // descendants of a node process are labelled by their command name (e.g. postgres under the embedded app)
      // (the distributed stack's supervisor, "stack", starts postgres, redis and kafka: those go by their own name)
      const label =
        s.pid === w.pid || s.comm === procs.get(w.pid)?.comm
          ? w.label
          : w.label === 'stack'
            ? (COMM_LABEL[s.comm] ?? s.comm)
            : `${w.label}/${s.comm}`;
      out.set(s.pid, { label, comm: s.comm, ticks: s.cpuTicks });
    }
  }
  return out;
}

/** CPU microseconds spent between two samples, per label (a process born in between counts from zero). */
export function cpuDeltaUs(before: CpuSample, after: CpuSample): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [pid, a] of after) {
    const b = before.get(pid);
    const d = Math.max(0, a.ticks - (b && b.comm === a.comm ? b.ticks : 0));
    out[a.label] = (out[a.label] ?? 0) + (d * 1e6) / CLK_TCK;
  }
  return out;
}

/** Busy and total jiffies per core from /proc/stat (index = core number). */
export function coreTimes(text = readFileSync('/proc/stat', 'utf8')): { busy: number; total: number }[] {
  const out: { busy: number; total: number }[] = [];
  for (const line of text.split('\n')) {
    const m = /^cpu(\d+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const v = m[2].trim().split(/\s+/).map(Number); // user nice system idle iowait irq softirq steal guest guest_nice
    const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
    out[Number(m[1])] = { busy: total - v[3] - v[4], total };
  }
  return out;
}
/** Busy % per core between two coreTimes() readings. */
export function coreBusyPct(a: ReturnType<typeof coreTimes>, b: ReturnType<typeof coreTimes>): number[] {
  return b.map((x, i) => {
    const dt = x.total - (a[i]?.total ?? 0);
    return dt > 0 ? ((x.busy - (a[i]?.busy ?? 0)) / dt) * 100 : NaN;
  });
}
