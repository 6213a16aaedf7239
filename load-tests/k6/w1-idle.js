/**
 * W1 idle connections (docs/product/performance.md): N sockets connect and join-workspace, spread over rooms, then stay idle.
 * Figures: connect + join time per socket (p50/p99), joins/s (N over the window from the first connect to the last
 * join ack), and server memory per connection: (RSS with every socket connected, after a settle pause - RSS before
 * any socket) / N, the server's processes read by the runner (load-tests/k6/run.ts: embedded = the app process;
 * distributed = both gateways). RSS is read without a forced GC (nothing can trigger one from outside).
 * A socket is in one room at a time (join-workspace replaces the previous room), so "1-3 rooms each" becomes one
 * room each, rooms of N / W1_ROOMS sockets over 5 users.
 * Env: W1_CONNECTIONS (2000), W1_ROOMS (10), W1_VUS (10), W1_CONCURRENCY (25 connects in flight per VU),
 *      W1_HOLD_S (10: idle time after the memory reading), W1_SETTLE_MS (3000: pause before it).
 */
import http from 'k6/http';
import { Counter, Gauge, Trend } from 'k6/metrics';
import { pool, sleep } from './lib/client.js';
import { CONTROL, ORIGIN, envNum, joinSocket, serverRss, createRoomHttp } from './lib/app.js';
import { TREND_STATS, atMost, makeSummary } from './lib/figures.js';

const N = envNum('W1_CONNECTIONS', 2000);
const ROOMS = Math.max(1, envNum('W1_ROOMS', 10));
const VUS = Math.max(1, Math.min(N, envNum('W1_VUS', 10)));
const CONC = envNum('W1_CONCURRENCY', 25);
const HOLD_S = envNum('W1_HOLD_S', 10);
const SETTLE_MS = envNum('W1_SETTLE_MS', 3000);

const joinMs = new Trend('w1_join_ms', true);
const joined = new Counter('w1_joined');
const failed = new Counter('w1_join_failed');
const gJoinsPerS = new Gauge('w1_joins_per_s');
const gRssBefore = new Gauge('w1_rss_before_kb');
const gRssConnected = new Gauge('w1_rss_connected_kb');
const gPerConn = new Gauge('w1_rss_per_conn_kb');
const gConnected = new Gauge('w1_connected_at_reading');

export const options = {
  scenarios: {
    idle: {
      executor: 'per-vu-iterations',
      vus: VUS,
      iterations: 1,
      maxDuration: `${Math.ceil(N / 20) + HOLD_S + 180}s`,
    },
  },
  summaryTrendStats: TREND_STATS,
  setupTimeout: '300s',
  teardownTimeout: '60s',
};

export function setup() {
  if (CONTROL) http.post(`${CONTROL}/reset?expected=${N}&settleMs=${SETTLE_MS}`);
  const rooms = [];
  for (let r = 0; r < ROOMS; r++) rooms.push(createRoomHttp(ORIGIN, 'w1'));
  const before = serverRss();
  return { rooms, before };
}

export default async function (data) {
  const vu = (__VU - 1) % VUS;
  const mine = [];
  for (let i = vu; i < N; i += VUS) mine.push(i);
  const sockets = [];
  let bad = 0;
  const start = Date.now();
  await pool(mine.length, CONC, async (k) => {
    const i = mine[k];
    const room = data.rooms[i % ROOMS];
    const user = room.users[Math.floor(i / ROOMS) % room.users.length];
    try {
      const j = await joinSocket(ORIGIN, room, user, { onEvent: null });
      sockets.push(j.socket);
      joinMs.add(j.ms);
      joined.add(1);
    } catch (e) {
      bad++;
      failed.add(1);
      if (bad === 1) console.warn(`w1: ${e.message}`);
    }
  });
  const end = Date.now();
  if (CONTROL) {
    http.post(`${CONTROL}/ready?n=${sockets.length}&failed=${bad}&start=${start}&end=${end}`);
    // hold every socket until the runner has read the memory with all of them connected
    const t0 = Date.now();
    for (;;) {
      const st = JSON.parse(http.get(`${CONTROL}/status`).body);
      if (st.measured || Date.now() - t0 > 120000) break;
      await sleep(500);
    }
  }
  await sleep(HOLD_S * 1000);
  for (const s of sockets) s.close();
}

export function teardown(data) {
  if (!CONTROL) return;
  const st = JSON.parse(http.get(`${CONTROL}/status`).body);
  if (st.windowMs > 0) gJoinsPerS.add((st.ready / st.windowMs) * 1000);
  if (data.before) gRssBefore.add(data.before.totalKb);
  if (st.measured) {
    gRssConnected.add(st.measured.totalKb);
    gConnected.add(st.ready);
    if (data.before && st.ready > 0) gPerConn.add((st.measured.totalKb - data.before.totalKb) / st.ready);
  }
}

export const handleSummary = makeSummary(
  'W1 idle connections',
  () =>
    `${N} sockets, ${ROOMS} rooms of ~${Math.round(N / ROOMS)} sockets over 5 users each, ${VUS} VUs x ${CONC} connects in flight (docs/product/performance.md: 10k-50k)`,
  (m) => [
    {
      key: 'joined',
      label: 'sockets joined',
      value: m('w1_joined', 'count'),
      note: `failed ${m('w1_join_failed', 'count') || 0}`,
    },
    {
      key: 'joinsPerS',
      label: 'joins/s (connect + join-workspace)',
      value: m('w1_joins_per_s', 'value'),
      note: 'sockets / (last join ack - first connect)',
    },
    { key: 'joinP50', label: 'connect + join p50', value: m('w1_join_ms', 'med'), unit: 'ms' },
    { key: 'joinP99', label: 'connect + join p99', value: m('w1_join_ms', 'p(99)'), unit: 'ms' },
    { key: 'rssBefore', label: 'server RSS before', value: kbToMb(m('w1_rss_before_kb', 'value')), unit: 'MB' },
    {
      key: 'rssConnected',
      label: 'server RSS all connected',
      value: kbToMb(m('w1_rss_connected_kb', 'value')),
      unit: 'MB',
    },
    {
      key: 'perConn',
      label: 'RSS per idle connection',
      value: m('w1_rss_per_conn_kb', 'value'),
      unit: 'KB',
      note: `(after - before) / ${m('w1_connected_at_reading', 'value') || 'n/a'} sockets, no forced GC`,
    },
  ],
  (m, f) => [
    {
      label: `RSS per idle connection <= 10 KB (gateway target): ${f.perConn === null ? 'n/a' : f.perConn.toFixed(1)} KB`,
      ok: atMost(f.perConn, 10),
    },
    {
      label: `every socket joined (${m('w1_join_failed', 'count') || 0} failed)`,
      ok: !(m('w1_join_failed', 'count') > 0),
    },
  ],
);

function kbToMb(kb) {
  return kb === null ? null : kb / 1024;
}
