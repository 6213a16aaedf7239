/**
 * Which websocket client makes the cheapest generator? One generator worker per client kind, each holding an equal
 * share of the sockets of the same room on the same server at the same time (so the machine's noise hits all
 * alike); prints each one's CPU-µs per received frame.
 *   node --import tsx load-tests/generator/compare-clients.ts [b0|b1] [ws,undici,raw]
 *   (BENCH_CONNECTIONS, BENCH_RATES, BENCH_WARMUP_S, BENCH_STEADY_S apply)
 * The workers share core 1; the server runs on core 0.
 */
import { loadConfig } from '../lib/config.ts';
import { startTarget } from '../lib/targets.ts';
import { Generator } from './control.ts';
import type { ClientKind } from './conn.ts';

const target = (process.argv[2] ?? 'b1') as 'b0' | 'b1';
const kinds = (process.argv[3] ?? 'ws,undici,raw').split(',') as ClientKind[];
const base = loadConfig([], {
  ...process.env,
  BENCH_TARGETS: target,
  BENCH_RATES: process.env.BENCH_RATES ?? '25,50,100',
});
const share = { ...base, connections: Math.floor(base.connections / kinds.length) };
const server = await startTarget(target, base);
const gens = kinds.map((client) => ({ client, gen: Generator.start({ ...share, client }) }));
try {
  for (const g of gens) await g.gen.setup(server.spec, { ...share, client: g.client });
  console.log(
    `${target}: ${share.connections} sockets on each of ${kinds.join(', ')}; rates ${base.rates.join(', ')} sends/s in total`,
  );
  for (const [i, rate] of base.rates.entries()) {
    const cmd = {
      type: 'step' as const,
      step: i,
      rate: rate / kinds.length,
      warmupMs: base.warmupS * 1000,
      steadyMs: base.steadyS * 1000,
      drainMaxMs: 2000,
      msgBytes: base.msgBytes,
    };
    const rs = await Promise.all(gens.map((g) => g.gen.step(cmd, () => {})));
    console.log(
      `  ${String(rate).padStart(4)}/s  ` +
        rs
          .map(
            (r, j) =>
              `${kinds[j]} ${(r.genCpuUs / r.receivedInWindow).toFixed(2)} µs/frame (${(r.genCpuUs / r.windowMs / 10).toFixed(0)}% core, ${(r.receivedInWindow / r.windowMs).toFixed(1)}k frames/s)`,
          )
          .join('   '),
    );
  }
} finally {
  await Promise.all(gens.map((g) => g.gen.close()));
  await server.stop();
}
process.exit(0);
