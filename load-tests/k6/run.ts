/**
 * `npm run bench:k6 -- --target=embedded|distributed --workloads=w1,w2,...`: the k6 scenarios of
 * docs/product/performance.md
 * (W1-W6, load-tests/k6/*.js) against the embedded app or the distributed stack, one after the other, each printing
 * its figures block; then all blocks together and load-tests/results/k6-latest.json.
 *
 * - k6 is built once from its Go module at a pinned version by deploy/ops/install-tools.sh (`k6` tool, cached in
 *   deploy/local/.tools/bin).
 * - embedded: the app started as the W3 bench does (load-tests/lib/targets.ts: fresh DATA_DIR, free port, core 0);
 *   distributed: deploy/local/up.sh (isolated run dir and ports unless BENCH_STACK_ISOLATE=0), down.sh at the end;
 *   --origin=http://127.0.0.1:PORT uses a server that already runs (no start, no RSS reading unless --pids=;
 *   --metrics=URL,... names its gateways' /metrics for the server-side send-to-ack line).
 * - Scenarios that send (W2, W3, W4, W6) also print the gateways' own send-to-ack p50/p99 over the scenario, from
 *   their gateway_command_duration_seconds histograms (load-tests/lib/server-latency.ts).
 * - Every RATE_LIMIT_<NAME> of services/platform/src/rate-limit.ts is raised to 100000000/1 for the servers it
 *   starts (unless set in the environment), and it says so.
 * - A small control HTTP server on 127.0.0.1 gives the scripts the server processes' RSS (W1) and a barrier
 *   (every VU's sockets joined) through K6_CONTROL.
 * - k6 runs pinned to core 1 (the server on core 0) when pinning is on (BENCH_PIN=0 disables it), with
 *   --no-usage-report. A scenario that fails is reported and the others still run; the command exits 0 unless
 *   its arguments are wrong.
 */
import { raiseRateLimitsForBench } from '../lib/limits.ts';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { cpus } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { loadConfig } from '../lib/config.ts';
import { NotRun, type RunningTarget } from '../lib/running-target.ts';
import { ROOT } from '../lib/processes.ts';
import { roomInternalCall, shutdownDistributed } from '../lib/distributed-stack.ts';
import { startTarget } from '../lib/targets.ts';
import { INTERNAL } from '@ephemera/proto';
import { freePort } from '../../deploy/local/infra.ts';
import { CLK_TCK, cpuDeltaUs, readProcStat, sampleCpu, type Watched } from '../lib/stats.ts';
import { bucketDelta, scrapeCommandBuckets, serverLatencyLine } from '../lib/server-latency.ts';

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
const HERE = import.meta.dirname;

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

/** Raises every rate limit the servers read, unless the environment sets it (the W3 bench's own helper). */
export const raiseAllRateLimits = raiseRateLimitsForBench;

/** The k6 binary, built by deploy/ops/install-tools.sh k6 when missing (prints nothing when cached). */
export function ensureK6(): string {
  const tools = process.env.EPHEMERA_TOOLS ?? join(ROOT, 'deploy', 'local', '.tools');
  const r = spawnSync('bash', [join(ROOT, 'deploy', 'ops', 'install-tools.sh'), 'k6'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, EPHEMERA_TOOLS: tools },
  });
  const bin = join(tools, 'bin', 'k6');
  if (r.status !== 0 || !existsSync(bin))
    throw new Error(`could not build k6 (deploy/ops/install-tools.sh k6 exited ${r.status})`);
  return bin;
}

function rssKb(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** The processes whose RSS is "the server's" for W1: embedded = the app; distributed = the gateways (nginx apart). */
function memoryProcesses(target: RunningTarget | null, extra: Watched[]): { counted: Watched[]; shown: Watched[] } {
  const all = [...(target?.watched ?? []), ...extra];
  const gateways = all.filter((w) => w.label.startsWith('gateway'));
  const counted = gateways.length ? gateways : all.filter((w) => w.label === 'node' || w.label === 'server');
  const shown = all.filter((w) => counted.includes(w) || w.label === 'nginx');
  return { counted, shown };
}

/** The control endpoint the k6 scripts call (K6_CONTROL): RSS, and a join barrier with an RSS reading at it. */
function startControl(
  getProcs: () => { counted: Watched[]; shown: Watched[] },
): Promise<{ server: Server; url: string }> {
  let state = { expected: 0, settleMs: 3000, ready: 0, failed: 0, start: 0, end: 0, measured: null as unknown };
  const rss = () => {
    const { counted, shown } = getProcs();
    const byLabel: Record<string, number | null> = {};
    for (const w of shown) byLabel[`${w.label}:${w.pid}`] = rssKb(w.pid);
    const totalKb = counted.reduce((a, w) => a + (rssKb(w.pid) ?? 0), 0);
    return { totalKb, counted: counted.map((w) => `${w.label}:${w.pid}`), byLabel, at: Date.now() };
  };
  const server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const q = (k: string) => Number(u.searchParams.get(k) ?? 0);
    const send = (body: unknown) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(body));
    };
    req.resume();
    if (u.pathname === '/rss') return send(rss());
    if (u.pathname === '/reset') {
      state = {
        expected: q('expected'),
        settleMs: u.searchParams.has('settleMs') ? q('settleMs') : 3000,
        ready: 0,
        failed: 0,
        start: 0,
        end: 0,
        measured: null,
      };
      return send({ ok: true });
    }
    if (u.pathname === '/ready') {
      state.ready += q('n');
      state.failed += q('failed');
      if (q('start') > 0) state.start = state.start ? Math.min(state.start, q('start')) : q('start');
      if (q('end') > 0) state.end = Math.max(state.end, q('end'));
      if (state.expected > 0 && state.ready + state.failed >= state.expected && !state.measured) {
        const s = state;
        setTimeout(() => {
          if (s === state) s.measured = rss();
        }, state.settleMs);
      }
      return send({ ok: true });
    }
    if (u.pathname === '/status')
      return send({ ...state, windowMs: state.end && state.start ? state.end - state.start : 0 });
    res.statusCode = 404;
    res.end();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` }),
    ),
  );
}

interface Ran {
  target: string;
  workload: string;
  code: number | null;
  summary: { text?: string; figures?: unknown[]; checks?: unknown[] } | null;
  seconds: number;
  loadBefore?: number;
  cpuLine?: string;
  k6Pct?: number | null;
  serverPct?: Record<string, number>;
  /** the gateways' own send-to-ack over the scenario (server-latency.ts), when it sent messages */
  serverLine?: string;
}

/** Scenarios whose sends are timed by the gateways too (their k6 figure is send-to-ack). */
const SENDING = new Set(['w2', 'w3', 'w4', 'w4d', 'w6']);

/**
 * W4D's room: created over HTTP by its owner, then made business (no member cap) as billing's tier change does:
 * distributed, the room service's internal change-tier signed with the stack's service credential; embedded, the
 * bench entry's loopback port (k6/embedded-tier-entry.ts). Its id and owner token go to the script.
 */
async function prepareW4d(target: string, origin: string): Promise<Record<string, string>> {
  const res = await fetch(`${origin}/api/workspaces`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: `w4d-${Date.now().toString(36)}`, username: 'owner' }),
  });
  if (res.status !== 201) throw new Error(`W4D room: HTTP ${res.status} ${await res.text()}`);
  const created = (await res.json()) as { workspaceId: string; userToken: string };
  if (target === 'distributed') {
    await roomInternalCall(INTERNAL.changeTier, {
      workspaceId: created.workspaceId,
      tier: 'business',
      reason: 'bench',
    });
  } else if (target === 'embedded' && process.env.BENCH_TIER_PORT) {
    const tier = await fetch(`http://127.0.0.1:${process.env.BENCH_TIER_PORT}/business`, {
      method: 'POST',
      body: JSON.stringify({ workspaceId: created.workspaceId }),
    });
    if (!tier.ok) throw new Error(`W4D room: the tier port answered ${tier.status} ${await tier.text()}`);
  } else throw new Error('W4D needs a target this runner starts (embedded or distributed): it makes the room business');
  return { W4D_WORKSPACE: created.workspaceId, W4D_OWNER_TOKEN: created.userToken };
}

/** Runs one script; returns its exit code and the CPU used over the run (% of one core): k6, and each server label. */
function runK6(
  bin: string,
  script: string,
  env: NodeJS.ProcessEnv,
  pin: boolean,
  watched: Watched[],
): Promise<{ code: number | null; k6Pct: number | null; serverPct: Record<string, number> }> {
  const hasTaskset = spawnSync('sh', ['-c', 'command -v taskset'], { stdio: 'ignore' }).status === 0;
  const args = ['run', '--no-usage-report', '--quiet', join(HERE, script)];
  const [cmd, argv] = pin && hasTaskset && cpus().length > 1 ? ['taskset', ['-c', '1', bin, ...args]] : [bin, args];
  return new Promise((resolve) => {
    const t0 = Date.now();
    const s0 = sampleCpu(watched);
    let s1 = s0;
    let k6Us = 0;
    let t1 = t0;
    const child = spawn(cmd, argv as string[], {
      cwd: HERE,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    // k6's own CPU, read while it runs (taskset execs k6 in place, so the pid is k6's); the last second is lost
    const poll = setInterval(() => {
      const st = readProcStat(child.pid!);
      if (st) k6Us = (st.cpuTicks * 1e6) / CLK_TCK;
      s1 = sampleCpu(watched);
      t1 = Date.now();
    }, 1000);
    const done = (code: number | null) => {
      clearInterval(poll);
      const ms = Math.max(1, t1 - t0);
      const serverPct = Object.fromEntries(Object.entries(cpuDeltaUs(s0, s1)).map(([k, us]) => [k, us / (ms * 10)]));
      resolve({ code, k6Pct: k6Us ? k6Us / (ms * 10) : null, serverPct });
    };
    child.on('exit', (code) => done(code));
    child.on('error', () => done(-1));
  });
}

export async function main(argv: string[]): Promise<Ran[]> {
  const opts = parseArgs(argv);
  const limitsLine = raiseAllRateLimits();
  const bin = ensureK6();
  const version = spawnSync(bin, ['version'], { encoding: 'utf8' }).stdout.trim().split('\n')[0];
  console.log(
    `k6 scenarios ${opts.workloads.join(', ')} against ${opts.origin ?? opts.targets.join(', ')} (${version})`,
  );
  console.log(`  ${limitsLine}`);
  console.log(`  scale: each scenario prints its own; set it with the W<n>_* variables (load-tests/README.md)`);
  if (opts.workloads.includes('w4d') && !process.env.BENCH_EMBEDDED_ENTRY) {
    // the embedded app with its loopback tier port, so W4D's room can be made business (k6/embedded-tier-entry.ts)
    process.env.BENCH_EMBEDDED_ENTRY = 'load-tests/k6/embedded-tier-entry.ts';
    process.env.BENCH_TIER_PORT = String(await freePort());
  }
  const cfg = loadConfig([], process.env);
  cfg.pin = opts.pin;
  const ran: Ran[] = [];
  let current: RunningTarget | null = null;
  let procs: Watched[] = [];
  const control = await startControl(() => memoryProcesses(current, procs));
  const stopAll = async () => {
    await current?.stop().catch(() => {});
    current = null;
    await shutdownDistributed();
    control.server.close();
  };
  let stopping = false;
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      if (stopping) return;
      stopping = true;
      console.log(`\n${sig}: stopping`);
      void stopAll().finally(() => process.exit(130));
    });
  }
  const targets = opts.origin ? [`origin`] : opts.targets;
  try {
    for (const t of targets) {
      if (stopping) break;
      let origin = opts.origin;
      if (!origin) {
        console.log(`\n== ${t}: starting`);
        try {
          current = await startTarget(t as 'embedded' | 'distributed', cfg);
        } catch (e) {
          console.log(`  ${t} NOT RUN: ${e instanceof NotRun ? e.message : (e as Error).stack}`);
          for (const w of opts.workloads) ran.push({ target: t, workload: w, code: null, summary: null, seconds: 0 });
          continue;
        }
        origin = (current.spec as { origin: string }).origin;
        console.log(
          `  ${t} at ${origin}; server processes for RSS: ${
            memoryProcesses(current, [])
              .counted.map((w) => `${w.label}=${w.pid}`)
              .join(', ') || 'none'
          }`,
        );
      } else {
        procs = (process.env.K6_PIDS ?? '')
          .split(',')
          .filter(Boolean)
          .map((p) => ({ label: 'server', pid: Number(p) }));
      }
      for (const w of opts.workloads) {
        if (stopping) break;
        const outFile = join(ROOT, 'load-tests', 'results', `k6-${t}-${w}.json`);
        mkdirSync(dirname(outFile), { recursive: true });
        writeFileSync(outFile, '');
        const t0 = Date.now();
        // the machine is shared: say how busy it was (2.0 = both cores) so noisy figures can be told apart
        const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
        console.log(
          `\n-- ${w} (${WORKLOADS[w]}) against ${t} (load average before: ${load} on ${cpus().length} cores)`,
        );
        const watched = current?.watched ?? procs;
        const metricsUrls = current?.metricsUrls ?? opts.metrics;
        const timed = SENDING.has(w) && metricsUrls.length > 0;
        const acksBefore = timed ? await scrapeCommandBuckets(metricsUrls, 'send-message') : null;
        let extraEnv: Record<string, string> = {};
        if (w === 'w4d') {
          try {
            extraEnv = await prepareW4d(t, origin);
          } catch (e) {
            console.log(`  w4d NOT RUN: ${(e as Error).message}`);
            ran.push({ target: t, workload: w, code: null, summary: null, seconds: 0 });
            continue;
          }
        }
        const { code, k6Pct, serverPct } = await runK6(
          bin,
          WORKLOADS[w],
          { ORIGIN: origin, K6_TARGET: t, K6_CONTROL: control.url, K6_SUMMARY_OUT: outFile, ...extraEnv },
          opts.pin && !opts.origin,
          watched,
        );
        const total = Object.values(serverPct).reduce((a, b) => a + b, 0);
        const cpuLine = `   CPU over the script (setup and joins included), % of one core: server ${total.toFixed(0)}%${
          Object.keys(serverPct).length > 1
            ? ` (${Object.entries(serverPct)
                .map(([k, v]) => `${k} ${v.toFixed(0)}%`)
                .join(', ')})`
            : ''
        }, k6 ${k6Pct === null ? 'n/a' : `${k6Pct.toFixed(0)}%`}${k6Pct !== null && k6Pct > 85 ? ' (k6 near a full core: latencies include the generator)' : ''}`;
        console.log(cpuLine);
        let serverLine: string | undefined;
        if (acksBefore) {
          const after = await scrapeCommandBuckets(metricsUrls, 'send-message');
          serverLine = serverLatencyLine('send-message', bucketDelta(acksBefore.buckets, after.buckets), [
            ...new Set([...acksBefore.missing, ...after.missing]),
          ]);
          console.log(serverLine);
        }
        let summary = null;
        try {
          summary = JSON.parse(readFileSync(outFile, 'utf8'));
        } catch {
          /* k6 failed before its summary */
        }
        if (code !== 0) console.log(`  ${w}: k6 exited with ${code}${summary ? '' : ' and printed no figures'}`);
        ran.push({
          target: t,
          workload: w,
          code,
          summary,
          seconds: (Date.now() - t0) / 1000,
          loadBefore: Number(load),
          cpuLine,
          k6Pct,
          serverPct,
          serverLine,
        });
      }
      await current?.stop().catch(() => {});
      current = null;
    }
  } finally {
    if (!stopping) await stopAll();
  }
  console.log('\n==== k6 figures (every block above, together)');
  for (const r of ran) {
    if (r.summary?.text)
      console.log(
        r.summary.text.trimEnd() +
          `\n${r.cpuLine}${r.serverLine ? `\n${r.serverLine}` : ''}\n   (${r.seconds.toFixed(0)} s; load average before ${r.loadBefore ?? 'n/a'})`,
      );
    else console.log(`== k6 ${r.workload} [${r.target}] NOT RUN or no figures (k6 exit ${r.code})`);
  }
  const out = isAbsolute(opts.out) ? opts.out : join(ROOT, opts.out);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(
    out,
    JSON.stringify({ startedAt: new Date().toISOString(), k6: version, limits: limitsLine, runs: ran }, null, 2),
  );
  console.log(`\nwrote ${out}`);
  return ran;
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  try {
    await main(process.argv.slice(2));
    process.exit(0);
  } catch (e) {
    console.error(`bench:k6: ${(e as Error).message}`);
    process.exit(2);
  }
}
