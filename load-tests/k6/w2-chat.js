/**
 * W2 realistic chat (docs/product/performance.md), scaled down: rooms of several sizes, each socket sends every 20-30 s with
 * typing-start/stop around it; every message persisted (the ack means durable). Figures: deliveries and the ratio
 * received/expected (every socket of the room, the sender's own included, receives each message), end-to-end
 * p50/p99 (receive timestamp of the frame minus the send time carried in the content, one clock) over every
 * (message, recipient) pair, send-to-ack p50/p99.
 * Env: W2_ROOMS ("10x10,2x50,1x200": <rooms>x<sockets>), W2_DURATION_S (60), W2_SEND_MIN_S/W2_SEND_MAX_S (20/30),
 *      W2_TYPING_S (2), W2_DRAIN_S (5), W2_VUS (4), W2_CONCURRENCY (20 joins in flight per VU), W2_MSG_BYTES (100).
 */
import http from 'k6/http';
import { CONTROL } from './lib/app.js';
import { chatChecks, chatConfig, chatFigures, describeChat, runChat, setupChat } from './lib/chat.js';
import { TREND_STATS, makeSummary } from './lib/figures.js';

const c = chatConfig('W2');

export const options = {
  scenarios: {
    chat: { executor: 'per-vu-iterations', vus: c.vus, iterations: 1, maxDuration: `${c.durationS + c.drainS + 300}s` },
  },
  summaryTrendStats: TREND_STATS,
  setupTimeout: '300s',
};

export async function setup() {
  if (CONTROL) http.post(`${CONTROL}/reset?expected=${c.total}`);
  return setupChat(c, 'W2');
}

export default async function (data) {
  await runChat(c, data);
}

export const handleSummary = makeSummary(
  'W2 realistic chat',
  () => describeChat(c),
  (m) => chatFigures(m),
  (_m, f) => chatChecks(f),
);
