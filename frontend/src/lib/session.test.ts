import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { C, S } from '@ephemera/proto/client';
import type { Message } from '@ephemera/proto';
import { MSG_CONNECT_FAILED, MSG_JOIN_TIMEOUT } from './commandTexts.ts';
import { channel, me, message, workspace } from '../state/testData.ts';
import { NO_ACK, type Handler } from './testing/fakeSocket.ts';
import { startFakeSession, testAuth } from './testing/fakeSession.ts';
import { loadArea, setLocale } from '../i18n/i18n.ts';

// the room's own texts come from the roomside catalog, in English here (docs/i18n.md)
beforeAll(async () => {
  await setLocale('en', { save: false });
  await loadArea('roomside');
});

const auth = testAuth;
const ws = workspace([channel('c1', 'general'), channel('c2', 'random', { createdAt: '2025-02-01T00:00:00.000Z' })]);

interface ServerOpts {
  join?: unknown;
  history?: Message[];
  historyHasMore?: boolean;
  sync?: (afterSeq: number) => unknown;
  send?: (payload: any) => unknown;
}

function server(opts: ServerOpts = {}): Handler {
  let seq = 100;
  return (event, payload) => {
    switch (event) {
      case C.joinWorkspace:
        return opts.join ?? { success: true, user: me, workspace: ws };
      case C.joinChannel:
        return {
          success: true,
          channelId: payload.channelId,
          messages: opts.history ?? [],
          hasMore: opts.historyHasMore ?? false,
        };
      case C.fetchMessages:
        return { success: true, channelId: payload.channelId, messages: [], hasMore: false };
      case C.syncMessages:
        return opts.sync
          ? opts.sync(payload.afterSeq)
          : { success: true, messages: [], hasMore: false, lastSeq: payload.afterSeq };
      case C.sendMessage: {
        if (opts.send) return opts.send(payload);
        seq += 1;
        return {
          success: true,
          message: message(seq, {
            channelId: payload.channelId,
            clientMessageId: payload.clientMessageId,
            authorId: me.id,
            content: payload.content,
          }),
        };
      }
      case C.createChannel:
        return { success: true, channel: channel('c9', payload.name) };
      case C.leaveWorkspace:
        return { success: true };
      default:
        return { success: false, code: 'UNKNOWN_EVENT', message: 'Unknown event' };
    }
  };
}

const setup = (handler: Handler) => startFakeSession(handler);

const flush = () => vi.advanceTimersByTimeAsync(0);

describe('RoomSession', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('joins with the stored auth on connect, opens the first channel and loads its history', async () => {
    const { socket, session } = setup(server({ history: [message(1), message(2)] }));
    socket.up();
    await flush();
    expect(socket.last(C.joinWorkspace)).toEqual({
      workspaceId: 'w1',
      username: 'alice',
      password: null,
      userToken: auth.userToken,
    });
    expect(session.state.everJoined).toBe(true);
    expect(session.state.currentChannelId).toBe('c1');
    expect(socket.last(C.joinChannel)).toEqual({ channelId: 'c1' });
    expect(session.state.messages.c1!.map((m) => m.seq)).toEqual([1, 2]);
    expect(session.state.lastSeq).toBe(2);
    // previews, unread counts and read positions of every conversation come from one summaries request
    expect(socket.last(C.fetchChannelSummaries)).toEqual({ workspaceId: 'w1' });
    expect(socket.count(C.fetchMessages)).toBe(0);
  });

  it('a refused join reports the server message', async () => {
    const { socket, callbacks } = setup(
      server({
        join: { success: false, code: 'NOT_AUTHENTICATED', message: 'User not authenticated or no workspace' },
      }),
    );
    socket.up();
    await flush();
    expect(callbacks.onJoinRefused).toHaveBeenCalledWith('User not authenticated or no workspace');
  });

  it('a refused join without a message says Failed to join workspace', async () => {
    const { socket, callbacks } = setup(server({ join: { success: false, code: 'WORKSPACE_NOT_FOUND', message: '' } }));
    socket.up();
    await flush();
    expect(callbacks.onJoinRefused).toHaveBeenCalledWith('Failed to join workspace');
  });

  it('removed while away: a rejoin refused with KICKED ends as a kick (the Removed dialog), not a failed join', async () => {
    let join: unknown = { success: true, user: me, workspace: ws };
    const base = server();
    const { socket, callbacks } = setup((event, payload) => (event === C.joinWorkspace ? join : base(event, payload)));
    socket.up();
    await flush();
    socket.drop();
    join = { success: false, code: 'KICKED', message: 'You were removed from this room' };
    socket.up();
    await flush();
    expect(callbacks.onKicked).toHaveBeenCalledWith('You were removed from this room');
    expect(callbacks.onJoinRefused).not.toHaveBeenCalled();
  });

  it('a join without an answer within 20 s times out', async () => {
    const { socket, session } = setup(server({ join: NO_ACK }));
    socket.up();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(session.state.connection.error).toBe(MSG_JOIN_TIMEOUT);
  });

  it('no connection within 10 s says so', async () => {
    const { session } = setup(server());
    await vi.advanceTimersByTimeAsync(10_000);
    expect(session.state.connection.error).toBe(MSG_CONNECT_FAILED);
  });

  it('after a reconnect it rejoins and resyncs from the highest seq seen, page by page', async () => {
    const syncCalls: number[] = [];
    const { socket, session } = setup(
      server({
        history: [message(1), message(2)],
        sync: (afterSeq) => {
          syncCalls.push(afterSeq);
          if (afterSeq === 2)
            return {
              success: true,
              messages: [message(3), message(4, { channelId: 'c2' })],
              hasMore: true,
              lastSeq: 4,
            };
          return { success: true, messages: [message(5)], hasMore: false, lastSeq: 6 };
        },
      }),
    );
    socket.up();
    await flush();
    socket.drop();
    expect(session.state.connection.status).toBe('reconnecting');
    socket.up();
    await flush();
    expect(socket.count(C.joinWorkspace)).toBe(2);
    expect(syncCalls).toEqual([2, 4]);
    expect(session.state.messages.c1!.map((m) => m.seq)).toEqual([1, 2, 3, 5]);
    expect(session.state.messages.c2!.map((m) => m.seq)).toEqual([4]);
    expect(session.state.lastSeq).toBe(6);
    expect(session.state.connection.status).toBe('joined');
  });

  it("applies the join's snapshot once: workspace-joined, not again from the ack that follows it", async () => {
    const fromEvent = workspace([channel('c1', 'general')]);
    let fire: (event: string, payload: unknown) => void = () => {};
    const handle = server();
    const { socket, session } = setup((event, payload) => {
      // the server sends workspace-joined before the ack (services/gateway/src/commands.ts)
      if (event === C.joinWorkspace) fire(S.workspaceJoined, { workspace: fromEvent, user: me });
      return handle(event, payload);
    });
    fire = (event, payload) => socket.fire(event, payload);
    socket.up();
    await flush();
    expect(session.state.connection.status).toBe('joined');
    expect(session.state.workspace).toBe(fromEvent); // the ack's copy (ws) did not replace it
  });

  it("applies the ack's snapshot when no workspace-joined came before it", async () => {
    const { socket, session } = setup(server());
    socket.up();
    await flush();
    expect(session.state.workspace).toBe(ws);
  });

  it('a seq gap in live messages triggers a sync from the last seq seen', async () => {
    const syncCalls: number[] = [];
    const { socket, session } = setup(
      server({
        history: [message(1), message(2)],
        sync: (afterSeq) => {
          syncCalls.push(afterSeq);
          return { success: true, messages: [message(3), message(4)], hasMore: false, lastSeq: 4 };
        },
      }),
    );
    socket.up();
    await flush();
    socket.fire(S.message, message(3));
    expect(syncCalls).toEqual([]);
    socket.fire(S.message, message(5));
    await flush();
    expect(syncCalls).toEqual([3]);
    expect(session.state.messages.c1!.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5]);
  });

  it('a message sent while offline stays pending and is sent after the rejoin with the same clientMessageId', async () => {
    const { socket, session } = setup(server());
    socket.up();
    await flush();
    socket.drop();
    expect(session.sendMessage('  hello  ')).toBe(true);
    expect(socket.count(C.sendMessage)).toBe(0);
    const [pending] = session.state.pending;
    expect(pending).toMatchObject({ content: 'hello', status: 'sending', channelId: 'c1' });
    expect(pending!.clientMessageId).toMatch(/^[0-9a-f]{32}$/);
    socket.up();
    await flush();
    expect(socket.last(C.sendMessage)).toEqual({
      clientMessageId: pending!.clientMessageId,
      channelId: 'c1',
      content: 'hello',
      type: 'text',
    });
    expect(session.state.pending).toEqual([]);
    expect(session.state.messages.c1!.at(-1)!.clientMessageId).toBe(pending!.clientMessageId);
  });

  it('an unanswered send is retried with the same clientMessageId and its broadcast settles it once', async () => {
    let calls = 0;
    const { socket, session } = setup(server({ send: () => (++calls === 1 ? NO_ACK : undefined) }));
    socket.up();
    await flush();
    session.sendMessage('hi');
    await vi.advanceTimersByTimeAsync(15_000);
    expect(socket.count(C.sendMessage)).toBe(2);
    const ids = socket.emitted.filter((e) => e.event === C.sendMessage).map((e) => e.payload.clientMessageId);
    expect(new Set(ids).size).toBe(1);
    const stored = message(50, { clientMessageId: ids[0], authorId: me.id, content: 'hi' });
    socket.fire(S.message, stored);
    socket.fire(S.message, stored);
    expect(session.state.pending).toEqual([]);
    expect(session.state.messages.c1!.filter((m) => m.id === stored.id)).toHaveLength(1);
  });

  it('a refused send shows the server message', async () => {
    const { socket, session } = setup(
      server({
        send: () => ({
          success: false,
          code: 'MESSAGE_TOO_LONG',
          message: 'Message is too long (2000 characters max)',
        }),
      }),
    );
    socket.up();
    await flush();
    session.sendMessage('hi');
    await flush();
    expect(session.state.pending[0]).toMatchObject({
      status: 'failed',
      error: 'Message is too long (2000 characters max)',
    });
  });

  it('sends nothing without a channel or for whitespace', async () => {
    const { socket, session } = setup(server());
    expect(session.sendMessage('hello')).toBe(false); // not joined: no user, no channel
    socket.up();
    await flush();
    expect(session.sendMessage('   \n ')).toBe(false);
    session.selectChannel(null);
    expect(session.sendMessage('hello')).toBe(false);
    expect(socket.count(C.sendMessage)).toBe(0);
  });

  it('a room command with no room joined says "No workspace selected" and sends nothing', async () => {
    const { socket, session } = setup(server());
    expect(await session.createChannel('plans', false)).toEqual({ ok: false, message: 'No workspace selected' });
    expect(socket.count(C.createChannel)).toBe(0);
  });

  it('creating a channel selects it; everyone gets channel-created', async () => {
    const { socket, session } = setup(server());
    socket.up();
    await flush();
    const result = await session.createChannel('plans', true);
    expect(result).toEqual({ ok: true });
    expect(socket.last(C.createChannel)).toEqual({
      workspaceId: 'w1',
      name: 'plans',
      type: 'topic',
      isPrivate: true,
      memberIds: [],
    });
    expect(session.state.currentChannelId).toBe('c9');
    socket.fire(S.channelCreated, channel('c9', 'plans'));
    expect(session.state.channels.filter((c) => c.id === 'c9')).toHaveLength(1);
  });

  it('presence events update the online list', async () => {
    const { socket, session } = setup(server());
    socket.up();
    await flush();
    const u = (id: string) => ({ id, username: id, isAdmin: false, presenceStatus: 'online' as const });
    socket.fire(S.onlineUsers, { workspaceId: 'w1', users: [u('a'), u('b')] });
    socket.fire(S.userJoined, { workspaceId: 'w1', user: u('c') });
    socket.fire(S.userLeft, { workspaceId: 'w1', userId: 'a', username: 'a' });
    expect(session.state.online.map((x) => x.id)).toEqual(['b', 'c']);
  });

  it('workspace-deleted and kicked end the session', async () => {
    const a = setup(server());
    a.socket.up();
    await flush();
    a.socket.fire(S.workspaceDeleted, { workspaceId: 'w1', message: 'This chat room has been deleted.' });
    // a member who did not delete it is told so, not of a success (docs/product/rooms.md R27)
    expect(a.callbacks.onWorkspaceDeleted).toHaveBeenCalledWith('This chat room has been deleted.', false);
    const b = setup(server());
    b.socket.up();
    await flush();
    b.socket.fire(S.kicked, { reason: 'Bye' });
    expect(b.callbacks.onKicked).toHaveBeenCalledWith('Bye');
  });

  it('older pages are fetched before the oldest loaded seq, only after the latest page arrived', async () => {
    const { socket, session } = setup(server({ history: [message(60), message(61)], historyHasMore: true }));
    await session.loadOlder('c1');
    expect(socket.count(C.fetchMessages)).toBe(0);
    socket.up();
    await flush();
    const before = socket.count(C.fetchMessages);
    await session.loadOlder('c1');
    expect(socket.count(C.fetchMessages)).toBe(before + 1);
    expect(socket.last(C.fetchMessages)).toEqual({ channelId: 'c1', beforeSeq: 60, limit: 50 });
    expect(session.state.hasMore.c1).toBe(false);
    await session.loadOlder('c1');
    expect(socket.count(C.fetchMessages)).toBe(before + 1);
  });

  it('revealMessage (a search hit): opens the channel and pages back until the message is held, or says it is not there', async () => {
    // #random holds seq 1..120; pages of 50, newest first
    const all = Array.from({ length: 120 }, (_, i) => message(i + 1, { channelId: 'c2' }));
    const base = server();
    const { socket, session } = setup((event, payload) => {
      if (payload?.channelId !== 'c2') return base(event, payload);
      if (event === C.joinChannel) return { success: true, channelId: 'c2', messages: all.slice(-50), hasMore: true };
      if (event === C.fetchMessages) {
        const older = all.filter((m) => m.seq < payload.beforeSeq);
        const page = older.slice(-payload.limit);
        return { success: true, channelId: 'c2', messages: page, hasMore: older.length > page.length };
      }
      return base(event, payload);
    });
    socket.up();
    await flush();
    expect(session.state.currentChannelId).toBe('c1');

    const found = session.revealMessage('c2', 'm5');
    await flush();
    expect(await found).toBe(true);
    expect(session.state.currentChannelId).toBe('c2');
    expect(socket.count(C.fetchMessages)).toBe(2); // 71..120 from join-channel, then 21..70, then 1..20
    expect(session.state.messages.c2!.some((m) => m.id === 'm5')).toBe(true);

    // already held: nothing more is fetched
    expect(await session.revealMessage('c2', 'm100')).toBe(true);
    expect(socket.count(C.fetchMessages)).toBe(2);
    // not in the channel (deleted since the search): every page is held, the answer is false
    expect(await session.revealMessage('c2', 'gone')).toBe(false);
    expect(socket.count(C.fetchMessages)).toBe(2);
  });

  it('leave tells the server', async () => {
    const { socket, session } = setup(server());
    socket.up();
    await flush();
    await session.leave();
    expect(socket.last(C.leaveWorkspace)).toEqual({ workspaceId: 'w1' });
  });
});
