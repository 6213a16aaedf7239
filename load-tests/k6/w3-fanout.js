/**
 * W3 fan-out (docs/product/performance.md) with k6: one room of N sockets (5 users), 5 senders at a fixed rate; a warm-up, then
 * a steady window. Figures: deliveries/s (deliveries of steady-window messages / window), the ratio
 * received/expected (every socket, the senders' included, gets every message), end-to-end p50/p99 over every
 * (message, socket) pair, fan-out completion (last socket's arrival - send) p50/p99, send-to-ack p99.
 * All sockets live in one VU (exact fan-out completion); k6 parses no frame beyond two indexOf calls.
 * `npm run bench` keeps the real W3 sweep (its own raw generator, several rates, B0/B1 side by side): this one is
 * a single-rate cross-check through k6.
 * Env: W3_CONNECTIONS (500), W3_RATE (20 sends/s), W3_WARMUP_S (3), W3_STEADY_S (15), W3_DRAIN_MAX_S (5),
 *      W3_CONCURRENCY (50 joins in flight), W3_MSG_BYTES (100).
 */
import { Gauge, Counter } from 'k6/metrics';
import { envNum, setupRoom, ORIGIN } from './lib/app.js';
import { joinAll, makeSender } from './lib/fanout.js';
import { TREND_STATS, atMost, makeSummary } from './lib/figures.js';

const N = envNum('W3_CONNECTIONS', 500);
const RATE = envNum('W3_RATE', 20);
const WARMUP_S = envNum('W3_WARMUP_S', 3);
const STEADY_S = envNum('W3_STEADY_S', 15);
const DRAIN_S = envNum('W3_DRAIN_MAX_S', 5);
const CONC = envNum('W3_CONCURRENCY', 50);
const BYTES = envNum('W3_MSG_BYTES', 100);

const sender = makeSender('w3');
const gDps = new Gauge('w3_deliveries_per_s');
const gJps = new Gauge('w3_joins_per_s');
const joinFailed = new Counter('w3_join_failed');

export const options = {
  scenarios: {
    fanout: {
      executor: 'per-vu-iterations',
      vus: 1,
      iterations: 1,
      maxDuration: `${Math.ceil(N / 10) + WARMUP_S + STEADY_S + DRAIN_S + 120}s`,
    },
  },
  summaryTrendStats: TREND_STATS,
  setupTimeout: '120s',
};

export async function setup() {
  return { room: await setupRoom(ORIGIN, 'w3') };
}

export default async function (data) {
  const j = await joinAll(data.room, N, CONC, sender.seen, 'w3');
  joinFailed.add(j.failed);
  gJps.add((j.sockets.length / j.windowMs) * 1000);
  const r = await sender.run(data.room, j.sockets, RATE, WARMUP_S, STEADY_S, DRAIN_S, BYTES);
  gDps.add((r.delivered / r.steadyMs) * 1000);
  for (const s of j.sockets) s.close();
}

export const handleSummary = makeSummary(
  'W3 fan-out',
  () =>
    `${N} sockets in one room (5 users), ${RATE} sends/s from 5 senders, ${WARMUP_S} s warm-up + ${STEADY_S} s steady, one VU (docs/product/performance.md: 1k sockets, 10-400 sends/s; the sweep is npm run bench)`,
  (m) => {
    const exp = m('w3_expected_deliveries', 'count');
    const got = m('w3_deliveries', 'count');
    return [
      { key: 'dps', label: 'deliveries/s', value: m('w3_deliveries_per_s', 'value'), note: `offered ${RATE * N}/s` },
      {
        key: 'ratio',
        label: 'delivery ratio received/expected',
        value: exp ? got / exp : null,
        digits: 4,
        note: `${got}/${exp}`,
      },
      { key: 'e2eP50', label: 'end-to-end p50', value: m('w3_e2e_ms', 'med'), unit: 'ms' },
      { key: 'e2eP99', label: 'end-to-end p99', value: m('w3_e2e_ms', 'p(99)'), unit: 'ms' },
      { key: 'fanP50', label: 'fan-out completion p50', value: m('w3_fanout_ms', 'med'), unit: 'ms' },
      { key: 'fanP99', label: 'fan-out completion p99', value: m('w3_fanout_ms', 'p(99)'), unit: 'ms' },
      {
        key: 'ackP99',
        label: 'send-to-ack p99',
        value: m('w3_ack_ms', 'p(99)'),
        unit: 'ms',
        note: `sent ${m('w3_sent', 'count') || 0}, refused ${m('w3_refused', 'count') || 0}`,
      },
      {
        key: 'jps',
        label: 'joins/s (setup)',
        value: m('w3_joins_per_s', 'value'),
        note: `join failures ${m('w3_join_failed', 'count') || 0}`,
      },
    ];
  },
  (_m, f) => [
    {
      label: `delivery ratio = 1 (${f.ratio === null ? 'n/a' : f.ratio.toFixed(4)})`,
      ok: f.ratio === null ? null : Math.abs(f.ratio - 1) < 1e-9,
    },
    {
      label: `end-to-end p99 <= 100 ms (${f.e2eP99 === null ? 'n/a' : f.e2eP99.toFixed(1)} ms)`,
      ok: atMost(f.e2eP99, 100),
    },
  ],
);
