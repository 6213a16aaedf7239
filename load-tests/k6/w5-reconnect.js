/**
 * W5 reconnect storm (docs/product/performance.md): N clients in a room while a sender (its own socket, never dropped) sends
 * W5_RATE messages/s. At once every client socket is dropped (closed by the client: the same storm a gateway
 * restart causes, without killing a process); each client reconnects at a random moment within W5_WINDOW_S,
 * sends join-workspace with its token, then sync-messages { afterSeq: highest seq it holds without a gap } while
 * hasMore, and syncs again whenever a live message shows a gap (docs/protocol.md P3), deduping by seq. Sending goes
 * on during and after the storm.
 * Figures: time from the drop until every client rejoined (join-workspace acked) and until every client caught up
 * (sync done), per-client reconnect time (its own start -> caught up) p50/p99, messages recovered by the sync, and
 * messages missed: per client, every seq the sender had acknowledged (first to last) that the client received
 * neither live nor through the sync. Must be 0. All clients live in one VU.
 * Env: W5_CLIENTS (500), W5_RATE (5 sends/s), W5_BEFORE_S (5 s of sending before the drop), W5_WINDOW_S (10),
 *      W5_AFTER_S (5 s of sending after the window), W5_DRAIN_S (3), W5_CONCURRENCY (50 joins in flight).
 */
import { Counter, Gauge, Trend } from 'k6/metrics';
import { SioSocket, pool, sleep } from './lib/client.js';
import { ORIGIN, clientMessageId, envNum, joinSocket, setupRoom } from './lib/app.js';
import { readSeq } from './lib/sio.js';
import { TREND_STATS, makeSummary } from './lib/figures.js';

const N = envNum('W5_CLIENTS', 500);
const RATE = envNum('W5_RATE', 5);
const BEFORE_S = envNum('W5_BEFORE_S', 5);
const WINDOW_S = envNum('W5_WINDOW_S', 10);
const AFTER_S = envNum('W5_AFTER_S', 5);
const DRAIN_S = envNum('W5_DRAIN_S', 3);
const CONC = envNum('W5_CONCURRENCY', 50);

const reconnectMs = new Trend('w5_reconnect_ms', true);
const gAllRejoined = new Gauge('w5_all_rejoined_ms');
const gAllCaughtUp = new Gauge('w5_all_caught_up_ms');
const missed = new Counter('w5_missed');
const clientsMissing = new Counter('w5_clients_missing');
const recovered = new Counter('w5_recovered_by_sync');
const gapSyncs = new Counter('w5_gap_syncs');
const reconnectFailed = new Counter('w5_reconnect_failed');
const joinFailed = new Counter('w5_join_failed');
const sentC = new Counter('w5_sent');
const gClients = new Gauge('w5_clients');

export const options = {
  scenarios: {
    storm: {
      executor: 'per-vu-iterations',
      vus: 1,
      iterations: 1,
      maxDuration: `${Math.ceil(N / 10) + BEFORE_S + WINDOW_S + AFTER_S + 180}s`,
    },
  },
  summaryTrendStats: TREND_STATS,
  setupTimeout: '120s',
};

export async function setup() {
  return { room: await setupRoom(ORIGIN, 'w5') };
}

export default async function (data) {
  const room = data.room;
  const clients = [];
  // c.contig: the highest seq with every seq from 1 to it received (the room is new: its messages start at 1)
  const add = (c, seq) => {
    if (c.seqs.has(seq)) return false;
    c.seqs.add(seq);
    while (c.seqs.has(c.contig + 1)) c.contig++;
    return true;
  };
  // P3: sync from the contiguous high-water mark, repeating while hasMore; one sync at a time per client
  const sync = async (c, s) => {
    if (c.syncing) {
      c.syncAgain = true;
      return;
    }
    c.syncing = true;
    try {
      do {
        c.syncAgain = false;
        let after = c.contig;
        for (;;) {
          const r = await s.request('sync-messages', { workspaceId: room.workspaceId, afterSeq: after });
          if (!r.success) throw new Error(`sync-messages refused: ${JSON.stringify(r).slice(0, 200)}`);
          for (const m of r.messages) {
            if (add(c, m.seq)) recovered.add(1);
            if (m.seq > after) after = m.seq;
          }
          if (!r.hasMore || r.messages.length === 0) break;
        }
      } while (c.syncAgain);
    } finally {
      c.syncing = false;
    }
  };
  // live messages; a seq beyond contig + 1 is a gap: sync (P3), once the client has rejoined
  const track = (c) => (name, raw) => {
    if (name !== 'message') return;
    const seq = readSeq(raw);
    if (seq === null) return;
    add(c, seq);
    if (c.live && seq > c.contig + 1) {
      gapSyncs.add(1);
      sync(c, c.socket).catch((e) => console.warn(`w5 gap sync: ${e.message}`));
    }
  };
  let bad = 0;
  await pool(N, CONC, async (i) => {
    const c = {
      user: room.users[i % room.users.length],
      seqs: new Set(),
      contig: 0,
      socket: null,
      live: false,
      syncing: false,
      syncAgain: false,
    };
    try {
      c.socket = (await joinSocket(ORIGIN, room, c.user, { onEvent: track(c) })).socket;
      c.live = true; // joined before the first send: nothing to sync yet
      clients.push(c);
    } catch (e) {
      if (++bad === 1) console.warn(`w5: ${e.message}`);
      joinFailed.add(1);
    }
  });
  gClients.add(clients.length);

  // the sender: its own socket, never dropped; keeps the acknowledged seqs
  const sender = (await joinSocket(ORIGIN, room, room.users[0])).socket;
  const acked = [];
  let sending = true;
  const sendLoop = (async () => {
    const t0 = Date.now();
    for (let k = 0; sending; k++) {
      const w = t0 + (k * 1000) / RATE - Date.now();
      if (w > 0) await sleep(w);
      if (!sending) break;
      sender
        .request('send-message', {
          clientMessageId: clientMessageId(),
          channelId: room.channelId,
          content: `w5 message ${k}`,
          type: 'text',
        })
        .then((a) => {
          if (a.success) {
            acked.push(a.message.seq);
            sentC.add(1);
          }
        });
    }
  })();

  await sleep(BEFORE_S * 1000);
  const dropAt = Date.now();
  for (const c of clients) {
    c.socket.onEvent = null;
    c.live = false;
    c.socket.close();
  }

  let lastRejoin = 0;
  let lastCaughtUp = 0;
  await Promise.all(
    clients.map(async (c) => {
      await sleep(Math.random() * WINDOW_S * 1000);
      const start = Date.now();
      try {
        const s = new SioSocket(ORIGIN, { onEvent: track(c) });
        await s.connect();
        const j = await s.request('join-workspace', {
          workspaceId: room.workspaceId,
          username: c.user.username,
          userToken: c.user.userToken,
        });
        if (!j.success) throw new Error(`join-workspace refused: ${JSON.stringify(j).slice(0, 200)}`);
        lastRejoin = Math.max(lastRejoin, Date.now());
        c.socket = s;
        await sync(c, s);
        c.live = true;
        if (c.seqs.size > c.contig) await sync(c, s); // a gap seen while the first sync ran
        const done = Date.now();
        lastCaughtUp = Math.max(lastCaughtUp, done);
        reconnectMs.add(done - start);
      } catch (e) {
        reconnectFailed.add(1);
        console.warn(`w5 reconnect: ${e.message}`);
      }
    }),
  );
  gAllRejoined.add(lastRejoin ? lastRejoin - dropAt : -1);
  gAllCaughtUp.add(lastCaughtUp ? lastCaughtUp - dropAt : -1);

  await sleep(AFTER_S * 1000);
  sending = false;
  await sendLoop;
  await sleep(DRAIN_S * 1000);
  if (acked.length) {
    const first = Math.min(...acked);
    const last = Math.max(...acked);
    for (const c of clients) {
      let miss = 0;
      for (let s = first; s <= last; s++) if (!c.seqs.has(s)) miss++;
      if (miss) {
        missed.add(miss);
        clientsMissing.add(1);
      }
    }
  }
  missed.add(0);
  sender.close();
  for (const c of clients) if (c.socket) c.socket.close();
}

export const handleSummary = makeSummary(
  'W5 reconnect storm',
  () =>
    `${N} clients in one room (5 users), every socket dropped at once (client-side close), reconnects spread over ${WINDOW_S} s, ${RATE} sends/s throughout from a separate socket, one VU (docs/product/performance.md: 5k clients after a gateway restart)`,
  (m) => [
    {
      key: 'clients',
      label: 'clients',
      value: m('w5_clients', 'value'),
      note: `join failures ${m('w5_join_failed', 'count') || 0}, reconnect failures ${m('w5_reconnect_failed', 'count') || 0}`,
    },
    { key: 'sent', label: 'messages sent (acked)', value: m('w5_sent', 'count') },
    {
      key: 'allRejoined',
      label: 'drop -> all rejoined',
      value: m('w5_all_rejoined_ms', 'value'),
      unit: 'ms',
      note: `reconnects spread over ${WINDOW_S * 1000} ms on purpose`,
    },
    {
      key: 'allCaughtUp',
      label: 'drop -> all caught up (synced)',
      value: m('w5_all_caught_up_ms', 'value'),
      unit: 'ms',
    },
    { key: 'recP50', label: 'reconnect + join + sync p50', value: m('w5_reconnect_ms', 'med'), unit: 'ms' },
    { key: 'recP99', label: 'reconnect + join + sync p99', value: m('w5_reconnect_ms', 'p(99)'), unit: 'ms' },
    {
      key: 'recovered',
      label: 'messages recovered by sync-messages',
      value: m('w5_recovered_by_sync', 'count') || 0,
      note: `gap-triggered syncs after the rejoin: ${m('w5_gap_syncs', 'count') || 0}`,
    },
    {
      key: 'missed',
      label: 'messages missed',
      value: m('w5_missed', 'count'),
      note: `clients missing any: ${m('w5_clients_missing', 'count') || 0}`,
    },
  ],
  (m, f) => [
    {
      label: `messages missed = 0 (${f.missed === null ? 'n/a' : f.missed})`,
      ok: f.missed === null ? null : f.missed === 0 && !(m('w5_reconnect_failed', 'count') > 0),
    },
    {
      label: `every client rejoined within the window + 5 s (${f.allRejoined === null ? 'n/a' : (f.allRejoined / 1000).toFixed(1)} s)`,
      ok: f.allRejoined === null || f.allRejoined < 0 ? null : f.allRejoined <= (WINDOW_S + 5) * 1000,
    },
  ],
);
