/**
 * W4D big room of distinct members (docs/architecture.md "Big rooms"): N DISTINCT users join one business room
 * (no cap), each over HTTP (POST /api/workspaces/{id}/join) and then a socket (join-workspace), W4D_CONCURRENCY in
 * flight; then 2 sends/s. The runner (k6/run.ts) prepares the room: created over HTTP and made business through the
 * room service (W4D_WORKSPACE, W4D_OWNER_TOKEN); the script lifts the cap and creates the channel as the owner.
 * Figures: joins/s, HTTP join + connect + join-workspace p50/p99, server frames per joining socket during the joins
 * (presence-batch frames, user-joined single events, all frames), the highest online count a join was told and the
 * size of that join's first page, then fan-out completion (send -> the last of the N sockets) p50/p99, end-to-end p99 and the delivery ratio.
 * All sockets live in one VU (so completion is exact).
 * Env: W4D_MEMBERS (500), W4D_CONCURRENCY (50), W4D_RATE (2 sends/s), W4D_WARMUP_S (2), W4D_SEND_S (15),
 *      W4D_DRAIN_MAX_S (10).
 */
import http from 'k6/http';
import { Counter, Gauge, Trend } from 'k6/metrics';
import { ORIGIN, envNum, joinSocket } from './lib/app.js';
import { pool } from './lib/client.js';
import { makeSender } from './lib/fanout.js';
import { readContent } from './lib/sio.js';
import { TREND_STATS, atMost, makeSummary } from './lib/figures.js';

const N = envNum('W4D_MEMBERS', 500);
const CONC = envNum('W4D_CONCURRENCY', 50);
const RATE = envNum('W4D_RATE', 2);
const WARMUP_S = envNum('W4D_WARMUP_S', 2);
const SEND_S = envNum('W4D_SEND_S', 15);
const DRAIN_S = envNum('W4D_DRAIN_MAX_S', 10);

const sender = makeSender('w4d');
const joinMs = new Trend('w4d_join_ms', true);
const gJps = new Gauge('w4d_joins_per_s');
const gFrames = new Gauge('w4d_frames_per_join');
const gBatches = new Gauge('w4d_batches_per_join');
const gSingles = new Gauge('w4d_user_joined_per_join');
const gFirstPage = new Gauge('w4d_first_page');
const gCount = new Gauge('w4d_online_count');
const joinFailed = new Counter('w4d_join_failed');

export const options = {
  scenarios: {
    bigroom: {
      executor: 'per-vu-iterations',
      vus: 1,
      iterations: 1,
      maxDuration: `${Math.ceil(N / 5) + SEND_S + 180}s`,
    },
  },
  summaryTrendStats: TREND_STATS,
  setupTimeout: '120s',
};

async function postJson(url, body) {
  const res = await http.asyncRequest('POST', url, JSON.stringify(body), {
    headers: { 'content-type': 'application/json' },
    timeout: '60s',
  });
  if (res.status < 200 || res.status >= 300)
    throw new Error(`POST ${url} -> HTTP ${res.status}: ${String(res.body).slice(0, 200)}`);
  return JSON.parse(res.body);
}

export default async function () {
  const workspaceId = __ENV.W4D_WORKSPACE;
  const ownerToken = __ENV.W4D_OWNER_TOKEN;
  if (!workspaceId || !ownerToken) throw new Error('W4D_WORKSPACE and W4D_OWNER_TOKEN are set by k6/run.ts');
  const owner = { username: 'owner', userToken: ownerToken };
  const room = { workspaceId, users: [owner] };
  const { socket: ownerSocket } = await joinSocket(ORIGIN, room, owner);
  const cap = await ownerSocket.request('set-workspace-max-users', { workspaceId, maxUsers: 'unlimited' });
  if (!cap.success) throw new Error(`set-workspace-max-users refused: ${JSON.stringify(cap)}`);
  const cc = await ownerSocket.request('create-channel', { workspaceId, name: 'k6', type: 'topic', isPrivate: false });
  if (!cc.success) throw new Error(`create-channel refused: ${JSON.stringify(cc)}`);
  room.channelId = cc.channel.id;

  const sockets = [];
  let failed = 0;
  let frames = 0;
  let batches = 0;
  let singles = 0;
  let joining = true;
  let maxCount = 0;
  let pageAtMax = 0;
  const t0 = Date.now();
  await pool(N, CONC, async (i) => {
    const onEvent = (name, raw, ts) => {
      if (name === 'message') {
        const ct = readContent(raw);
        if (ct) sender.seen(ct, ts);
        return;
      }
      if (!joining) return;
      frames++;
      if (name === 'presence-batch') batches++;
      else if (name === 'user-joined') singles++;
      else if (name === 'online-users') {
        const m = /"onlineCount":(\d+)/.exec(raw);
        if (m && Number(m[1]) >= maxCount) {
          maxCount = Number(m[1]);
          pageAtMax = (String(raw).match(/"presenceStatus"/g) ?? []).length;
        }
      }
    };
    try {
      const start = Date.now();
      const username = `u${i}`;
      const joined = await postJson(`${ORIGIN}/api/workspaces/${encodeURIComponent(workspaceId)}/join`, { username });
      const j = await joinSocket(ORIGIN, room, { username, userToken: joined.userToken }, { onEvent });
      sockets.push(j.socket);
      joinMs.add(Date.now() - start);
    } catch (e) {
      failed++;
      if (failed === 1) console.warn(`w4d: ${e.message}`);
    }
  });
  const windowMs = Date.now() - t0;
  joining = false;
  joinFailed.add(failed);
  gJps.add((sockets.length / windowMs) * 1000);
  const per = (x) => (sockets.length ? x / sockets.length : 0);
  gFrames.add(per(frames));
  gBatches.add(per(batches));
  gSingles.add(per(singles));
  gCount.add(maxCount);
  gFirstPage.add(pageAtMax);
  await sender.run(room, sockets, RATE, WARMUP_S, SEND_S, DRAIN_S, 100);
  for (const s of sockets) s.close();
  ownerSocket.close();
}

export const handleSummary = makeSummary(
  'W4D big room, distinct members',
  () =>
    `${N} distinct users join one business room, ${CONC} joins in flight, then ${RATE} sends/s for ${SEND_S} s, one VU (docs/architecture.md "Big rooms")`,
  (m) => {
    const exp = m('w4d_expected_deliveries', 'count');
    const got = m('w4d_deliveries', 'count');
    return [
      {
        key: 'jps',
        label: 'joins/s (HTTP join + connect + join-workspace)',
        value: m('w4d_joins_per_s', 'value'),
        note: `join failures ${m('w4d_join_failed', 'count') || 0}`,
      },
      { key: 'joinP50', label: 'HTTP join + connect + join p50', value: m('w4d_join_ms', 'med'), unit: 'ms' },
      { key: 'joinP99', label: 'HTTP join + connect + join p99', value: m('w4d_join_ms', 'p(99)'), unit: 'ms' },
      {
        key: 'framesPerJoin',
        label: 'server frames per socket during the joins',
        value: m('w4d_frames_per_join', 'value'),
        note: `presence-batch ${fmt(m('w4d_batches_per_join', 'value'))}, user-joined ${fmt(m('w4d_user_joined_per_join', 'value'))} per socket`,
      },
      {
        key: 'firstPage',
        label: 'online-users with the highest count: its first page',
        value: m('w4d_first_page', 'value'),
        note: `count ${m('w4d_online_count', 'value') ?? 'n/a'}`,
      },
      {
        key: 'fanP50',
        label: 'fan-out completion p50',
        value: m('w4d_fanout_ms', 'med'),
        unit: 'ms',
        note: `${m('w4d_fanout_ms', 'count') || 0} messages`,
      },
      { key: 'fanP99', label: 'fan-out completion p99', value: m('w4d_fanout_ms', 'p(99)'), unit: 'ms' },
      { key: 'e2eP99', label: 'end-to-end p99', value: m('w4d_e2e_ms', 'p(99)'), unit: 'ms' },
      {
        key: 'ratio',
        label: 'delivery ratio received/expected',
        value: exp ? got / exp : null,
        digits: 4,
        note: `${got}/${exp}`,
      },
    ];
  },
  (_m, f) => [
    {
      label: `fan-out completion p50 <= 150 ms (${f.fanP50 === null ? 'n/a' : f.fanP50.toFixed(1)} ms)`,
      ok: atMost(f.fanP50, 150),
    },
    {
      label: `delivery ratio = 1 (${f.ratio === null ? 'n/a' : f.ratio.toFixed(4)})`,
      ok: f.ratio === null ? null : Math.abs(f.ratio - 1) < 1e-9,
    },
  ],
);

function fmt(v) {
  return v === null || v === undefined ? 'n/a' : Number(v).toFixed(2);
}
