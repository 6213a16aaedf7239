/**
 * `npm run bench`: the W3 fan-out sweep (docs/product/performance.md) against B0, B1, the embedded app and the
 * distributed
 * stack, side by side in one run. N connections in one room, senders at increasing rates; per step a warm-up then
 * a steady window. Server pinned to core 0, generator to core 1. Results: stdout and load-tests/results/latest.json.
 * Settings: see lib/config.ts and load-tests/README.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { loadConfig, type TargetName } from './lib/config.ts';
import { NotRun, type RunningTarget } from './lib/running-target.ts';
import { pinned, ROOT } from './lib/processes.ts';
import { shutdownDistributed } from './lib/distributed-stack.ts';
import { startTarget } from './lib/targets.ts';
import { coreBusyPct, coreTimes, cpuDeltaUs, sampleCpu, type CpuSample } from './lib/stats.ts';
import { medianStep, stepFigures, type StepFigures } from './lib/step-figures.ts';
import { stepLine, summaryText } from './lib/report.ts';
import { summarize } from './lib/summary.ts';
import { passes } from './lib/capacity.ts';
import { Generator } from './generator/control.ts';
import { raiseRateLimitsForBench } from './lib/limits.ts';

// The servers this run starts read their limits from the environment: raise them (and say so) for W2 and W3.
const limitsLine = raiseRateLimitsForBench();
// `--workload=w2` (BENCH_WORKLOAD=w2): typing and presence churn instead of the W3 sweep (w2.ts; load-tests/README.md).
// `--workload=crypto`: deleting a 100,000-message room and encryption's CPU cost (crypto-bench.ts; docs/crypto.md).
const workload = process.argv.find((a) => a.startsWith('--workload='))?.slice(11) ?? process.env.BENCH_WORKLOAD ?? 'w3';
if (workload === 'w2') {
  console.log(limitsLine);
  await import('./w2.ts');
  process.exit(0);
}
// `--workload=calls`: call setup time across gateway replicas (calls-bench.ts; docs/calls.md).
if (workload === 'calls') {
  console.log(limitsLine);
  await import('./calls-bench.ts');
  process.exit(0);
}
// `--workload=files`: upload throughput to local disk vs a plain file copy, and to S3 (files-bench.ts).
if (workload === 'files') {
  console.log(limitsLine);
  await import('./files-bench.ts');
  process.exit(0);
}
if (workload === 'crypto') {
  console.log(limitsLine);
  await import('./crypto-bench.ts');
  process.exit(0);
}

const cfg = loadConfig();
const t0 = Date.now();
const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(0)} s`;

console.log(
  `W3 fan-out sweep: ${cfg.connections} connections in one room, rates ${cfg.rates.join(', ')} sends/s, ${cfg.senders} senders, ${cfg.msgBytes}-byte messages`,
);
console.log(
  `  warm-up ${cfg.warmupS} s, steady ${cfg.steadyS} s, ${cfg.reps} repetition(s)${cfg.full ? ' (BENCH_FULL)' : ''}; targets ${cfg.targets.join(', ')}`,
);
console.log(`  ${limitsLine}`);
console.log(
  `  generator: ${cfg.client} client, latency sampled on 1 socket in ${cfg.sampleEvery}; pinning ${pinned(cfg) ? 'server core 0, generator core 1' : 'off'}; ${cpus().length} cores, node ${process.version}`,
);

const raw: StepFigures[] = [];
const notRun = new Map<string, string>();
const setups: Record<string, unknown>[] = [];
let stopping = false;
let current: { target?: RunningTarget; gen?: Generator } = {};

async function cleanup(): Promise<void> {
  await current.gen?.close().catch(() => {});
  await current.target?.stop().catch(() => {});
  current = {};
}
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${sig}: stopping`);
    void cleanup()
      .then(shutdownDistributed)
      .finally(() => process.exit(130));
  });
}

async function sweep(name: TargetName, rep: number): Promise<void> {
  console.log(`\n== ${name} (repetition ${rep}/${cfg.reps}) [${elapsed()}]`);
  let target: RunningTarget;
  try {
    target = await startTarget(name, cfg);
  } catch (e) {
    const why = e instanceof NotRun ? e.message : `failed to start: ${(e as Error).stack ?? e}`;
    notRun.set(name, why);
    console.log(`  ${name} NOT RUN: ${why}`);
    return;
  }
  current.target = target;
  const gen = (current.gen = Generator.start(cfg));
  try {
    const ready = await gen.setup(target.spec, cfg);
    const entered = ready.entersPerS === null ? '' : `, then join-channel ${ready.entersPerS.toFixed(0)}/s`;
    const cold =
      ready.warmupJoinsPerS.length === 0
        ? ''
        : ` (warm-up rounds before it: ${ready.warmupJoinsPerS.map((j) => j.toFixed(0)).join(', ')} joins/s, the first one cold)`;
    console.log(
      `  ${ready.info}: ${cfg.connections - 1} sockets connected + joined in ${(ready.connectMs / 1000).toFixed(1)} s (${ready.joinsPerS.toFixed(0)} joins/s)${cold}${entered}, ${ready.senders} senders, ${ready.sampled} sampled`,
    );
    console.log(`  watching CPU of: ${target.watched.map((w) => `${w.label}=${w.pid}`).join(', ')}`);
    // idle CPU with every socket connected and nothing sent: the fixed cost under the per-delivery figures
    const idle0 = sampleCpu(target.watched);
    await new Promise((r) => setTimeout(r, 2000));
    const idlePct = Object.fromEntries(
      Object.entries(cpuDeltaUs(idle0, sampleCpu(target.watched))).map(([k, us]) => [k, us / 20000]),
    );
    console.log(
      `  idle (2 s, all connected): ${Object.entries(idlePct)
        .map(([k, p]) => `${k} ${p.toFixed(1)}%`)
        .join(', ')} of a core`,
    );
    setups.push({
      target: name,
      rep,
      connectMs: ready.connectMs,
      joinsPerS: ready.joinsPerS,
      coldJoinsPerS: ready.warmupJoinsPerS[0] ?? null,
      warmupJoinsPerS: ready.warmupJoinsPerS,
      entersPerS: ready.entersPerS,
      info: ready.info,
      idleCorePct: idlePct,
    });
    for (let i = 0; i < cfg.rates.length && !stopping; i++) {
      let before: CpuSample | null = null;
      let after: CpuSample | null = null;
      let cores0 = coreTimes();
      let cores1 = cores0;
      const result = await gen.step(
        {
          type: 'step',
          step: i,
          rate: cfg.rates[i],
          warmupMs: cfg.warmupS * 1000,
          steadyMs: cfg.steadyS * 1000,
          drainMaxMs: cfg.drainMaxS * 1000,
          msgBytes: cfg.msgBytes,
        },
        (edge) => {
          if (edge === 'start') {
            before = sampleCpu(target.watched);
            cores0 = coreTimes();
          } else {
            after = sampleCpu(target.watched);
            cores1 = coreTimes();
          }
        },
      );
      const fig = stepFigures(
        name,
        rep,
        result,
        before && after ? cpuDeltaUs(before, after) : {},
        coreBusyPct(cores0, cores1),
        idlePct,
      );
      raw.push(fig);
      console.log(stepLine(fig));
      if (fig.ackFirstError) console.log(`        first refused ack: ${fig.ackFirstError}`);
      if (fig.e2eMs.p50 > cfg.stopP50Ms || fig.drainTimedOut) {
        console.log(`  saturated (e2e p50 > ${cfg.stopP50Ms} ms or drain timed out): higher rates skipped for ${name}`);
        break;
      }
    }
  } catch (e) {
    const why = `failed during the run: ${(e as Error).message}`;
    if (!raw.some((s) => s.target === name)) notRun.set(name, why);
    console.log(`  ${name} ${why}`);
  } finally {
    await cleanup();
  }
}

try {
  for (let rep = 1; rep <= cfg.reps && !stopping; rep++) {
    for (const name of cfg.targets) if (!stopping) await sweep(name, rep);
  }
} finally {
  if (!stopping) await shutdownDistributed();
}

// medians over repetitions, per target and rate
const byTarget = new Map<string, StepFigures[]>();
for (const name of cfg.targets) {
  const steps = raw.filter((s) => s.target === name);
  const rates = [...new Set(steps.map((s) => s.rate))].sort((a, b) => a - b);
  byTarget.set(
    name,
    rates.map((r) => medianStep(steps.filter((s) => s.rate === r))),
  );
}
if (cfg.reps > 1) {
  console.log(`\nMedians over ${cfg.reps} repetitions`);
  for (const [name, steps] of byTarget) {
    if (!steps.length) continue;
    console.log(`== ${name}`);
    for (const s of steps) console.log(stepLine(s) + (passes(s, cfg.p99BoundMs) ? '' : '  (over bound)'));
  }
}
const joins: Record<string, number[]> = {};
for (const s of setups as { target: string; joinsPerS: number }[]) (joins[s.target] ??= []).push(s.joinsPerS);
const summary = summarize(byTarget, notRun, cfg.targets, cfg.p99BoundMs, joins, cpus().length);
console.log(`\n${summaryText(summary)}`);

const out = isAbsolute(cfg.out) ? cfg.out : join(ROOT, cfg.out);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(
  out,
  JSON.stringify(
    {
      workload: 'W3',
      startedAt: new Date(t0).toISOString(),
      durationS: (Date.now() - t0) / 1000,
      node: process.version,
      cores: cpus().length,
      config: cfg,
      setups,
      notRun: Object.fromEntries(notRun),
      summary,
      medians: Object.fromEntries(byTarget),
      steps: raw,
    },
    null,
    2,
  ),
);
console.log(`\nwrote ${out} (total ${elapsed()})`);
process.exit(0);
