/**
 * W2 (docs/product/performance.md W2, as one room of typing and presence churn): typing and presence churn in a
 * 1,000-connection room (`npm run bench -- --workload=w2`).
 * The room has 5 users (a free room's limit; the N sockets are spread over them, like W3), a public channel and a
 * private channel whose members are users 0 and 1. The generator sends, round robin at BENCH_W2_RATE events/s:
 * typing-start/stop in the public channel (each user toggling), update-presence away/online, and typing of user 0
 * in the private channel. Each socket counts what it receives, and the run checks who received it:
 *   public typing -> every socket (N; one room broadcast, the typer's own copies included and ignored by clients),
 *   presence -> every socket (N),
 *   private typing -> the sockets of user 1 only (N/5): a frame on any other socket is a VIOLATION.
 * B1 relays the same events with io.to(room).emit (the public room holds every socket, sender included; the private
 * room holds user 1's sockets), so its ratios are against the same audiences but count the sender's own copies.
 * Printed per target: events/s, deliveries/s, ratio received/expected per kind, violations, and server CPU-us per
 * delivery and per event (/proc, the target's processes), plus App/B1.
 */
import { shutdownDistributed } from './lib/distributed-stack.ts';
import { cfg, N, RATE, targets, USERS } from './w2/settings.ts';
import { runTarget } from './w2/run-target.ts';

console.log(
  `W2 typing and presence churn: ${N} connections in one room (${USERS} users), ${RATE} events/s, warm-up ${cfg.warmupS} s, steady ${cfg.steadyS} s; targets ${targets.join(', ')}`,
);
const figures: Record<string, unknown>[] = [];
try {
  for (const t of targets) {
    const f = await runTarget(t);
    if (f) figures.push(f);
  }
} finally {
  await shutdownDistributed();
}
const b1 = figures.find((f) => f.target === 'b1') as { serverUsPerDelivery: number } | undefined;
console.log('\nW2 summary');
for (const f of figures as {
  target: string;
  serverUsPerDelivery: number;
  deliveriesPerS: number;
  violations: number;
}[]) {
  const vs =
    b1 && f.target !== 'b1'
      ? `, ${(f.serverUsPerDelivery / b1.serverUsPerDelivery).toFixed(2)} x B1's CPU per delivery`
      : '';
  console.log(
    `  ${f.target}: ${f.deliveriesPerS.toFixed(0)} deliveries/s, ${f.serverUsPerDelivery.toFixed(2)} us/delivery${vs}, violations ${f.violations}`,
  );
}
