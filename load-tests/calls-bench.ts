/**
 * Call signaling benchmark (docs/product/performance.md PF24), `npm run bench -- --workload=calls`: call setup time,
 * from the caller emitting
 * start-call to the caller receiving call-accepted (the callee answers the moment incoming-call arrives), and the
 * ring latency (start-call -> incoming-call at the callee). CALLS_BENCH_PAIRS pairs (default 10) of a pro room call
 * each other CALLS_BENCH_CALLS times in all (default 500), concurrently, each call hung up before the pair's next.
 * Targets (BENCH_TARGETS or --targets=, default embedded,distributed):
 *   embedded: the app in this process (startEmbedded; the clients share its process and core);
 *   distributed: the deploy/local/up.sh stack, each caller connected straight to gateway 1 and its callee to
 *     gateway 2, so every call crosses replicas through the Redis bus.
 * Printed per target: calls, p50 / p95 / p99 / max of setup and ring times, refusals.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Socket } from 'socket.io-client';
import { C, INTERNAL, S } from '@ephemera/proto';
import { createLogger } from '@ephemera/platform';
import { createRoom, joinRoom, request, socketJoin } from '../test/helpers/clients.ts';
import { startEmbedded } from '../services/embedded/app.ts';
import { loadConfig } from './lib/config.ts';
import { NotRun } from './lib/running-target.ts';
import { distributedPorts, roomInternalCall, shutdownDistributed } from './lib/distributed-stack.ts';
import { startTarget } from './lib/targets.ts';
import { percentileSorted } from './lib/stats.ts';
import { raiseRateLimitsForBench } from './lib/limits.ts';

const PAIRS = Math.min(12, Number(process.env.CALLS_BENCH_PAIRS ?? 10)); // 2 x 12 + the owner = a pro room's 25
const CALLS = Number(process.env.CALLS_BENCH_CALLS ?? 500);
const targetArg =
  process.argv.find((a) => a.startsWith('--targets='))?.slice(10) ??
  process.env.BENCH_TARGETS ??
  'embedded,distributed';
const targets = targetArg.split(',').filter((t) => t === 'embedded' || t === 'distributed');

/** http: where /api answers (the ingress when distributed); caller, callee: the origins their sockets connect to */
interface Site {
  http: string;
  caller: string;
  callee: string;
  changeTier(workspaceId: string): Promise<void>;
}

raiseRateLimitsForBench(); // run.ts printed it when it dispatched here
console.log(
  `calls: ${PAIRS} pairs, ${CALLS} calls in all; setup = start-call emitted -> call-accepted received by the caller`,
);
for (const name of targets) {
  try {
    if (name === 'embedded') await embedded();
    else await distributed();
  } catch (err) {
    console.log(`  ${name}: not run (${err instanceof NotRun ? err.message : (err as Error).stack})`);
  }
}
await shutdownDistributed();
process.exit(0);

async function embedded(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-calls-bench-'));
  const app = await startEmbedded({ port: 0, host: '127.0.0.1', dataDir, logger: createLogger('calls-bench', 'warn') });
  try {
    await measure('embedded (one process)', {
      http: app.url,
      caller: app.url,
      callee: app.url,
      changeTier: async (workspaceId) => {
        await app.rooms.changeTier({ workspaceId, tier: 'pro', reason: 'bench' });
      },
    });
  } finally {
    await app.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function distributed(): Promise<void> {
  const target = await startTarget('distributed', loadConfig());
  const ports = distributedPorts();
  const origin = target.spec.kind === 'app' ? target.spec.origin : '';
  await measure('distributed (caller on gateway 1, callee on gateway 2)', {
    http: origin,
    caller: `http://127.0.0.1:${ports.gateway1}`,
    callee: `http://127.0.0.1:${ports.gateway2}`,
    // the room service's internal listener, signed with the stack's service credential
    changeTier: async (workspaceId) => {
      await roomInternalCall(INTERNAL.changeTier, { workspaceId, tier: 'pro', reason: 'bench' });
    },
  });
}

async function measure(label: string, site: Site): Promise<void> {
  const room = await createRoom(site.http, `calls-bench-${Date.now().toString(36)}`, 'owner');
  await site.changeTier(room.workspaceId);
  const sockets: Socket[] = [];
  const pairs: { caller: Socket; callee: Socket; calleeId: string; channelId: string }[] = [];
  try {
    for (let i = 0; i < PAIRS; i++) {
      const a = await joinRoom(site.http, room.workspaceId, `caller${i}`);
      const b = await joinRoom(site.http, room.workspaceId, `callee${i}`);
      const caller = (await socketJoin(site.caller, room.workspaceId, `caller${i}`, a.userToken)).socket;
      const callee = (await socketJoin(site.callee, room.workspaceId, `callee${i}`, b.userToken)).socket;
      sockets.push(caller, callee);
      const dm = await request(caller, C.createDmChannel, { workspaceId: room.workspaceId, targetUserId: b.user.id });
      if (!dm.success) throw new Error(dm.message);
      // the callee answers every ring at once
      callee.on(S.incomingCall, (p: { channelId: string; callerId: string }) => {
        callee.emit(C.acceptCall, { channelId: p.channelId, callerId: p.callerId }, () => {});
      });
      pairs.push({ caller, callee, calleeId: b.user.id, channelId: dm.channel.id });
    }
    const setup: number[] = [];
    const ring: number[] = [];
    let refused = 0;
    let left = CALLS;
    const t0 = Date.now();
    await Promise.all(
      pairs.map(async (p) => {
        while (left > 0) {
          left--;
          const start = performance.now();
          const rang = once(p.callee, S.incomingCall).then(
            () => performance.now() - start,
            () => NaN,
          );
          const accepted = once(p.caller, S.callAccepted).then(
            () => performance.now() - start,
            () => NaN,
          );
          const ack = await request(p.caller, C.startCall, {
            channelId: p.channelId,
            targetUserId: p.calleeId,
            callType: 'video',
          });
          if (!ack.success) {
            refused++;
            continue;
          }
          const [r, a] = await Promise.all([rang, accepted]);
          if (Number.isNaN(a)) {
            refused++;
            continue;
          }
          ring.push(r);
          setup.push(a);
          const ended = once(p.callee, S.callEnded);
          await request(p.caller, C.endCall, { channelId: p.channelId });
          await ended;
        }
      }),
    );
    const s = [...setup].sort((x, y) => x - y);
    const r = [...ring].sort((x, y) => x - y);
    const f = (v: number[]) =>
      `p50 ${fmt(percentileSorted(v, 50))}  p95 ${fmt(percentileSorted(v, 95))}  p99 ${fmt(percentileSorted(v, 99))}  max ${fmt(v[v.length - 1] ?? NaN)}`;
    console.log(
      `\n== ${label}: ${setup.length} calls in ${((Date.now() - t0) / 1000).toFixed(1)} s, ${refused} refused`,
    );
    console.log(`  call setup (start-call -> call-accepted)  ${f(s)}`);
    console.log(`  ring (start-call -> incoming-call)        ${f(r)}`);
  } finally {
    for (const socket of sockets) socket.disconnect();
  }
}

function fmt(ms: number): string {
  return `${ms.toFixed(1)} ms`;
}

function once(socket: Socket, event: string, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, on);
      reject(new Error(`no ${event} within ${timeoutMs} ms`));
    }, timeoutMs);
    const on = () => {
      clearTimeout(timer);
      socket.off(event, on);
      resolve();
    };
    socket.on(event, on);
  });
}
