/**
 * Steady chat for the failure drills, and the ledger that judges it: clients that behave like the frontend
 * (ResilientClient: reconnect, rejoin, resync by sequence, resend unacknowledged messages with their client id)
 * send at a steady rate through the balancer while a drill breaks something. Afterwards every acknowledged message
 * must be held by every client exactly once, with one gap-free sequence that every client sees in the same order.
 */
import type { Message } from '@ephemera/proto';
import { C, S } from '@ephemera/proto';
import { connect, createRoom, joinRoom, next, request } from '../helpers/clients.ts';
import { ResilientClient } from '../helpers/resilient-client.ts';

export interface Chat {
  workspaceId: string;
  channelId: string;
  usernames: string[];
  tokens: Map<string, string>;
  clients: ResilientClient[];
  /** the username of each client, by index */
  clientUsers: string[];
}

/** One room, `users` members (free rooms hold 5), `tabsPerUser` sockets each, all through `url`. */
export async function startChat(url: string, users = 4, tabsPerUser = 2): Promise<Chat> {
  const usernames = ['alice', 'bob', 'carol', 'dave', 'erin'].slice(0, users);
  const room = await createRoom(url, undefined, usernames[0]);
  const tokens = new Map([[usernames[0]!, room.userToken]]);
  for (const name of usernames.slice(1)) tokens.set(name, (await joinRoom(url, room.workspaceId, name)).userToken);
  const owner = new ResilientClient(url, {
    workspaceId: room.workspaceId,
    username: usernames[0]!,
    userToken: room.userToken,
  });
  await owner.waitJoined();
  const created = await request(owner.socket, C.createChannel, {
    workspaceId: room.workspaceId,
    name: 'general',
    type: 'topic',
    isPrivate: false,
  });
  if (!created.success) throw new Error(created.message);
  const clients = [owner];
  const clientUsers = [usernames[0]!];
  for (const name of usernames) {
    for (let tab = name === usernames[0] ? 1 : 0; tab < tabsPerUser; tab++) {
      clients.push(
        new ResilientClient(url, { workspaceId: room.workspaceId, username: name, userToken: tokens.get(name)! }),
      );
      clientUsers.push(name);
    }
  }
  await Promise.all(clients.map((c) => c.waitJoined()));
  return { workspaceId: room.workspaceId, channelId: created.channel.id, usernames, tokens, clients, clientUsers };
}

export interface Sent {
  content: string;
  sentAt: number;
  ackedAt?: number;
  message?: Message;
}

/** Sends `perSecond` messages, round-robin over the clients, until stop(); stop() waits for every acknowledgement. */
export function steadyChat(chat: Chat, label: string, perSecond = 10) {
  const sent: Sent[] = [];
  const acks: Promise<unknown>[] = [];
  let i = 0;
  const timer = setInterval(() => {
    const client = chat.clients[i % chat.clients.length]!;
    const entry: Sent = { content: `${label} ${i++}`, sentAt: Date.now() };
    sent.push(entry);
    acks.push(
      client.send(chat.channelId, entry.content).then((m) => {
        entry.ackedAt = Date.now();
        entry.message = m;
      }),
    );
  }, 1000 / perSecond);
  return {
    sent,
    /** every message sent so far has been acknowledged */
    allAcked: () => sent.every((s) => s.ackedAt !== undefined),
    async stop(timeoutMs = 120_000): Promise<Sent[]> {
      clearInterval(timer);
      await within(
        Promise.all(acks),
        timeoutMs,
        `${label}: ${sent.filter((s) => !s.ackedAt).length} of ${sent.length} sends never acknowledged`,
      );
      return sent;
    },
  };
}

export interface Verdict {
  sent: number;
  acked: number;
  lost: number;
  duplicates: number;
  gaps: number;
  orderMismatches: number;
  refusals: Record<string, number>;
  maxSendToAckMs: number;
}

/** After a drill: resync every client, then count what any client is missing, duplicated, or sees out of order. */
export async function judge(chat: Chat, sent: Sent[]): Promise<Verdict> {
  await Promise.all(chat.clients.map((c) => c.waitJoined()));
  await Promise.all(chat.clients.map((c) => c.sync()));
  const acked = sent.filter((s) => s.message);
  let lost = 0;
  for (const c of chat.clients) for (const s of acked) if (!c.seen.has(s.message!.id)) lost++;
  // One stored message per acknowledged send, and no client holds two messages with one content.
  const duplicates =
    acked.length -
    new Set(acked.map((s) => s.message!.id)).size +
    chat.clients.reduce(
      (n, c) => n + ([...c.seen.values()].length - new Set([...c.seen.values()].map((m) => m.content)).size),
      0,
    );
  // Gap-free per-room sequence, and every client sees the same messages in the same order.
  const all = [...chat.clients[0]!.seen.values()].sort((a, b) => a.seq - b.seq);
  let gaps = 0;
  for (let k = 1; k < all.length; k++) if (all[k]!.seq !== all[k - 1]!.seq + 1) gaps++;
  const order = all.map((m) => m.id).join(',');
  const orderMismatches = chat.clients.filter(
    (c) =>
      [...c.seen.values()]
        .sort((a, b) => a.seq - b.seq)
        .map((m) => m.id)
        .join(',') !== order,
  ).length;
  const refusals: Record<string, number> = {};
  for (const c of chat.clients) for (const [code, n] of c.refusals) refusals[code] = (refusals[code] ?? 0) + n;
  for (const c of chat.clients) c.refusals.clear();
  return {
    sent: sent.length,
    acked: acked.length,
    lost,
    duplicates,
    gaps,
    orderMismatches,
    refusals,
    maxSendToAckMs: Math.max(0, ...acked.map((s) => s.ackedAt! - s.sentAt)),
  };
}

/** Time until a message sent now by the first client is held by every client (live or by resync). */
export async function deliveredToAll(chat: Chat, content: string, timeoutMs = 60_000): Promise<number> {
  const started = Date.now();
  const message = await within(
    chat.clients[0]!.send(chat.channelId, content),
    timeoutMs,
    `probe "${content}" not acknowledged`,
  );
  await until(
    () => chat.clients.every((c) => c.seen.has(message.id)),
    timeoutMs - (Date.now() - started),
    `probe "${content}" not delivered to every client`,
  );
  return Date.now() - started;
}

/** The online list a new tab of `username` receives on join (presence as a user sees it). */
export async function onlineAsSeenBy(url: string, chat: Chat, username: string): Promise<string[]> {
  const socket = await connect(url);
  try {
    const online = next<{ users: { username: string }[] }>(socket, S.onlineUsers, () => true, 5_000);
    const ack = await request(socket, C.joinWorkspace, {
      workspaceId: chat.workspaceId,
      username,
      userToken: chat.tokens.get(username)!,
    });
    if (!ack.success) throw new Error(ack.message);
    return (await online).users.map((u) => u.username).sort();
  } finally {
    socket.close();
  }
}

/**
 * Typing as users see it: a new tab of `from` sends typing-start once a second (the frontend refreshes it every
 * few seconds; a signal published while a gateway's bus connection is still coming back is gone, like any typing
 * signal) until a client of another user hears it. Resolves when it is heard.
 */
export async function typingHeard(url: string, chat: Chat, from: string, timeoutMs = 10_000): Promise<void> {
  const socket = await connect(url);
  try {
    const ack = await request(socket, C.joinWorkspace, {
      workspaceId: chat.workspaceId,
      username: from,
      userToken: chat.tokens.get(from)!,
    });
    if (!ack.success) throw new Error(ack.message);
    const userId = ack.user.id;
    const other = chat.clients[chat.clientUsers.findIndex((u) => u !== from)]!;
    const heard = next<{ userId: string; channelId: string }>(
      other.socket,
      S.userTyping,
      (p) => p.userId === userId && p.channelId === chat.channelId,
      timeoutMs,
    );
    let done = false;
    void heard
      .finally(() => {
        done = true;
      })
      .catch(() => {});
    while (!done) {
      await request(socket, C.typingStart, { channelId: chat.channelId, userId }).catch(() => undefined);
      await Promise.race([heard.catch(() => undefined), new Promise((r) => setTimeout(r, 1_000))]);
    }
    await heard;
  } finally {
    socket.close();
  }
}

export async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
  everyMs = 50,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what} (after ${timeoutMs} ms)`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(what)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
