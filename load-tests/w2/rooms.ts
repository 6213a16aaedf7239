/**
 * W2's room on each kind of target: B1 (its public and private rooms, `msg` events) and the app (a room over HTTP,
 * its users' sockets joined, a public and a private channel). Each counts what its sockets receive by kind and
 * sends one event as a user on one of that user's sockets.
 */
import { SioConn } from '../generator/conn.ts';
import { cfg, N, PRIVATE, PUBLIC, USERS, type Counters, type Kind } from './settings.ts';

export interface Room {
  sockets: { conn: SioConn; user: number }[];
  /** sends one event of `kind` as `user` on one of that user's sockets; returns how many sockets should get it */
  act(kind: Kind, user: number, on: boolean): number;
}

/**
 * Which socket acts: each start (or away) goes out on the user's next socket in turn and its stop (or online) on
 * the same one, as N/5 tabs would: no one socket carries a user's whole stream (a person sends typing-start about
 * every 3 s per tab), and one session's start and stop keep their order on their socket.
 */
function senders(sockets: { conn: SioConn; user: number }[]) {
  const byUser = Array.from({ length: USERS }, (_, u) => sockets.filter((s) => s.user === u).map((s) => s.conn));
  const turn = new Array<number>(USERS).fill(0);
  const open = new Map<string, SioConn>();
  return (user: number, key: string, on: boolean): SioConn => {
    if (on || !open.has(key)) open.set(key, byUser[user][turn[user]++ % byUser[user].length]);
    return open.get(key)!;
  };
}

/** Socket i belongs to user i % USERS; every user has N / USERS sockets. */
const socketsOf = (user: number) => Math.floor(N / USERS) + (user < N % USERS ? 1 : 0);

export async function b1Room(origin: string, counters: () => Counters): Promise<Room> {
  const sockets: Room['sockets'] = [];
  for (let i = 0; i < N; i++) {
    const user = i % USERS;
    const conn = await SioConn.connect(origin, cfg.client, '42["msg"', undefined, 20_000);
    await conn.request('join', PUBLIC);
    if (user === 1) await conn.request('join', PRIVATE);
    conn.onDelivery = (d) => {
      const f = String(d);
      const kind: Kind = f.includes('"content":"priv:')
        ? 'priv'
        : f.includes('"content":"presence:')
          ? 'presence'
          : 'pub';
      counters().received[kind]++;
      if (kind === 'priv' && user !== 1) counters().violations++;
    };
    sockets.push({ conn, user });
  }
  const sender = senders(sockets);
  return {
    sockets,
    act(kind, user, on) {
      const room = kind === 'priv' ? PRIVATE : PUBLIC;
      const from = kind === 'priv' ? 0 : user;
      sender(from, `${kind}:${from}`, on).emit('msg', { room, content: `${kind}:${user}:${on}` });
      return kind === 'priv' ? socketsOf(1) : N; // B1's room includes the sender's own socket
    },
  };
}

export async function appRoom(origin: string, counters: () => Counters): Promise<Room> {
  const post = async <T>(path: string, body: object): Promise<T> => {
    const res = await fetch(origin + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`POST ${path}: HTTP ${res.status} ${await res.text()}`);
    return res.json() as Promise<T>;
  };
  const created = await post<{ workspaceId: string; userToken: string }>('/api/workspaces', {
    name: `w2-${Math.random().toString(36).slice(2, 8)}`,
    username: 'w2u0',
  });
  const tokens = [created.userToken];
  for (let u = 1; u < USERS; u++)
    tokens.push(
      (await post<{ userToken: string }>(`/api/workspaces/${created.workspaceId}/join`, { username: `w2u${u}` }))
        .userToken,
    );
  const userIds: string[] = [];
  const sockets: Room['sockets'] = [];
  let publicId = '';
  let privateId = '';
  for (let i = 0; i < N; i++) {
    const user = i % USERS;
    const conn = await SioConn.connect(origin, cfg.client, '42["user-', undefined, 20_000);
    const jw = await conn.request<{ success: boolean; user: { id: string } }>('join-workspace', {
      workspaceId: created.workspaceId,
      username: `w2u${user}`,
      userToken: tokens[user],
    });
    if (!jw.success) throw new Error(`join-workspace refused: ${JSON.stringify(jw)}`);
    userIds[user] = jw.user.id;
    if (i === USERS - 1) {
      const pub = await sockets[0].conn.request<{ success: boolean; channel: { id: string } }>('create-channel', {
        workspaceId: created.workspaceId,
        name: 'general',
        type: 'topic',
        isPrivate: false,
      });
      const priv = await sockets[0].conn.request<{ success: boolean; channel: { id: string } }>('create-channel', {
        workspaceId: created.workspaceId,
        name: 'secret',
        type: 'topic',
        isPrivate: true,
        memberIds: [userIds[1]],
      });
      if (!pub.success || !priv.success) throw new Error(`create-channel refused: ${JSON.stringify([pub, priv])}`);
      publicId = pub.channel.id;
      privateId = priv.channel.id;
    }
    // Classified by substrings, not parsed: the generator must not be what limits the rate (ids are unique strings).
    conn.onDelivery = (d) => {
      const f = String(d);
      if (f.startsWith('42["user-presence-updated"')) {
        counters().received.presence++;
        return;
      }
      if (!f.startsWith('42["user-typing"') && !f.startsWith('42["user-stopped-typing"')) return; // joins, leaves
      if (f.includes(`"channelId":"${privateId}"`)) {
        counters().received.priv++;
        if (f.includes(`"userId":"${userIds[user]}"`)) counters().ownTyping++;
        if (user !== 1) counters().violations++;
      } else counters().received.pub++;
    };
    sockets.push({ conn, user });
  }
  const sender = senders(sockets);
  const workspaceId = created.workspaceId;
  const emit = (conn: SioConn, event: string, payload: object) => {
    const sentAt = performance.now();
    conn.emitWithAck(event, payload, ([ack]) => {
      (event === 'update-presence' ? counters().ackMs : counters().typingAckMs).push(performance.now() - sentAt);
      const a = ack as { success?: boolean; code?: string; message?: string };
      if (!a?.success) {
        counters().refused++;
        counters().firstRefusal ??= `${event}: ${a?.code} ${a?.message}`;
      }
    });
  };
  return {
    sockets,
    act(kind, user, on) {
      if (kind === 'presence') {
        emit(sender(user, `presence:${user}`, on), 'update-presence', { workspaceId, status: on ? 'away' : 'online' });
        return N;
      }
      const typer = kind === 'priv' ? 0 : user;
      emit(sender(typer, `${kind}:${typer}`, on), on ? 'typing-start' : 'typing-stop', {
        channelId: kind === 'priv' ? privateId : publicId,
      });
      return kind === 'priv' ? socketsOf(1) : N;
    },
  };
}
