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
import { SKIP } from './admin-analytics-bench/common.ts';
import { projectionLag } from './admin-analytics-bench/projection-lag.ts';
import { dashboardLoads } from './admin-analytics-bench/dashboard-loads.ts';

if (!SKIP.includes('lag')) await projectionLag();
if (!SKIP.includes('loads')) await dashboardLoads();
process.exit(0);
