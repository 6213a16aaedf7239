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
import { loadConfig, type TargetName } from './lib/config.ts';
import { NotRun, type RunningTarget } from './lib/running-target.ts';
import { shutdownDistributed } from './lib/distributed-stack.ts';
import { startTarget } from './lib/targets.ts';
import { cpuDeltaUs, sampleCpu } from './lib/stats.ts';
import { SioConn } from './generator/conn.ts';

const cfg = loadConfig();
const explicitTargets = process.argv.some((a) => a.startsWith('--targets=')) || Boolean(process.env.BENCH_TARGETS);
const targets: TargetName[] = explicitTargets ? cfg.targets.filter((t) => t !== 'b0') : ['b1', 'embedded'];
const RATE = Number(process.env.BENCH_W2_RATE ?? flag('w2-rate') ?? 100);
const N = cfg.connections;
const USERS = 5;
const PUBLIC = 'bench';
const PRIVATE = 'secret';

function flag(name: string): string | undefined {
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

type Kind = 'pub' | 'presence' | 'priv';
interface Counters {
  received: Record<Kind, number>;
  expected: Record<Kind, number>;
  violations: number;
  ownTyping: number;
  refused: number;
  firstRefusal?: string;
  ackMs: number[];
  typingAckMs: number[];
  loopLagMs: number;
}
const zero = (): Counters => ({
  received: { pub: 0, presence: 0, priv: 0 },
  expected: { pub: 0, presence: 0, priv: 0 },
  violations: 0,
  ownTyping: 0,
  refused: 0,
  ackMs: [],
  typingAckMs: [],
  loopLagMs: 0,
});

interface Room {
  sockets: { conn: SioConn; user: number }[];
  /** sends one event of `kind` as `user` on one of that user's sockets; returns how many sockets should get it */
  act(kind: Kind, user: number, on: boolean): number;
}

/**
 * Which socket acts: each start (or away) goes out on the user's next socket in turn and its stop (or online) on
 * the same one, as N/5 tabs would: no one socket carries a user's whole stream (a person sends typing-start about
 * every 3 s per tab), and one session's start and stop keep their order on their socket.
 */
function senders(sockets: { conn: SioConn; user: number }[]) {
  const byUser = Array.from({ length: USERS }, (_, u) => sockets.filter((s) => s.user === u).map((s) => s.conn));
  const turn = new Array<number>(USERS).fill(0);
  const open = new Map<string, SioConn>();
  return (user: number, key: string, on: boolean): SioConn => {
    if (on || !open.has(key)) open.set(key, byUser[user][turn[user]++ % byUser[user].length]);
    return open.get(key)!;
  };
}

/** Socket i belongs to user i % USERS; every user has N / USERS sockets. */
const socketsOf = (user: number) => Math.floor(N / USERS) + (user < N % USERS ? 1 : 0);

async function b1Room(origin: string, counters: () => Counters): Promise<Room> {
  const sockets: Room['sockets'] = [];
  for (let i = 0; i < N; i++) {
    const user = i % USERS;
    const conn = await SioConn.connect(origin, cfg.client, '42["msg"', undefined, 20_000);
    await conn.request('join', PUBLIC);
    if (user === 1) await conn.request('join', PRIVATE);
    conn.onDelivery = (d) => {
      const f = String(d);
      const kind: Kind = f.includes('"content":"priv:')
        ? 'priv'
        : f.includes('"content":"presence:')
          ? 'presence'
          : 'pub';
      counters().received[kind]++;
      if (kind === 'priv' && user !== 1) counters().violations++;
    };
    sockets.push({ conn, user });
  }
  const sender = senders(sockets);
  return {
    sockets,
    act(kind, user, on) {
      const room = kind === 'priv' ? PRIVATE : PUBLIC;
      const from = kind === 'priv' ? 0 : user;
      sender(from, `${kind}:${from}`, on).emit('msg', { room, content: `${kind}:${user}:${on}` });
      return kind === 'priv' ? socketsOf(1) : N; // B1's room includes the sender's own socket
    },
  };
}

async function appRoom(origin: string, counters: () => Counters): Promise<Room> {
  const post = async <T>(path: string, body: object): Promise<T> => {
    const res = await fetch(origin + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`POST ${path}: HTTP ${res.status} ${await res.text()}`);
    return res.json() as Promise<T>;
  };
  const created = await post<{ workspaceId: string; userToken: string }>('/api/workspaces', {
    name: `w2-${Math.random().toString(36).slice(2, 8)}`,
    username: 'w2u0',
  });
  const tokens = [created.userToken];
  for (let u = 1; u < USERS; u++)
    tokens.push(
      (await post<{ userToken: string }>(`/api/workspaces/${created.workspaceId}/join`, { username: `w2u${u}` }))
        .userToken,
    );
  const userIds: string[] = [];
  const sockets: Room['sockets'] = [];
  let publicId = '';
  let privateId = '';
  for (let i = 0; i < N; i++) {
    const user = i % USERS;
    const conn = await SioConn.connect(origin, cfg.client, '42["user-', undefined, 20_000);
    const jw = await conn.request<{ success: boolean; user: { id: string } }>('join-workspace', {
      workspaceId: created.workspaceId,
      username: `w2u${user}`,
      userToken: tokens[user],
    });
    if (!jw.success) throw new Error(`join-workspace refused: ${JSON.stringify(jw)}`);
    userIds[user] = jw.user.id;
    if (i === USERS - 1) {
      const pub = await sockets[0].conn.request<{ success: boolean; channel: { id: string } }>('create-channel', {
        workspaceId: created.workspaceId,
        name: 'general',
        type: 'topic',
        isPrivate: false,
      });
      const priv = await sockets[0].conn.request<{ success: boolean; channel: { id: string } }>('create-channel', {
        workspaceId: created.workspaceId,
        name: 'secret',
        type: 'topic',
        isPrivate: true,
        memberIds: [userIds[1]],
      });
      if (!pub.success || !priv.success) throw new Error(`create-channel refused: ${JSON.stringify([pub, priv])}`);
      publicId = pub.channel.id;
      privateId = priv.channel.id;
    }
    // Classified by substrings, not parsed: the generator must not be what limits the rate (ids are unique strings).
    conn.onDelivery = (d) => {
      const f = String(d);
      if (f.startsWith('42["user-presence-updated"')) {
        counters().received.presence++;
        return;
      }
      if (!f.startsWith('42["user-typing"') && !f.startsWith('42["user-stopped-typing"')) return; // joins, leaves
      if (f.includes(`"channelId":"${privateId}"`)) {
        counters().received.priv++;
        if (f.includes(`"userId":"${userIds[user]}"`)) counters().ownTyping++;
        if (user !== 1) counters().violations++;
      } else counters().received.pub++;
    };
    sockets.push({ conn, user });
  }
  const sender = senders(sockets);
  const workspaceId = created.workspaceId;
  const emit = (conn: SioConn, event: string, payload: object) => {
    const sentAt = performance.now();
    conn.emitWithAck(event, payload, ([ack]) => {
      (event === 'update-presence' ? counters().ackMs : counters().typingAckMs).push(performance.now() - sentAt);
      const a = ack as { success?: boolean; code?: string; message?: string };
      if (!a?.success) {
        counters().refused++;
        counters().firstRefusal ??= `${event}: ${a?.code} ${a?.message}`;
      }
    });
  };
  return {
    sockets,
    act(kind, user, on) {
      if (kind === 'presence') {
        emit(sender(user, `presence:${user}`, on), 'update-presence', { workspaceId, status: on ? 'away' : 'online' });
        return N;
      }
      const typer = kind === 'priv' ? 0 : user;
      emit(sender(typer, `${kind}:${typer}`, on), on ? 'typing-start' : 'typing-stop', {
        channelId: kind === 'priv' ? privateId : publicId,
      });
      return kind === 'priv' ? socketsOf(1) : N;
    },
  };
}

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

async function runTarget(name: TargetName): Promise<Record<string, unknown> | null> {
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
