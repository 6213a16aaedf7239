/**
 * (b) The dashboard's nine parallel loads over a year of events: the embedded app started, the events projected
 * (unless ADMIN_BENCH_DATA_DIR kept them from a run before), then ADMIN_BENCH_ROUNDS page loads; then (c).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ADMIN_API, type AnyEventEnvelope } from '@ephemera/proto';
import { applyOnce } from '@ephemera/platform';
import { startEmbedded } from '../../services/embedded/app.ts';
import { EVENTS, ROUNDS, SKIP, logger, ms, pct, projectAdmin } from './common.ts';
import { yearOfEvents } from './events.ts';
import { backupRoundTrip } from './backup.ts';

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

export async function dashboardLoads(): Promise<void> {
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
