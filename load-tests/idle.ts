/**
 * `node --import tsx load-tests/idle.ts [--targets=distributed,embedded] [--connections=1000]`: idle CPU per
 * process (docs/product/performance.md PF16: each service process under 1 % of a core while nothing happens). Starts
 * each target like
 * `npm run bench`, connects BENCH_CONNECTIONS sockets to one room (joined, nothing sent), lets it settle, then
 * measures each watched process's CPU over BENCH_IDLE_S seconds (default 30) and prints it as % of one core.
 */
import { readFileSync } from 'node:fs';
import { loadConfig, type TargetName } from './lib/config.ts';
import { NotRun } from './lib/running-target.ts';
import { shutdownDistributed } from './lib/distributed-stack.ts';
import { startTarget } from './lib/targets.ts';
import { cpuDeltaUs, sampleCpu } from './lib/stats.ts';
import { Generator } from './generator/control.ts';
import { raiseRateLimitsForBench } from './lib/limits.ts';

raiseRateLimitsForBench();
const cfg = loadConfig();
const seconds = Number(process.env.BENCH_IDLE_S ?? 30);
const settleS = Number(process.env.BENCH_IDLE_SETTLE_S ?? 5);
console.log(
  `idle CPU: ${cfg.connections} sockets joined in one room, nothing sent; ${settleS} s settle, ${seconds} s measured; targets ${cfg.targets.join(', ')}`,
);

/** voluntary context switches of each watched process's main thread (/proc/<pid>/status) */
function wakeups(watched: { label: string; pid: number }[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const w of watched) {
    try {
      out[w.label] = Number(
        /voluntary_ctxt_switches:\s+(\d+)/.exec(readFileSync(`/proc/${w.pid}/status`, 'utf8'))?.[1] ?? NaN,
      );
    } catch {
      /* gone */
    }
  }
  return out;
}

const results: Record<string, Record<string, number>> = {};
try {
  for (const name of cfg.targets as TargetName[]) {
    let target;
    try {
      target = await startTarget(name, cfg);
    } catch (e) {
      console.log(`  ${name} NOT RUN: ${e instanceof NotRun ? e.message : (e as Error).message}`);
      continue;
    }
    const gen = Generator.start(cfg);
    try {
      const ready = await gen.setup(target.spec, cfg);
      console.log(
        `  ${name}: ${ready.info}: ${cfg.connections} sockets joined in ${(ready.connectMs / 1000).toFixed(1)} s`,
      );
      await new Promise((r) => setTimeout(r, settleS * 1000));
      const before = sampleCpu(target.watched);
      const wakeups0 = wakeups(target.watched);
      await new Promise((r) => setTimeout(r, seconds * 1000));
      const wakeups1 = wakeups(target.watched);
      const pct = Object.fromEntries(
        Object.entries(cpuDeltaUs(before, sampleCpu(target.watched))).map(([k, us]) => [k, us / (seconds * 10_000)]),
      );
      results[name] = pct;
      console.log(
        `  ${name} idle: ${Object.entries(pct)
          .map(([k, p]) => `${k} ${p.toFixed(2)}%`)
          .join(', ')} of a core`,
      );
      // Wakeups of each process's main thread: timers and polls show here before they show as CPU.
      console.log(
        `  ${name} main-thread wakeups/s: ${Object.keys(wakeups1)
          .map((k) => `${k} ${((wakeups1[k]! - (wakeups0[k] ?? 0)) / seconds).toFixed(0)}`)
          .join(', ')}`,
      );
    } finally {
      await gen.close().catch(() => {});
      await target.stop().catch(() => {});
    }
  }
} finally {
  await shutdownDistributed(); // a stack this run started is stopped even when a target failed
}
console.log(JSON.stringify(results));
process.exit(0);
