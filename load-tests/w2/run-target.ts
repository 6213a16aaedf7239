/**
 * One W2 target: start it, join its room, churn for the warm-up and the steady window at RATE events/s, wait for
 * the deliveries, and print what each kind reached, the audience checks, the acks and the server's CPU.
 */
import type { TargetName } from '../lib/config.ts';
import { NotRun, type RunningTarget } from '../lib/running-target.ts';
import { startTarget } from '../lib/targets.ts';
import { cpuDeltaUs, sampleCpu } from '../lib/stats.ts';
import { cfg, N, RATE, USERS, zero, type Counters, type Kind } from './settings.ts';
import { appRoom, b1Room, type Room } from './rooms.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const total = (r: Record<Kind, number>) => r.pub + r.presence + r.priv;

/** Drives `seconds` of churn at RATE events/s; `state` keeps each user's toggles across phases. */
async function churn(
  room: Room,
  counters: () => Counters,
  seconds: number,
  state: { i: number; next: Record<Kind, number>; on: Map<string, boolean> },
): Promise<number> {
  const start = Date.now();
  let sent = 0;
  let last = performance.now();
  while (Date.now() - start < seconds * 1000) {
    const due = Math.floor(((Date.now() - start) / 1000) * RATE);
    for (; sent < due; sent++) {
      const i = state.i++;
      const kind: Kind = (['pub', 'presence', 'pub', 'priv'] as const)[i % 4];
      // Each kind walks the users on its own, so one user's start and stop are never back to back (a person's are
      // seconds apart; two commands of one socket in the same millisecond may be handled in either order).
      const user = state.next[kind]++ % USERS;
      const key = `${kind}:${kind === 'priv' ? 0 : user}`;
      const on = !state.on.get(key);
      state.on.set(key, on);
      counters().expected[kind] += room.act(kind, user, on);
    }
    await sleep(5);
    const now = performance.now();
    counters().loopLagMs = Math.max(counters().loopLagMs, now - last - 5);
    last = now;
  }
  return sent;
}

export async function runTarget(name: TargetName): Promise<Record<string, unknown> | null> {
  console.log(`\n== ${name}`);
  let target: RunningTarget;
  try {
    target = await startTarget(name, cfg);
  } catch (e) {
    console.log(`  ${name} NOT RUN: ${e instanceof NotRun ? e.message : (e as Error).stack}`);
    return null;
  }
  let c = zero();
  const counters = () => c;
  try {
    const origin = target.spec.kind === 'b0' ? '' : target.spec.origin;
    const t0 = Date.now();
    const room = target.spec.kind === 'b1' ? await b1Room(origin, counters) : await appRoom(origin, counters);
    console.log(
      `  ${N} sockets joined in ${((Date.now() - t0) / 1000).toFixed(1)} s; churn ${RATE} events/s (public typing 50%, presence 25%, private typing 25%)`,
    );
    const state = { i: 0, next: { pub: 0, presence: 0, priv: 0 }, on: new Map<string, boolean>() };
    await churn(room, counters, cfg.warmupS, state);
    await sleep(1000);
    c = zero();
    const before = sampleCpu(target.watched);
    const startedAt = Date.now();
    const sent = await churn(room, counters, cfg.steadyS, state);
    const windowS = (Date.now() - startedAt) / 1000;
    const drainEnd = Date.now() + cfg.drainMaxS * 1000;
    while (total(c.received) < total(c.expected) && Date.now() < drainEnd) await sleep(20);
    await sleep(300); // a stray or duplicate delivery would show by now
    const after = sampleCpu(target.watched);
    const cpu = cpuDeltaUs(before, after);
    const cpuUs = Object.values(cpu).reduce((a, b) => a + b, 0);
    const delivered = total(c.received);
    const ratio = (k: Kind) => (c.expected[k] ? c.received[k] / c.expected[k] : 1);
    const fig = {
      target: name,
      connections: N,
      eventsPerS: sent / windowS,
      deliveriesPerS: delivered / windowS,
      ratio: { pub: ratio('pub'), presence: ratio('presence'), priv: ratio('priv') },
      violations: c.violations,
      ownTyping: c.ownTyping,
      serverUsPerDelivery: cpuUs / Math.max(1, delivered),
      serverUsPerEvent: cpuUs / Math.max(1, sent),
      serverCorePct: cpuUs / (windowS * 10_000),
      perProcess: Object.fromEntries(
        Object.entries(cpu).map(([k, us]) => [k, Math.round((us / Math.max(1, delivered)) * 100) / 100]),
      ),
    };
    console.log(
      `  ${fig.eventsPerS.toFixed(0)} events/s -> ${fig.deliveriesPerS.toFixed(0)} deliveries/s; ratio public typing ${fig.ratio.pub.toFixed(4)}, presence ${fig.ratio.presence.toFixed(4)}, private typing ${fig.ratio.priv.toFixed(4)}`,
    );
    console.log(
      `  audience: ${c.violations} private-typing frames on non-members' sockets (must be 0); ${c.ownTyping} private-typing frames back to the typer's own sockets (must be 0)`,
    );
    for (const [label, xs] of [
      ['presence', c.ackMs],
      ['typing', c.typingAckMs],
    ] as const) {
      if (!xs.length) continue;
      const sorted = [...xs].sort((x, y) => x - y);
      const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))].toFixed(1);
      console.log(`  ${label} ack ms: p50 ${at(0.5)}, p99 ${at(0.99)} (${sorted.length} acks)`);
    }
    console.log(
      `  generator event-loop lag: max ${c.loopLagMs.toFixed(0)} ms (above ~50 ms the generator, not the server, sets the pace)`,
    );
    if (c.refused) console.log(`  ${c.refused} commands refused; first: ${c.firstRefusal}`);
    console.log(
      `  server CPU: ${fig.serverUsPerDelivery.toFixed(2)} us/delivery, ${fig.serverUsPerEvent.toFixed(0)} us/event, ${fig.serverCorePct.toFixed(0)}% of a core [${Object.entries(
        fig.perProcess,
      )
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')} us/delivery]`,
    );
    room.sockets.forEach((s) => s.conn.close());
    return fig;
  } catch (e) {
    console.log(`  ${name} failed during the run: ${(e as Error).message}`);
    return null;
  } finally {
    await target.stop().catch(() => {});
  }
}
