/** The k6 runner's command line (--target, --workloads, --origin, --metrics, --out) and the scenarios it knows. */
export const WORKLOADS: Record<string, string> = {
  w1: 'w1-idle.js',
  w2: 'w2-chat.js',
  w3: 'w3-fanout.js',
  w4: 'w4-bigroom.js',
  w5: 'w5-reconnect.js',
  w6: 'w6-history.js',
  // named only (not in the default list): 10,000 distinct members at full size, in a room made business first
  w4d: 'w4d-bigroom-distinct.js',
};
/** what runs when no --workloads is given */
const DEFAULT_WORKLOADS = ['w1', 'w2', 'w3', 'w4', 'w5', 'w6'];

export interface K6Options {
  targets: string[];
  workloads: string[];
  origin: string | null;
  out: string;
  pin: boolean;
  metrics: string[];
}

export function parseArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): K6Options {
  const v: Record<string, string> = {};
  for (const a of argv) {
    const m = /^--([a-z0-9-]+)(?:=(.*))?$/.exec(a);
    if (!m) throw new Error(`unknown argument ${a} (use --target=embedded|distributed --workloads=w1,w2,...)`);
    v[m[1]] = m[2] ?? '1';
  }
  const targets = (v.target ?? v.targets ?? env.K6_TARGETS ?? 'embedded')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const t of targets)
    if (t !== 'embedded' && t !== 'distributed') throw new Error(`unknown target ${t}: embedded or distributed`);
  const workloads = (v.workloads ?? env.K6_WORKLOADS ?? DEFAULT_WORKLOADS.join(','))
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  for (const w of workloads)
    if (!WORKLOADS[w]) throw new Error(`unknown workload ${w} (known: ${Object.keys(WORKLOADS).join(', ')})`);
  // --metrics: the gateways' /metrics URLs of an --origin server (the targets it starts know their own)
  const metrics = (v.metrics ?? env.K6_METRICS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return {
    targets,
    workloads,
    origin: v.origin ?? env.K6_ORIGIN ?? null,
    out: v.out ?? env.K6_OUT ?? 'load-tests/results/k6-latest.json',
    pin: (env.BENCH_PIN ?? '1') !== '0',
    metrics,
  };
}
