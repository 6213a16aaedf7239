/**
 * W6 join + history (docs/product/performance.md): while W2's chat runs (lib/chat.js, its own W6_* scale), new sockets keep
 * joining a room that holds history: connect, join-workspace, join-channel. Figures: the join-channel answer time
 * (its ack carries the newest 50 messages: docs/protocol.md P4) p50/p99, the whole connect + join + history time,
 * the number of messages in each answer (50 expected), plus the chat's own figures under that load.
 * Env: W6_JOINS_PER_S (2), W6_JOINERS (the joiner scenario's VUs, 2), W6_HISTORY (120 messages written into the
 * history room in setup), W6_JOIN_START_S (15: joins start after the chat settled), and W2's knobs as W6_*
 * (W6_ROOMS default "10x10,2x50,1x200", W6_DURATION_S 60...).
 */
import http from 'k6/http';
import { Counter, Trend } from 'k6/metrics';
import { CONTROL, ORIGIN, clientMessageId, envNum, joinSocket, setupRoom } from './lib/app.js';
import { chatChecks, chatConfig, chatFigures, describeChat, runChat, setupChat } from './lib/chat.js';
import { TREND_STATS, atMost, makeSummary } from './lib/figures.js';

const c = chatConfig('W6');
const RATE = envNum('W6_JOINS_PER_S', 2);
const JOINERS = envNum('W6_JOINERS', 2);
const HISTORY = envNum('W6_HISTORY', 120);
const START_S = envNum('W6_JOIN_START_S', 15);
const JOIN_S = Math.max(1, c.durationS - START_S);

const historyMs = new Trend('w6_history_ms', true);
const joinAllMs = new Trend('w6_join_total_ms', true);
const historyCount = new Trend('w6_history_messages');
const joinFailed = new Counter('w6_join_failed');

export const options = {
  scenarios: {
    chat: {
      executor: 'per-vu-iterations',
      vus: c.vus,
      iterations: 1,
      maxDuration: `${c.durationS + c.drainS + 300}s`,
      exec: 'chat',
    },
    joiners: {
      executor: 'constant-arrival-rate',
      rate: RATE,
      timeUnit: '1s',
      duration: `${JOIN_S}s`,
      startTime: `${START_S}s`,
      preAllocatedVUs: JOINERS,
      maxVUs: JOINERS * 4,
      exec: 'joiner',
    },
  },
  summaryTrendStats: TREND_STATS,
  setupTimeout: '300s',
};

export async function setup() {
  if (CONTROL) http.post(`${CONTROL}/reset?expected=${c.total}`);
  const chat = await setupChat(c, 'W6');
  // the history room: HISTORY messages written before the run, so every join-channel answers a full page
  const room = await setupRoom(ORIGIN, 'w6h');
  const { socket } = await joinSocket(ORIGIN, room, room.users[0]);
  for (let i = 0; i < HISTORY; i++) {
    const a = await socket.request('send-message', {
      clientMessageId: clientMessageId(),
      channelId: room.channelId,
      content: `history ${i} of the W6 room`,
      type: 'text',
    });
    if (!a.success) throw new Error(`history send refused: ${JSON.stringify(a).slice(0, 200)}`);
  }
  socket.close();
  chat.history = room;
  return chat;
}

export async function chat(data) {
  await runChat(c, data);
}

let joins = 0;
export async function joiner(data) {
  const room = data.history;
  const t0 = Date.now();
  try {
    const { socket } = await joinSocket(ORIGIN, room, room.users[joins++ % room.users.length]);
    const t1 = Date.now();
    const a = await socket.request('join-channel', { channelId: room.channelId });
    const t2 = Date.now();
    socket.close();
    if (!a.success) throw new Error(`join-channel refused: ${JSON.stringify(a).slice(0, 200)}`);
    historyMs.add(t2 - t1);
    joinAllMs.add(t2 - t0);
    historyCount.add(a.messages.length);
  } catch (e) {
    joinFailed.add(1);
    console.warn(`w6 joiner: ${e.message}`);
  }
}

export const handleSummary = makeSummary(
  'W6 join + history under W2 chat',
  () => `${RATE} joins/s into a room of ${HISTORY} messages from ${START_S} s on, while: ${describeChat(c)}`,
  (m) => [
    {
      key: 'joins',
      label: 'history joins',
      value: m('w6_history_ms', 'count'),
      note: `failed ${m('w6_join_failed', 'count') || 0}`,
    },
    { key: 'histP50', label: 'join-channel (history) answer p50', value: m('w6_history_ms', 'med'), unit: 'ms' },
    { key: 'histP99', label: 'join-channel (history) answer p99', value: m('w6_history_ms', 'p(99)'), unit: 'ms' },
    { key: 'joinP99', label: 'connect + join + history p99', value: m('w6_join_total_ms', 'p(99)'), unit: 'ms' },
    {
      key: 'histMsgs',
      label: 'messages per history answer (min)',
      value: m('w6_history_messages', 'min'),
      note: '50 expected',
    },
    ...chatFigures(m),
  ],
  (m, f) => [
    {
      label: `every history answer holds 50 messages (min ${f.histMsgs === null ? 'n/a' : f.histMsgs})`,
      ok: f.histMsgs === null ? null : f.histMsgs === 50,
    },
    {
      label: `join-channel p99 <= 100 ms (${f.histP99 === null ? 'n/a' : f.histP99.toFixed(1)} ms)`,
      ok: atMost(f.histP99, 100),
    },
    ...chatChecks(f),
  ],
);
