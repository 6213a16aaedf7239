/**
 * The load generator process (run by run.ts over IPC, pinned to its own core). Opens N sockets in one room, then
 * for each step sends at a fixed rate (warm-up, then a steady window) and reports counts and histograms.
 * Cheap by design: every socket only counts frames (a prefix test and one native byte search, no decoding);
 * 1 socket in `sampleEvery` also reads the send time for end-to-end latency.
 */
import { Histogram } from '../lib/stats.ts';
import { contains, makeContent, readContent } from './wire.ts';
import { makeScenario, type Member } from './scenarios.ts';
import type { FromWorker, SetupCmd, StepCmd, StepResult, ToWorker } from './protocol.ts';
import type { FrameData } from './conn.ts';

const send = (m: FromWorker) => process.send!(m);
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const runId = Math.random().toString(36).slice(2, 8);

let members: Member[] = [];
let senders: Member[] = [];
let acks = false;
let msgIndex = 0;

// counters for the current step
let recvTotal = 0;
let recvSteady = 0;
let steadyTag = '';
let steadyNeedle = '\u0000';
let steadyNeedleBuf = Buffer.from(steadyNeedle);
let e2e = new Histogram();
let fanout = new Map<number, number>();

function deliver(sampled: boolean, d: FrameData): void {
  recvTotal++;
  if (!contains(d, steadyNeedle, steadyNeedleBuf)) return;
  recvSteady++;
  if (!sampled) return;
  const c = readContent(d);
  if (!c) return;
  const lat = now() - c.t;
  e2e.record(lat * 1000);
  const prev = fanout.get(c.m);
  if (prev === undefined || lat > prev) fanout.set(c.m, lat);
}

async function setup(cmd: SetupCmd): Promise<void> {
  const sc = await makeScenario(cmd.target, cmd.client);
  acks = sc.acks;
  members = new Array(cmd.connections);
  // Untimed: the room (the app: created over HTTP with its users) and member 0 (the app: the creator, who creates
  // the channel). Timed: every other socket's connect + join, the joins figure of docs/product/performance.md PF3
  // (after rounds of the same
  // joins, closed again, for the steps' warm-up time, as the rig warms up (PF4); BENCH_JOIN_WARMUP=0: none);
  // then, timed apart, what a client does before it chats (the app: join-channel with its history).
  members[0] = await sc.open(0, (d) => deliver(true, d));
  await members[0].enter?.();
  const inParallel = async (work: (i: number) => Promise<void>) => {
    let next = 1;
    const lane = async () => {
      while (next < cmd.connections) await work(next++);
    };
    const t0 = now();
    await Promise.all(Array.from({ length: Math.max(1, cmd.connectConcurrency) }, lane));
    return now() - t0;
  };
  const joined = cmd.connections - 1;
  const warmupJoinsPerS: number[] = [];
  const warmupStarted = now();
  while (
    cmd.joinWarmupMs > 0 &&
    joined > 0 &&
    (warmupJoinsPerS.length === 0 || now() - warmupStarted < cmd.joinWarmupMs)
  ) {
    // A server runs warm: rounds on a fresh one measure its JIT more than its joins. Each printed all the same.
    const warmup: Member[] = [];
    const roundMs = await inParallel(async (i) => {
      warmup[i] = await sc.open(i, () => {});
    });
    warmupJoinsPerS.push((joined / roundMs) * 1000);
    for (const m of warmup) m?.close();
    await new Promise((r) => setTimeout(r, 2000)); // their disconnects handled before the next round
  }
  const joinMs = await inParallel(async (i) => {
    const sampled = i % cmd.sampleEvery === 0;
    members[i] = await sc.open(i, (d) => deliver(sampled, d));
  });
  const enterMs = members[0].enter
    ? await inParallel(async (i) => {
        await members[i].enter?.();
      })
    : null;
  senders = members.slice(0, Math.min(cmd.senders, members.length));
  send({
    type: 'ready',
    connectMs: joinMs,
    joinsPerS: joined > 0 ? (joined / joinMs) * 1000 : 0,
    warmupJoinsPerS,
    entersPerS: enterMs !== null && joined > 0 ? (joined / enterMs) * 1000 : null,
    sampled: Math.ceil(cmd.connections / cmd.sampleEvery),
    senders: senders.length,
    info: sc.info,
  });
}

/** Sends at `rate`/s for `ms`, round-robin over the senders; resolves with the number sent. */
function sendFor(
  rate: number,
  ms: number,
  tag: string,
  bytes: number,
  onSent: (t: number) => ((a: { success?: boolean; error?: string }) => void) | undefined,
): Promise<number> {
  return new Promise((resolve) => {
    const start = now();
    const total = Math.floor((rate * ms) / 1000);
    let sent = 0;
    const tick = () => {
      const el = now() - start;
      const due = Math.min(total, Math.floor((rate * el) / 1000));
      while (sent < due) {
        const m = msgIndex++;
        const t = now();
        senders[m % senders.length].send(
          makeContent(t, tag, m, bytes),
          `b${runId}-${m.toString().padStart(6, '0')}`,
          onSent(t),
        );
        sent++;
      }
      if (el >= ms) {
        clearInterval(timer);
        resolve(sent);
      }
    };
    const timer = setInterval(tick, 2);
  });
}

async function step(cmd: StepCmd): Promise<StepResult> {
  // warm-up: same rate, messages tagged W<step> (not counted)
  steadyTag = `S${cmd.step}`;
  steadyNeedle = `~k=${steadyTag}~`;
  steadyNeedleBuf = Buffer.from(steadyNeedle);
  await sendFor(cmd.rate, cmd.warmupMs, `W${cmd.step}`, cmd.msgBytes, () => undefined);

  recvSteady = 0;
  e2e = new Histogram();
  fanout = new Map();
  const ack = new Histogram();
  let ackErrors = 0;
  let ackFirstError: string | null = null;
  const onSent = (t: number) =>
    acks
      ? (a: { success?: boolean; error?: string }) => {
          if (a.success) ack.record((now() - t) * 1000);
          else {
            ackErrors++;
            ackFirstError ??= JSON.stringify(a).slice(0, 200);
          }
        }
      : undefined;

  send({ type: 'steady-start', step: cmd.step });
  const cpu0 = process.cpuUsage();
  const recv0 = recvTotal;
  const t0 = now();
  const sent = await sendFor(cmd.rate, cmd.steadyMs, steadyTag, cmd.msgBytes, onSent);
  const windowMs = now() - t0;
  const receivedInWindow = recvTotal - recv0;
  const cpu = process.cpuUsage(cpu0);
  send({ type: 'steady-end', step: cmd.step });

  // drain: wait (bounded) until every steady message reached every socket and every ack came back
  const expected = sent * members.length;
  const d0 = now();
  const pending = () => senders.reduce((n, s) => n + s.pendingAcks(), 0);
  while ((recvSteady < expected || pending() > 0) && now() - d0 < cmd.drainMaxMs) await sleep(20);
  const drainMs = now() - d0;
  const fan = new Histogram();
  for (const v of fanout.values()) fan.record(v * 1000);
  return {
    step: cmd.step,
    rate: cmd.rate,
    connections: members.length,
    sent,
    expected,
    received: recvSteady,
    windowMs,
    receivedInWindow,
    e2e: e2e.toJSON(),
    fanout: fan.toJSON(),
    ack: ack.toJSON(),
    ackErrors,
    ackFirstError,
    genCpuUs: cpu.user + cpu.system,
    genCpuSysUs: cpu.system,
    drainMs,
    drainTimedOut: recvSteady < expected || pending() > 0,
  };
}

process.on('message', (m: ToWorker) => {
  const run = async () => {
    if (m.type === 'setup') await setup(m);
    else if (m.type === 'step') send({ type: 'step-result', result: await step(m) });
    else if (m.type === 'close') {
      for (const s of members) s?.close();
      await sleep(100);
      process.exit(0);
    }
  };
  run().catch((e: Error) => send({ type: 'error', message: e?.stack ?? String(e) }));
});
process.on('disconnect', () => process.exit(0));
