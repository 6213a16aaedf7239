/**
 * How the generator joins each target's room and sends into it. A Member is one connected socket of the room;
 * `deliver(frame)` is called for every chat delivery it receives, still undecoded.
 */
import { openConn, SioConn, type ClientKind, type FrameData } from './conn.ts';
import type { TargetSpec } from './protocol.ts';

export interface Member {
  /** sends one chat message; onAck (app only) gets the ack's first argument */
  send(
    content: string,
    clientMessageId: string,
    onAck?: (ack: { success?: boolean; error?: string; message?: unknown }) => void,
  ): void;
  pendingAcks(): number;
  close(): void;
  /** what a client does after joining, before it chats (the app: join-channel, which loads the channel's history) */
  enter?(): Promise<void>;
}
export type Deliver = (d: FrameData) => void;

export interface Scenario {
  /**
   * opens member `i`: socket connect + join (the app: join-workspace), the "connect + join" of
   * docs/product/performance.md PF3;
   * `deliver` sees every chat delivery of that socket
   */
  open(i: number, deliver: Deliver): Promise<Member>;
  /** whether senders get acks (send-to-ack latency) */
  acks: boolean;
  info: string;
}

const ROOM = 'bench';

export async function makeScenario(t: TargetSpec, kind: ClientKind, timeoutMs = 20000): Promise<Scenario> {
  if (t.kind === 'b0') {
    return {
      acks: false,
      info: `raw websocket ${t.url}`,
      async open(_i, deliver) {
        const c = await openConn(t.url, kind, timeoutMs);
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error('B0 join timeout')), timeoutMs);
          c.listen((d) => {
            if (String(d) === 'joined') {
              clearTimeout(timer);
              c.listen(deliver);
              resolve();
            }
          });
          c.send(`join:${ROOM}`);
        });
        return { send: (content) => c.send(content), pendingAcks: () => 0, close: () => c.close() };
      },
    };
  }
  if (t.kind === 'b1') {
    return {
      acks: false,
      info: `bare Socket.IO ${t.origin}`,
      async open(_i, deliver) {
        const s = await SioConn.connect(t.origin, kind, '42["msg"', undefined, timeoutMs);
        await s.request('join', ROOM, timeoutMs);
        s.onDelivery = deliver;
        return {
          send: (content) => s.emit('msg', { room: ROOM, content }),
          pendingAcks: () => 0,
          close: () => s.close(),
        };
      },
    };
  }
  return appScenario(t.origin, kind, timeoutMs);
}

// ---------------------------------------------------------------- the Ephemera app

interface AppUser {
  username: string;
  userToken: string;
}
type Ack = { success?: boolean; error?: string; message?: unknown; channel?: { id: string } };

const USERS = 5; // a free room holds at most 5 members: the N connections are spread over them

async function postJson<T>(url: string, body: object): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST ${url} -> HTTP ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

function ackError(name: string, a: Ack | undefined): Error {
  return new Error(`${name} refused: ${JSON.stringify(a).slice(0, 300)}`);
}

async function appScenario(origin: string, kind: ClientKind, timeoutMs: number): Promise<Scenario> {
  const tag = Math.random().toString(36).slice(2, 8);
  const created = await postJson<{ workspaceId: string; userToken: string }>(`${origin}/api/workspaces`, {
    name: `bench-${tag}`,
    username: 'bench0',
  });
  const workspaceId = created.workspaceId;
  const users: AppUser[] = [{ username: 'bench0', userToken: created.userToken }];
  for (let u = 1; u < USERS; u++) {
    const j = await postJson<{ userToken: string }>(
      `${origin}/api/workspaces/${encodeURIComponent(workspaceId)}/join`,
      { username: `bench${u}` },
    );
    users.push({ username: `bench${u}`, userToken: j.userToken });
  }
  let channelId: string | null = null;

  async function open(i: number, deliver: Deliver): Promise<Member> {
    const user = users[i % USERS];
    const s = await SioConn.connect(origin, kind, '42["message"', undefined, timeoutMs);
    s.onDelivery = deliver;
    const jw = await s.request<Ack>(
      'join-workspace',
      { workspaceId, username: user.username, userToken: user.userToken },
      timeoutMs,
    );
    if (!jw?.success) throw ackError('join-workspace', jw);
    if (channelId === null) {
      if (i !== 0) throw new Error('the creator (member 0) must join first');
      const cc = await s.request<Ack>(
        'create-channel',
        { workspaceId, name: 'bench', type: 'topic', isPrivate: false },
        timeoutMs,
      );
      if (!cc?.success || !cc.channel) throw ackError('create-channel', cc);
      channelId = cc.channel.id;
    }
    return {
      send: (content, clientMessageId, onAck) =>
        s.emitWithAck('send-message', { clientMessageId, channelId, content, type: 'text' }, (args) =>
          onAck?.((args[0] ?? {}) as Ack),
        ),
      pendingAcks: () => s.pendingAcks(),
      close: () => s.close(),
      async enter() {
        const jc = await s.request<Ack>('join-channel', { channelId }, timeoutMs);
        if (!jc?.success) throw ackError('join-channel', jc);
      },
    };
  }
  return { acks: true, info: `Ephemera room ${workspaceId} (${USERS} users) at ${origin}`, open };
}
