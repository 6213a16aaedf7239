/**
 * Bench settings from env and `--key=value` flags (flags win; `--targets=b0,b1` is BENCH_TARGETS=b0,b1).
 * Defaults keep the whole default run under ~10 minutes on 2 cores; BENCH_FULL=1 gives the rig of
 * docs/product/performance.md PF4
 * (10 s warm-up, 60 s steady, 3 repetitions, median).
 */
import type { ClientKind } from '../generator/conn.ts';

/**
 * b1-ingress: B1 behind the distributed stack's own ingress (nginx, same config): what the hop alone costs.
 * b1-l4 and distributed-l4: the same behind the layer-4 entry instead (nginx's stream module, deploy/local/layer4.ts),
 * the chart's LoadBalancer path; run them by name (--targets=b1,b1-l4,distributed-l4).
 */
export type TargetName = 'b0' | 'b1' | 'b1-ingress' | 'b1-l4' | 'embedded' | 'distributed' | 'distributed-l4';
export const ALL_TARGETS: TargetName[] = ['b0', 'b1', 'b1-ingress', 'embedded', 'distributed'];
export const KNOWN_TARGETS: TargetName[] = [...ALL_TARGETS, 'b1-l4', 'distributed-l4'];

export interface Config {
  targets: TargetName[];
  connections: number;
  rates: number[];
  warmupS: number;
  steadyS: number;
  reps: number;
  senders: number;
  sampleEvery: number;
  msgBytes: number;
  client: ClientKind;
  p99BoundMs: number;
  stopP50Ms: number;
  drainMaxS: number;
  connectConcurrency: number;
  /** a round of joins (then closed) before the timed one: the joins figure of warm servers; the cold one is printed too */
  joinWarmup: boolean;
  pin: boolean;
  pinDistributed: boolean;
  isolateStack: boolean;
  distributedOrigin: string | null;
  upTimeoutS: number;
  out: string;
  full: boolean;
}

export function loadConfig(argv = process.argv.slice(2), env = process.env): Config {
  const v: Record<string, string | undefined> = { ...env };
  for (const a of argv) {
    const m = /^--([a-z0-9-]+)(?:=(.*))?$/.exec(a);
    if (!m) throw new Error(`unknown argument ${a} (use --key=value, e.g. --targets=b0,b1)`);
    v[`BENCH_${m[1].toUpperCase().replace(/-/g, '_')}`] = m[2] ?? '1';
  }
  const num = (k: string, d: number) => {
    const x = v[k];
    if (x === undefined || x === '') return d;
    const n = Number(x);
    if (!Number.isFinite(n) || n < 0) throw new Error(`${k}=${x} is not a number`);
    return n;
  };
  const full = v.BENCH_FULL === '1' || v.BENCH_FULL === 'true';
  let targets = (v.BENCH_TARGETS ?? ALL_TARGETS.join(','))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean) as TargetName[];
  for (const t of targets)
    if (!KNOWN_TARGETS.includes(t)) throw new Error(`unknown target ${t} (known: ${KNOWN_TARGETS.join(', ')})`);
  if (v.BENCH_DISTRIBUTED === '0') targets = targets.filter((t) => !t.startsWith('distributed'));
  const rates = (v.BENCH_RATES ?? '10,25,50,100,200,400').split(',').map(Number);
  if (rates.some((r) => !(r > 0))) throw new Error(`BENCH_RATES=${v.BENCH_RATES} must be positive numbers`);
  const client = (v.BENCH_CLIENT ?? 'ws') as ClientKind;
  if (!['ws', 'undici', 'raw'].includes(client)) throw new Error('BENCH_CLIENT must be ws, undici or raw');
  const origin = v.BENCH_DISTRIBUTED_ORIGIN ? assertLocal(v.BENCH_DISTRIBUTED_ORIGIN) : null;

  return {
    targets,
    connections: Math.max(1, Math.floor(num('BENCH_CONNECTIONS', 1000))),
    rates,
    warmupS: num('BENCH_WARMUP_S', full ? 10 : 3),
    steadyS: num('BENCH_STEADY_S', full ? 60 : 8),
    reps: Math.max(1, Math.floor(num('BENCH_REPS', full ? 3 : 1))),
    senders: Math.max(1, Math.floor(num('BENCH_SENDERS', 5))),
    sampleEvery: Math.max(1, Math.floor(num('BENCH_SAMPLE_EVERY', 10))),
    msgBytes: Math.floor(num('BENCH_MSG_BYTES', 100)),
    client,
    p99BoundMs: num('BENCH_P99_BOUND_MS', 100),
    stopP50Ms: num('BENCH_STOP_P50_MS', 1000),
    drainMaxS: num('BENCH_DRAIN_MAX_S', 5),
    connectConcurrency: Math.max(1, Math.floor(num('BENCH_CONNECT_CONCURRENCY', 50))),
    joinWarmup: v.BENCH_JOIN_WARMUP !== '0',
    pin: v.BENCH_PIN !== '0',
    pinDistributed: v.BENCH_PIN_DISTRIBUTED === '1',
    isolateStack: v.BENCH_STACK_ISOLATE !== '0',
    distributedOrigin: origin,
    upTimeoutS: num('BENCH_UP_TIMEOUT_S', 600),
    out: v.BENCH_OUT ?? 'load-tests/results/latest.json',
    full,
  };
}

/** The bench only ever targets this machine. */
export function assertLocal(origin: string): string {
  const u = new URL(origin);
  if (u.hostname !== '127.0.0.1' && u.hostname !== 'localhost')
    throw new Error(`refusing non-local origin ${origin}: the bench only targets 127.0.0.1`);
  u.hostname = '127.0.0.1';
  return u.origin;
}
