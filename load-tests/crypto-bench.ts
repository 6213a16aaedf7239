/**
 * Crypto-shredding benchmark (docs/product/performance.md PF19, PF20; docs/crypto.md), `npm run bench --
 * --workload=crypto`:
 *  1. Deleting a room with CRYPTO_BENCH_MESSAGES (100,000) messages, in the embedded app (a child process, its own
 *     DATA_DIR): the time from sending delete-workspace to its key file being gone ("content unreadable"; target
 *     <= 100 ms), to the ack, and to the background purge having removed its rows; and the effect of that purge on
 *     a W3-shaped load running in another room at the same moment (e2e p99 before vs during; target <= +10 %).
 *  2. W3 server CPU per delivery with the event log's encryption on vs off: the W3 harness (run.ts) twice on the
 *     embedded target, once with ROOM_ENCRYPTION=off (a switch that exists for this comparison only).
 * Settings: CRYPTO_BENCH_MESSAGES, CRYPTO_BENCH_LISTENERS (200), CRYPTO_BENCH_RATE (50 sends/s),
 * CRYPTO_BENCH_WINDOW_S (10), CRYPTO_BENCH_W3_RATES (25,100), CRYPTO_BENCH_SKIP=delete|cpu.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Socket } from 'socket.io-client';
import { C, S, type Message } from '@ephemera/proto';
import { freePort } from '@ephemera/platform';
import { createRoom, joinRoom, request, socketJoin, clientId } from '../test/helpers/clients.ts';
import { percentileSorted } from './lib/stats.ts';
import { ROOT, spawnNode } from './lib/processes.ts';
import { raiseRateLimitsForBench } from './lib/limits.ts';

const MESSAGES = Number(process.env.CRYPTO_BENCH_MESSAGES ?? 100_000);
const LISTENERS = Number(process.env.CRYPTO_BENCH_LISTENERS ?? 200);
const RATE = Number(process.env.CRYPTO_BENCH_RATE ?? 50);
const WINDOW_S = Number(process.env.CRYPTO_BENCH_WINDOW_S ?? 10);
const W3_RATES = process.env.CRYPTO_BENCH_W3_RATES ?? '25,100';
const SKIP = process.env.CRYPTO_BENCH_SKIP ?? '';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

raiseRateLimitsForBench(); // run.ts raised and printed them already when it dispatched here
if (SKIP !== 'delete') await deletionBench();
if (SKIP !== 'cpu') await cpuBench();
process.exit(0);

// ---------------------------------------------------------------- 1. deletion

async function deletionBench(): Promise<void> {
  console.log(`\n== deleting a room with ${MESSAGES} messages (embedded), with a W3-shaped load in another room`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-crypto-bench-'));
  const port = await freePort();
  const child = spawnNode(['--import', 'tsx', 'services/embedded/main.ts'], {
    core: null,
    env: { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  });
  child.stderr?.pipe(process.stderr);
  child.stdout?.on('data', (d: Buffer) => {
    if (/"level":(40|50|60)/.test(d.toString())) process.stderr.write(d);
  });
  child.once('exit', (code, signal) => {
    if (code !== 0 && signal !== 'SIGTERM') console.log(`  the embedded app exited (${code ?? signal})`);
  });
  const origin = `http://127.0.0.1:${port}`;
  const sockets: Socket[] = [];
  try {
    await waitUp(origin);
    // the room to delete, filled over the real protocol
    const big = await createRoom(origin, `crypto-bench-${Date.now().toString(36)}`, 'owner');
    const owner = (await socketJoin(origin, big.workspaceId, 'owner', big.userToken)).socket;
    sockets.push(owner);
    const ch = await request(owner, C.createChannel, {
      workspaceId: big.workspaceId,
      name: 'general',
      type: 'topic',
      isPrivate: false,
    });
    if (!ch.success) throw new Error(ch.message);
    const fill0 = Date.now();
    let sent = 0;
    await Promise.all(
      Array.from({ length: 256 }, async () => {
        while (sent < MESSAGES) {
          const i = sent++;
          const ack = await request(owner, C.sendMessage, {
            clientMessageId: clientId(),
            channelId: ch.channel.id,
            content: `message ${i} of the doomed room, with some words in it`,
            type: 'text',
          });
          if (!ack.success) throw new Error(`send ${i}: ${ack.code}`);
        }
      }),
    );
    console.log(`  filled in ${((Date.now() - fill0) / 1000).toFixed(1)} s`);
    const db = new pg.Client({
      connectionString: `postgres://postgres:ephemera@127.0.0.1:${pgPort(dataDir)}/ephemera`,
    });
    await db.connect();
    db.on('error', () => {}); // the app stopping its PostgreSQL at the end
    const rows = async () =>
      Number(
        (await db.query('SELECT count(*) AS n FROM messaging.messages WHERE workspace_id = $1', [big.workspaceId]))
          .rows[0].n,
      );
    for (let i = 0; i < 300 && (await rows()) < MESSAGES; i++) await sleep(100); // the projection catches up
    console.log(`  ${await rows()} message rows in the room`);

    // the load: LISTENERS sockets in another room (5 members), 5 senders at RATE sends/s in total, e2e on every 10th socket
    const load = await startLoad(origin, sockets);
    await sleep(3000); // warm-up
    const before0 = performance.now();
    await sleep(WINDOW_S * 1000);
    const before = load.latenciesBetween(before0, performance.now());

    const keyFile = path.join(dataDir, 'keys', `${big.workspaceId}.key`);
    if (!fs.existsSync(keyFile)) throw new Error(`no key file ${keyFile}`);
    let keyGoneAt = 0;
    const seeGone = () => {
      if (!keyGoneAt && !fs.existsSync(keyFile)) keyGoneAt = performance.now();
    };
    const watcher = fs.watch(path.dirname(keyFile), seeGone);
    const poll = setInterval(seeGone, 1);
    const t0 = performance.now();
    const ack = await request(owner, C.deleteWorkspace, { workspaceId: big.workspaceId });
    const ackAt = performance.now();
    if (!ack.success) throw new Error(`delete refused: ${ack.message}`);
    let purgedAt = 0;
    while (!purgedAt) {
      if ((await rows()) === 0) purgedAt = performance.now();
      else await sleep(20);
    }
    const windowEnd = Math.max(purgedAt, t0 + WINDOW_S * 1000);
    await sleep(Math.max(0, windowEnd - performance.now()) + 500);
    watcher.close();
    clearInterval(poll);
    const during = load.latenciesBetween(t0, windowEnd);
    load.stop();
    await db.end();

    const p = (xs: number[], q: number) => (xs.length ? percentileSorted(xs, q) : NaN);
    console.log(
      `  delete-workspace -> key file gone: ${(keyGoneAt - t0).toFixed(1)} ms (target <= 100 ms)${keyGoneAt - t0 <= 100 ? '' : '  OVER TARGET'}`,
    );
    console.log(
      `  delete-workspace -> ack: ${(ackAt - t0).toFixed(1)} ms; -> rows purged: ${(purgedAt - t0).toFixed(0)} ms`,
    );
    console.log(
      `  load (${LISTENERS} sockets, ${RATE} sends/s in another room): e2e p50/p99 ${p(before, 50).toFixed(1)}/${p(before, 99).toFixed(1)} ms before (${before.length} samples), ` +
        `${p(during, 50).toFixed(1)}/${p(during, 99).toFixed(1)} ms during the purge (${during.length} samples): p99 ${pct(p(during, 99), p(before, 99))} (target <= +10 %)`,
    );
  } finally {
    for (const s of sockets) s.disconnect();
    child.kill('SIGTERM');
    await new Promise((r) => {
      child.once('exit', r);
      setTimeout(r, 15_000);
    });
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function startLoad(origin: string, sockets: Socket[]) {
  const room = await createRoom(origin, `crypto-load-${Date.now().toString(36)}`, 'sender0');
  const first = (await socketJoin(origin, room.workspaceId, 'sender0', room.userToken)).socket;
  sockets.push(first);
  const ch = await request(first, C.createChannel, {
    workspaceId: room.workspaceId,
    name: 'general',
    type: 'topic',
    isPrivate: false,
  });
  if (!ch.success) throw new Error(ch.message);
  // A free room holds 5 members; each member has many sockets (tabs), as the W3 generator does.
  const senders = [first];
  const members = [{ name: 'sender0', token: room.userToken }];
  for (let i = 1; i < 5; i++) {
    const j = await joinRoom(origin, room.workspaceId, `sender${i}`);
    const s = (await socketJoin(origin, room.workspaceId, `sender${i}`, j.userToken)).socket;
    members.push({ name: `sender${i}`, token: j.userToken });
    senders.push(s);
    sockets.push(s);
  }
  const sentAt = new Map<string, number>();
  const samples: [number, number][] = []; // [send time, latency]
  for (let i = 0; i < LISTENERS; i++) {
    const m = members[i % members.length]!;
    const s = (await socketJoin(origin, room.workspaceId, m.name, m.token)).socket;
    sockets.push(s);
    if (i % 10 === 0) {
      s.on(S.message, (m: Message) => {
        const t = sentAt.get(m.clientMessageId ?? '');
        if (t !== undefined) samples.push([t, performance.now() - t]);
      });
    }
  }
  let n = 0;
  const timer = setInterval(() => {
    const id = clientId();
    sentAt.set(id, performance.now());
    void request(senders[n++ % senders.length]!, C.sendMessage, {
      clientMessageId: id,
      channelId: ch.channel.id,
      content: `load ${n}`,
      type: 'text',
    }).catch(() => {});
  }, 1000 / RATE);
  return {
    latenciesBetween: (from: number, to: number) =>
      samples
        .filter(([t]) => t >= from && t < to)
        .map(([, l]) => l)
        .sort((a, b) => a - b),
    stop: () => clearInterval(timer),
  };
}

// ---------------------------------------------------------------- 2. CPU per delivery, encryption on vs off

async function cpuBench(): Promise<void> {
  // ROOM_ENCRYPTION=off switches the event log's sealing and messaging's message rows (the send path's cost); the
  // room read model's sealed member names stay on (joins, not deliveries).
  console.log(`\n== W3 server CPU per delivery, embedded, event-log encryption on vs off (rates ${W3_RATES})`);
  const figures: Record<string, Record<number, number>> = {};
  for (const mode of ['off', 'on'] as const) {
    const out = path.join(os.tmpdir(), `ephemera-crypto-w3-${mode}-${process.pid}.json`);
    console.log(`  -- ROOM_ENCRYPTION=${mode}`);
    const child = spawnNode(
      [
        '--import',
        'tsx',
        path.join(ROOT, 'load-tests', 'run.ts'),
        '--targets=embedded',
        `--rates=${W3_RATES}`,
        `--out=${out}`,
      ],
      {
        core: null,
        env: { ROOM_ENCRYPTION: mode === 'off' ? 'off' : '' },
      },
    );
    child.stdout?.on('data', (d: Buffer) => process.stdout.write(d.toString().replace(/^(?=.)/gm, '     ')));
    child.stderr?.pipe(process.stderr);
    const code = await new Promise<number>((r) => child.once('exit', (c) => r(c ?? 1)));
    if (code !== 0 || !fs.existsSync(out)) {
      console.log(`  W3 run with encryption ${mode} failed (exit ${code})`);
      return;
    }
    const result = JSON.parse(fs.readFileSync(out, 'utf8')) as {
      medians: { embedded?: { rate: number; serverCpuUsPerDelivery: number }[] };
    };
    figures[mode] = Object.fromEntries((result.medians.embedded ?? []).map((s) => [s.rate, s.serverCpuUsPerDelivery]));
    fs.rmSync(out, { force: true });
  }
  for (const rate of W3_RATES.split(',').map(Number)) {
    const off = figures.off?.[rate];
    const on = figures.on?.[rate];
    if (off === undefined || on === undefined) {
      console.log(`  rate ${rate}: not measured in both runs`);
      continue;
    }
    console.log(
      `  rate ${rate} sends/s: ${off.toFixed(2)} µs/delivery off, ${on.toFixed(2)} µs/delivery on: ${pct(on, off)} (target <= +10 %)`,
    );
  }
}

// ---------------------------------------------------------------- helpers

function pct(now: number, base: number): string {
  const d = ((now - base) / base) * 100;
  return `${d >= 0 ? '+' : ''}${d.toFixed(1)} %`;
}

function pgPort(dataDir: string): string {
  return fs
    .readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')
    .split('\n')[3]!
    .trim();
}

async function waitUp(origin: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${origin}/healthz`)).ok) return;
    } catch {
      /* starting */
    }
    await sleep(200);
  }
  throw new Error(`${origin} did not start`);
}
