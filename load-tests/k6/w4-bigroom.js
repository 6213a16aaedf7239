/**
 * W4 big room (docs/product/performance.md): N sockets join one room (W4_CONCURRENCY in flight), then a few sends/s.
 * Figures: joins/s (sockets / join window), connect + join p50/p99, server events received per joining socket
 * during the join phase (O(1) per join expected: user-joined carries one user, online-users goes to the joiner
 * only), then fan-out completion (send -> arrival at the last of the N sockets) p50/p99 and end-to-end p99.
 * A free room has 5 members: the N sockets are tabs of its 5 users (user-joined fires when a user comes online).
 * All sockets live in one VU.
 * Env: W4_MEMBERS (1500), W4_CONCURRENCY (50), W4_RATE (2 sends/s), W4_WARMUP_S (2), W4_SEND_S (15),
 *      W4_DRAIN_MAX_S (5).
 */
import { Counter, Gauge, Trend } from 'k6/metrics';
import { ORIGIN, envNum, setupRoom } from './lib/app.js';
import { joinAll, makeSender } from './lib/fanout.js';
import { TREND_STATS, atMost, makeSummary } from './lib/figures.js';

const N = envNum('W4_MEMBERS', 1500);
const CONC = envNum('W4_CONCURRENCY', 50);
const RATE = envNum('W4_RATE', 2);
const WARMUP_S = envNum('W4_WARMUP_S', 2);
const SEND_S = envNum('W4_SEND_S', 15);
const DRAIN_S = envNum('W4_DRAIN_MAX_S', 5);

const sender = makeSender('w4');
const joinMs = new Trend('w4_join_ms', true);
const gJps = new Gauge('w4_joins_per_s');
const gEvents = new Gauge('w4_events_per_join');
const joinFailed = new Counter('w4_join_failed');

export const options = {
  scenarios: {
    bigroom: {
      executor: 'per-vu-iterations',
      vus: 1,
      iterations: 1,
      maxDuration: `${Math.ceil(N / 5) + SEND_S + 120}s`,
    },
  },
  summaryTrendStats: TREND_STATS,
  setupTimeout: '120s',
};

export async function setup() {
  return { room: await setupRoom(ORIGIN, 'w4') };
}

export default async function (data) {
  const j = await joinAll(data.room, N, CONC, sender.seen, 'w4');
  for (const ms of j.joinMs) joinMs.add(ms);
  joinFailed.add(j.failed);
  gJps.add((j.sockets.length / j.windowMs) * 1000);
  gEvents.add(j.sockets.length ? j.eventsDuringJoin / j.sockets.length : 0);
  await sender.run(data.room, j.sockets, RATE, WARMUP_S, SEND_S, DRAIN_S, 100);
  for (const s of j.sockets) s.close();
}

export const handleSummary = makeSummary(
  'W4 big room',
  () =>
    `${N} sockets join one room (5 users), ${CONC} joins in flight, then ${RATE} sends/s for ${SEND_S} s, one VU (docs/product/performance.md: 10k members)`,
  (m) => {
    const exp = m('w4_expected_deliveries', 'count');
    const got = m('w4_deliveries', 'count');
    return [
      {
        key: 'jps',
        label: 'joins/s (connect + join-workspace)',
        value: m('w4_joins_per_s', 'value'),
        note: `join failures ${m('w4_join_failed', 'count') || 0}`,
      },
      { key: 'joinP50', label: 'connect + join p50', value: m('w4_join_ms', 'med'), unit: 'ms' },
      { key: 'joinP99', label: 'connect + join p99', value: m('w4_join_ms', 'p(99)'), unit: 'ms' },
      {
        key: 'eventsPerJoin',
        label: 'server events per socket during joins',
        value: m('w4_events_per_join', 'value'),
        note: 'workspace-joined + online-users + user-joined: stays ~O(1)',
      },
      {
        key: 'fanP50',
        label: 'fan-out completion p50',
        value: m('w4_fanout_ms', 'med'),
        unit: 'ms',
        note: `${m('w4_fanout_ms', 'count') || 0} messages`,
      },
      { key: 'fanP99', label: 'fan-out completion p99', value: m('w4_fanout_ms', 'p(99)'), unit: 'ms' },
      { key: 'e2eP99', label: 'end-to-end p99', value: m('w4_e2e_ms', 'p(99)'), unit: 'ms' },
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
      label: `fan-out completion p50 <= 150 ms (${f.fanP50 === null ? 'n/a' : f.fanP50.toFixed(1)} ms; target is for 10k members)`,
      ok: atMost(f.fanP50, 150),
    },
    {
      label: `delivery ratio = 1 (${f.ratio === null ? 'n/a' : f.ratio.toFixed(4)})`,
      ok: f.ratio === null ? null : Math.abs(f.ratio - 1) < 1e-9,
    },
  ],
);
