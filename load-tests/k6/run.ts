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
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { loadConfig } from '../lib/config.ts';
import { NotRun, type RunningTarget } from '../lib/running-target.ts';
import { ROOT } from '../lib/processes.ts';
import { shutdownDistributed } from '../lib/distributed-stack.ts';
import { startTarget } from '../lib/targets.ts';
import { freePort } from '../../deploy/local/infra.ts';
import type { Watched } from '../lib/stats.ts';
import { bucketDelta, scrapeCommandBuckets, serverLatencyLine } from '../lib/server-latency.ts';
import { parseArgs, WORKLOADS } from './options.ts';
import { memoryProcesses, startControl } from './control-server.ts';
import { ensureK6, prepareW4d, runK6, SENDING } from './scenario.ts';

/** Raises every rate limit the servers read, unless the environment sets it (the W3 bench's own helper). */
export const raiseAllRateLimits = raiseRateLimitsForBench;

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
