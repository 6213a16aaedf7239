/**
 * The Ephemera room a scenario talks in: created over HTTP (POST /api/workspaces, then POST
 * /api/workspaces/{id}/join for the other users; proto/src/http.ts), a public channel created over the socket by the
 * owner. A free room admits 5 members (docs/protocol.md P6), so a room of N connections is N sockets spread round
 * robin over its 5 users (several tabs per user), as in the W3 sweep.
 */
import http from 'k6/http';
import { connectSio } from './client.js';

export const USERS_PER_ROOM = 5;

function postJson(url, body) {
  const res = http.post(url, JSON.stringify(body), { headers: { 'content-type': 'application/json' }, timeout: '60s' });
  if (res.status < 200 || res.status >= 300)
    throw new Error(`POST ${url} -> HTTP ${res.status}: ${String(res.body).slice(0, 300)}`);
  return JSON.parse(res.body);
}

let roomCounter = 0;
/** { workspaceId, users: [{ username, userToken }] } */
export function createRoomHttp(origin, prefix) {
  const tag = `${prefix}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6).toString(36)}-${roomCounter++}`;
  const created = postJson(`${origin}/api/workspaces`, { name: tag.slice(0, 50), username: 'k6user0' });
  const users = [{ username: 'k6user0', userToken: created.userToken }];
  for (let u = 1; u < USERS_PER_ROOM; u++) {
    const j = postJson(`${origin}/api/workspaces/${encodeURIComponent(created.workspaceId)}/join`, {
      username: `k6user${u}`,
    });
    users.push({ username: `k6user${u}`, userToken: j.userToken });
  }
  return { workspaceId: created.workspaceId, users };
}

/** Opens a socket and joins the room as `user`; resolves { socket, ms } or throws with the refusal. */
export async function joinSocket(origin, room, user, opts) {
  const t0 = Date.now();
  const s = await connectSio(origin, opts);
  const ack = await s.request('join-workspace', {
    workspaceId: room.workspaceId,
    username: user.username,
    userToken: user.userToken,
  });
  if (!ack.success) {
    s.close();
    throw new Error(`join-workspace refused: ${JSON.stringify(ack).slice(0, 300)}`);
  }
  return { socket: s, ms: Date.now() - t0 };
}

/** Creates the room's public channel as its owner; returns its id. */
export async function createChannel(origin, room, name = 'k6') {
  const { socket } = await joinSocket(origin, room, room.users[0]);
  const cc = await socket.request('create-channel', {
    workspaceId: room.workspaceId,
    name,
    type: 'topic',
    isPrivate: false,
  });
  socket.close();
  if (!cc.success) throw new Error(`create-channel refused: ${JSON.stringify(cc).slice(0, 300)}`);
  return cc.channel.id;
}

/** A room with its channel, ready for sockets. */
export async function setupRoom(origin, prefix) {
  const room = createRoomHttp(origin, prefix);
  room.channelId = await createChannel(origin, room);
  return room;
}

let idCounter = 0;
/** A clientMessageId ([A-Za-z0-9_-], 8-64). */
export function clientMessageId() {
  return `k6${__VU}x${Date.now().toString(36)}x${(idCounter++).toString(36)}${Math.floor(Math.random() * 1e9).toString(36)}`;
}

/** The origin under test (ORIGIN env), and the runner's control address (K6_CONTROL env, may be empty). */
export const ORIGIN = (__ENV.ORIGIN || 'http://127.0.0.1:8080').replace(/\/+$/, '');
export const CONTROL = (__ENV.K6_CONTROL || '').replace(/\/+$/, '');

/** Asks the runner for the server processes' RSS: { totalKb, byLabel } or null without a runner. */
export function serverRss() {
  if (!CONTROL) return null;
  const r = http.get(`${CONTROL}/rss`, { timeout: '10s' });
  return r.status === 200 ? JSON.parse(r.body) : null;
}

/** A number from the environment, or the default. */
export function envNum(name, def) {
  const v = __ENV[name];
  if (v === undefined || v === '') return def;
  const n = Number(v);
  if (!isFinite(n)) throw new Error(`${name}=${v} is not a number`);
  return n;
}
