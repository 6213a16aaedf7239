/**
 * Realistic chat (W2), shared by w2-chat.js and w6-history.js: rooms of several sizes (sockets spread over the
 * room's 5 users), every socket sends a message every 20-30 s, preceded by typing-start (typing-stop just before
 * the send); every socket counts the room's messages it receives.
 * Sockets are spread over the VUs round robin; all of them join before the first send (a barrier through the
 * runner's control endpoint when there is one, a fixed wait otherwise), so every message has a known audience.
 */
import http from 'k6/http';
import { Counter, Trend } from 'k6/metrics';
import { pool, sleep } from './client.js';
import { CONTROL, ORIGIN, clientMessageId, envNum, joinSocket, setupRoom } from './app.js';
import { makeContent, readContent } from './sio.js';

export const chatE2e = new Trend('chat_e2e_ms', true);
export const chatAck = new Trend('chat_ack_ms', true);
export const chatSent = new Counter('chat_sent');
export const chatRefused = new Counter('chat_refused');
export const chatExpected = new Counter('chat_expected_deliveries');
export const chatDelivered = new Counter('chat_deliveries');
export const chatTyping = new Counter('chat_typing_events_sent');
export const chatTypingRecv = new Counter('chat_typing_received');
export const chatJoinFailed = new Counter('chat_join_failed');

/** "10x10,2x50,1x200" -> [10 rooms of 10 sockets, 2 of 50, 1 of 200] */
export function parseRooms(spec) {
  const rooms = [];
  for (const part of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^(\d+)x(\d+)$/.exec(part);
    if (!m) throw new Error(`room spec "${part}" must be <count>x<sockets>, e.g. 10x10`);
    for (let i = 0; i < Number(m[1]); i++) rooms.push(Number(m[2]));
  }
  return rooms;
}

export function chatConfig(prefix) {
  const sizes = parseRooms(__ENV[`${prefix}_ROOMS`] || '10x10,2x50,1x200');
  const total = sizes.reduce((a, b) => a + b, 0);
  return {
    sizes,
    total,
    vus: Math.max(1, Math.min(total, envNum(`${prefix}_VUS`, 4))),
    durationS: envNum(`${prefix}_DURATION_S`, 60),
    minS: envNum(`${prefix}_SEND_MIN_S`, 20),
    maxS: envNum(`${prefix}_SEND_MAX_S`, 30),
    typingS: envNum(`${prefix}_TYPING_S`, 2),
    drainS: envNum(`${prefix}_DRAIN_S`, 5),
    bytes: envNum(`${prefix}_MSG_BYTES`, 100),
    conc: envNum(`${prefix}_CONCURRENCY`, 20),
  };
}

export function describeChat(c) {
  const groups = {};
  for (const s of c.sizes) groups[s] = (groups[s] || 0) + 1;
  const rooms = Object.entries(groups)
    .map(([s, n]) => `${n}x${s}`)
    .join(' + ');
  return `${c.total} sockets in rooms of ${rooms} sockets (5 users each: a free room's limit), each socket sends every ${c.minS}-${c.maxS} s with typing-start ${c.typingS} s before, ${c.durationS} s + ${c.drainS} s drain, ${c.vus} VUs (docs/product/performance.md: 5,000 users, 500x10 + 5x500 + 1x5000)`;
}

/** setup(): creates the rooms and their channels. */
export async function setupChat(c, prefix) {
  const rooms = [];
  for (const size of c.sizes) {
    const r = await setupRoom(ORIGIN, prefix.toLowerCase());
    r.size = size;
    rooms.push(r);
  }
  return { rooms, tag: Math.floor(Math.random() * 1e9).toString(36) };
}

/** The VU body: join this VU's share of the sockets, chat for durationS, drain, close. */
export async function runChat(c, data) {
  const vu = (__VU - 1) % c.vus;
  const mine = [];
  let g = 0;
  for (const room of data.rooms) {
    for (let k = 0; k < room.size; k++, g++) if (g % c.vus === vu) mine.push({ room, k });
  }
  const tag = data.tag;
  const sockets = [];
  let bad = 0;
  await pool(mine.length, c.conc, async (x) => {
    const { room, k } = mine[x];
    const onEvent = (name, raw, ts) => {
      if (name === 'message') {
        const ct = readContent(raw);
        if (ct && ct.tag === tag) {
          chatDelivered.add(1);
          chatE2e.add(ts - ct.t);
        }
      } else if (name === 'user-typing') chatTypingRecv.add(1);
    };
    try {
      const j = await joinSocket(ORIGIN, room, room.users[k % room.users.length], { onEvent });
      sockets.push({ s: j.socket, room });
    } catch (e) {
      bad++;
      chatJoinFailed.add(1);
      if (bad === 1) console.warn(`chat: ${e.message}`);
    }
  });
  await barrier(c.total, sockets.length, bad);

  const t0 = Date.now();
  const stopAt = t0 + c.durationS * 1000;
  const inflight = [];
  const one = async (x) => {
    // first send at a random point of the first period, then every minS-maxS seconds
    let next = t0 + Math.random() * c.maxS * 1000;
    for (;;) {
      const typingAt = next - c.typingS * 1000;
      if (next > stopAt) return;
      const wait = typingAt - Date.now();
      if (wait > 0) await sleep(wait);
      const channelId = x.room.channelId;
      x.s.emit('typing-start', { channelId });
      chatTyping.add(1);
      const w2 = next - Date.now();
      if (w2 > 0) await sleep(w2);
      x.s.emit('typing-stop', { channelId });
      chatTyping.add(1);
      const sendMs = Date.now();
      const ack = await x.s.request('send-message', {
        clientMessageId: clientMessageId(),
        channelId,
        content: makeContent(sendMs, tag, c.bytes),
        type: 'text',
      });
      if (ack.success) {
        chatAck.add(Date.now() - sendMs);
        chatSent.add(1);
        chatExpected.add(x.room.size);
      } else {
        chatRefused.add(1);
      }
      next += (c.minS + Math.random() * (c.maxS - c.minS)) * 1000;
    }
  };
  for (const x of sockets) inflight.push(one(x));
  await Promise.all(inflight);
  await sleep(c.drainS * 1000);
  for (const x of sockets) x.s.close();
}

/** Waits until every VU's sockets joined (runner control), or 60 s without a runner. */
async function barrier(expected, n, failed) {
  if (!CONTROL) {
    await sleep(envNum('CHAT_BARRIER_S', 20) * 1000);
    return;
  }
  http.post(`${CONTROL}/ready?n=${n}&failed=${failed}&start=0&end=0`);
  const t0 = Date.now();
  for (;;) {
    const st = JSON.parse(http.get(`${CONTROL}/status`).body);
    if (st.ready + st.failed >= expected || Date.now() - t0 > 180000) return;
    await sleep(200);
  }
}

/** The chat figures, for makeSummary. */
export function chatFigures(m) {
  const exp = m('chat_expected_deliveries', 'count');
  const got = m('chat_deliveries', 'count');
  return [
    {
      key: 'sent',
      label: 'messages sent (acked)',
      value: m('chat_sent', 'count'),
      note: `refused ${m('chat_refused', 'count') || 0}, join failures ${m('chat_join_failed', 'count') || 0}`,
    },
    { key: 'deliveries', label: 'deliveries', value: got, note: `expected ${exp === null ? 'n/a' : exp}` },
    {
      key: 'ratio',
      label: 'delivery ratio received/expected',
      value: exp ? got / exp : null,
      digits: 4,
      note: 'must be 1.0000',
    },
    { key: 'e2eP50', label: 'end-to-end p50', value: m('chat_e2e_ms', 'med'), unit: 'ms' },
    { key: 'e2eP99', label: 'end-to-end p99', value: m('chat_e2e_ms', 'p(99)'), unit: 'ms' },
    { key: 'e2eMax', label: 'end-to-end max', value: m('chat_e2e_ms', 'max'), unit: 'ms' },
    { key: 'ackP50', label: 'send-to-ack p50', value: m('chat_ack_ms', 'med'), unit: 'ms' },
    {
      key: 'ackP99',
      label: 'send-to-ack p99',
      value: m('chat_ack_ms', 'p(99)'),
      unit: 'ms',
      note: 'the ack means durable',
    },
    {
      key: 'typing',
      label: 'typing events sent / received',
      value: `${m('chat_typing_events_sent', 'count') || 0} / ${m('chat_typing_received', 'count') || 0}`,
    },
  ];
}

export function chatChecks(f) {
  const ackBound = (__ENV.K6_TARGET || '').startsWith('distributed') ? 20 : 5;
  return [
    {
      label: `delivery ratio = 1 (${f.ratio === null ? 'n/a' : f.ratio.toFixed(4)})`,
      ok: f.ratio === null ? null : Math.abs(f.ratio - 1) < 1e-9,
    },
    { label: `end-to-end p99 <= 100 ms (${fmtMs(f.e2eP99)})`, ok: f.e2eP99 === null ? null : f.e2eP99 <= 100 },
    {
      label: `send-to-ack p99 <= ${ackBound} ms (${fmtMs(f.ackP99)})`,
      ok: f.ackP99 === null ? null : f.ackP99 <= ackBound,
    },
  ];
}

const fmtMs = (v) => (v === null || v === undefined ? 'n/a' : `${v.toFixed(1)} ms`);
