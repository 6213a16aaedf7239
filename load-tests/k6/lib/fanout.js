/**
 * One room, N sockets, all in ONE VU (so a message's fan-out completion, the arrival at its last recipient, is
 * known exactly), and a send rate from 5 sender sockets (one per user, round robin): W3 and W4.
 */
import { Counter, Trend } from 'k6/metrics';
import { pool, sleep } from './client.js';
import { ORIGIN, clientMessageId, joinSocket } from './app.js';
import { makeContent, readContent } from './sio.js';

/**
 * Joins n sockets to the room, `conc` at a time. Every message frame with our run's content goes to `seen`.
 * Returns { sockets, failed, joinMs: [..], windowMs, eventsDuringJoin }.
 */
export async function joinAll(room, n, conc, seen, prefix) {
  const sockets = [];
  const joinMs = [];
  let failed = 0;
  let events = 0;
  let joining = true;
  const t0 = Date.now();
  await pool(n, conc, async (i) => {
    const onEvent = (name, raw, ts) => {
      if (name === 'message') {
        const ct = readContent(raw);
        if (ct) seen(ct, ts);
      } else if (joining) events++;
    };
    try {
      const j = await joinSocket(ORIGIN, room, room.users[i % room.users.length], { onEvent });
      sockets.push(j.socket);
      joinMs.push(j.ms);
    } catch (e) {
      failed++;
      if (failed === 1) console.warn(`${prefix}: ${e.message}`);
    }
  });
  const windowMs = Date.now() - t0;
  joining = false;
  return { sockets, failed, joinMs, windowMs, eventsDuringJoin: events };
}

/**
 * Sends `rate` messages/s for warmupS (tag W) then steadyS (tag S) from the first 5 sockets (one per user), waits
 * for the steady messages to reach every socket (at most drainMaxS), and records per steady message the fan-out
 * completion (last arrival - send) into `completion`, every (message, socket) latency into `e2e`, acks into `ack`.
 * Returns { sent, refused, delivered, expected, steadyMs }.
 */
export function makeSender(prefix) {
  const e2e = new Trend(`${prefix}_e2e_ms`, true);
  const completion = new Trend(`${prefix}_fanout_ms`, true);
  const ack = new Trend(`${prefix}_ack_ms`, true);
  const deliveries = new Counter(`${prefix}_deliveries`);
  const expected = new Counter(`${prefix}_expected_deliveries`);
  const sentC = new Counter(`${prefix}_sent`);
  const refusedC = new Counter(`${prefix}_refused`);
  const runTag = Math.floor(Math.random() * 1e9).toString(36);
  const msgs = new Map(); // steady message index -> { t, n, last }

  const seen = (ct, ts) => {
    if (!ct.tag.startsWith(runTag)) return;
    if (ct.tag.charAt(runTag.length) !== 'S') return; // warm-up deliveries only keep the pipes warm
    deliveries.add(1);
    e2e.add(ts - ct.t);
    const idx = ct.tag.slice(runTag.length + 1);
    const m = msgs.get(idx);
    if (m) {
      m.n++;
      if (ts > m.last) m.last = ts;
    } else msgs.set(idx, { t: ct.t, n: 1, last: ts });
  };

  async function run(room, sockets, rate, warmupS, steadyS, drainMaxS, bytes) {
    const senders = sockets.slice(0, Math.min(5, sockets.length));
    const n = sockets.length;
    let sent = 0;
    let refused = 0;
    let steadySent = 0;
    let firstRefusal = null;
    const acks = [];
    const send = (k, phase) => {
      const s = senders[k % senders.length];
      const sendMs = Date.now();
      const p = s
        .request('send-message', {
          clientMessageId: clientMessageId(),
          channelId: room.channelId,
          content: makeContent(sendMs, `${runTag}${phase}${k}`, bytes),
          type: 'text',
        })
        .then((a) => {
          if (a.success) {
            ack.add(Date.now() - sendMs);
            sentC.add(1);
            sent++;
          } else {
            refused++;
            refusedC.add(1);
            if (!firstRefusal) firstRefusal = JSON.stringify(a).slice(0, 200);
          }
        });
      acks.push(p);
    };
    const tick = async (seconds, phase) => {
      const total = Math.round(seconds * rate);
      const t0 = Date.now();
      for (let k = 0; k < total; k++) {
        const due = t0 + (k * 1000) / rate;
        const w = due - Date.now();
        if (w > 0) await sleep(w);
        send(k, phase);
        if (phase === 'S') {
          steadySent++;
          expected.add(n);
        }
      }
      const end = t0 + seconds * 1000;
      if (end > Date.now()) await sleep(end - Date.now());
    };
    await tick(warmupS, 'W');
    const s0 = Date.now();
    await tick(steadyS, 'S');
    const steadyMs = Date.now() - s0;
    await Promise.all(acks);
    const d0 = Date.now();
    const want = steadySent * n;
    const got = () => {
      let x = 0;
      for (const m of msgs.values()) x += m.n;
      return x;
    };
    while (got() < want && Date.now() - d0 < drainMaxS * 1000) await sleep(100);
    let delivered = 0;
    for (const m of msgs.values()) {
      delivered += m.n;
      if (m.n === n) completion.add(m.last - m.t); // only messages that reached everyone have a completion time
    }
    if (firstRefusal) console.warn(`${prefix}: first refused send: ${firstRefusal}`);
    return { sent, refused, delivered, expected: want, steadyMs };
  }
  return { seen, run };
}

export const median = (xs) => {
  if (!xs.length) return null;
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
};
export const pct = (xs, p) => {
  if (!xs.length) return null;
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
