import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { C, S } from '@ephemera/proto/client';
import { RoomSession } from './session.ts';
import type { RoomConnection, RoomSocket } from './socket.ts';
import { MSG_NOT_A_DM } from './dmCommands.ts';
import { MARK_READ_THROTTLE_MS } from './readPositions.ts';
import { MSG_DELETE_DM_TIMEOUT } from './commandTexts.ts';
import { lastChannelKey } from './storage.ts';
import { channel, me, message, other, workspace } from '../state/testData.ts';
import { FakeSocket, NO_ACK, type Handler } from './testing/fakeSocket.ts';

const auth = { workspaceId: 'w1', userToken: 'tok'.repeat(8), username: 'alice', roomName: 'team', password: null };
const dm = channel('d1', 'dm', { type: 'dm', memberIds: [me.id, other.id] });
const ws = workspace([
  channel('c1', 'general'),
  channel('c2', 'random', { createdAt: '2025-02-01T00:00:00.000Z' }),
  dm,
]);

function setup(overrides: Record<string, (payload: any) => unknown> = {}) {
  const handler: Handler = (event, payload) => {
    if (overrides[event]) return overrides[event]!(payload);
    switch (event) {
      case C.joinWorkspace:
        return { success: true, user: me, workspace: ws };
      case C.joinChannel:
        return { success: true, channelId: payload.channelId, messages: [], hasMore: false };
      case C.syncMessages:
        return { success: true, messages: [], hasMore: false, lastSeq: payload.afterSeq };
      case C.fetchChannelSummaries:
        return { success: true, summaries: [] };
      case C.markRead:
        return { success: true, channelId: payload.channelId, seq: payload.seq };
      default:
        return { success: true };
    }
  };
  const socket = new FakeSocket(handler);
  const conn: RoomConnection = { socket: socket as unknown as RoomSocket, dispose: () => socket.removeAllListeners() };
  const session = new RoomSession(
    auth,
    { onJoinRefused: vi.fn(), onWorkspaceDeleted: vi.fn(), onKicked: vi.fn() },
    () => conn,
  );
  session.start();
  return { socket, session };
}

const flush = () => vi.advanceTimersByTimeAsync(0);
const memory = new Map<string, string>();

describe('RoomSession: conversations', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    memory.clear();
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => memory.get(k) ?? null,
      setItem: (k: string, v: string) => memory.set(k, v),
      removeItem: (k: string) => memory.delete(k),
    });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('loads summaries on join and again on rejoin: unread counts and previews', async () => {
    const { socket, session } = setup({
      [C.fetchChannelSummaries]: () => ({
        success: true,
        summaries: [
          {
            channelId: 'c2',
            lastMessage: message(7, { channelId: 'c2' }),
            unreadCount: 150,
            readSeq: 1,
            othersReadSeq: 0,
          },
        ],
      }),
    });
    socket.up();
    await flush();
    expect(session.state.unread.c2).toBe(150);
    expect(session.state.messages.c2!.map((m) => m.seq)).toEqual([7]);
    socket.drop();
    socket.up();
    await flush();
    expect(socket.all(C.fetchChannelSummaries)).toHaveLength(2);
  });

  it('viewing a channel marks it read up to its latest message, throttled to one mark-read per second', async () => {
    const { socket, session } = setup();
    socket.up();
    await flush();
    expect(session.state.currentChannelId).toBe('c1');
    socket.fire(S.message, message(1));
    await flush();
    expect(socket.all(C.markRead)).toEqual([{ channelId: 'c1', seq: 1 }]);
    socket.fire(S.message, message(2));
    socket.fire(S.message, message(3));
    await flush();
    expect(socket.all(C.markRead)).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(MARK_READ_THROTTLE_MS);
    expect(socket.all(C.markRead)).toEqual([
      { channelId: 'c1', seq: 1 },
      { channelId: 'c1', seq: 3 },
    ]);
    // a message in another channel is unread there and not marked
    socket.fire(S.message, message(4, { channelId: 'c2' }));
    await vi.advanceTimersByTimeAsync(MARK_READ_THROTTLE_MS);
    expect(session.state.unread.c2).toBe(1);
    expect(socket.all(C.markRead)).toHaveLength(2);
    // the DM menu's Mark as Read
    session.markRead('c2');
    await flush();
    expect(session.state.unread.c2).toBeUndefined();
    expect(socket.all(C.markRead).at(-1)).toEqual({ channelId: 'c2', seq: 4 });
  });

  it('channel-deleted of the open channel selects the first topic channel and remembers it', async () => {
    const { socket, session } = setup();
    socket.up();
    await flush();
    session.selectChannel('c2');
    socket.fire(S.channelDeleted, { workspaceId: 'w1', channelId: 'c2' });
    await flush();
    expect(session.state.currentChannelId).toBe('c1');
    expect(memory.get(lastChannelKey('w1'))).toBe('c1');
    expect(socket.all(C.joinChannel).at(-1)).toEqual({ channelId: 'c1' });
    // another workspace's event is ignored
    socket.fire(S.channelDeleted, { workspaceId: 'w2', channelId: 'c1' });
    expect(session.state.channels.some((c) => c.id === 'c1')).toBe(true);
  });

  it('the last channel (a DM too) is opened again on the next visit', async () => {
    memory.set(lastChannelKey('w1'), 'd1');
    const { socket, session } = setup();
    socket.up();
    await flush();
    expect(session.state.currentChannelId).toBe('d1');
  });

  it('starting a DM opens the acknowledged channel; an existing DM just opens', async () => {
    const carolDm = channel('d2', 'dm', { type: 'dm', memberIds: [me.id, 'u-carol'] });
    const { socket, session } = setup({ [C.createDmChannel]: () => ({ success: true, channel: carolDm }) });
    socket.up();
    await flush();
    socket.fire(S.userJoined, {
      workspaceId: 'w1',
      user: { id: 'u-carol', username: 'carol', isAdmin: false, presenceStatus: 'online' },
    });
    expect(await session.startDm('u-carol')).toEqual({ ok: true });
    expect(socket.all(C.createDmChannel)).toEqual([{ workspaceId: 'w1', targetUserId: 'u-carol', name: 'carol' }]);
    expect(session.state.currentChannelId).toBe('d2');
    expect(await session.startDm(other.id)).toEqual({ ok: true });
    expect(socket.all(C.createDmChannel)).toHaveLength(1);
    expect(session.state.currentChannelId).toBe('d1');
    expect(await session.startDm('u-nobody')).toEqual({ ok: false, message: 'User not found' });
  });

  it('auto-open-dm adds the DM to the list; dm-deleted-for-user removes it', async () => {
    const { socket, session } = setup();
    socket.up();
    await flush();
    const d3 = channel('d3', 'dm', { type: 'dm', memberIds: [me.id, 'u-x'] });
    socket.fire(S.autoOpenDm, { workspaceId: 'w1', channelId: 'd3', channel: d3 });
    expect(session.state.channels.some((c) => c.id === 'd3')).toBe(true);
    expect(session.state.currentChannelId).toBe('c1');
    socket.fire(S.dmDeletedForUser, { workspaceId: 'w1', channelId: 'd3' });
    expect(session.state.channels.some((c) => c.id === 'd3')).toBe(false);
  });

  it('Delete Conversation removes the DM at once; a server that does not answer in 10 s gives the timeout text', async () => {
    const { socket, session } = setup({ [C.deleteDm]: () => NO_ACK });
    socket.up();
    await flush();
    const pending = session.deleteDm('d1');
    expect(session.state.channels.some((c) => c.id === 'd1')).toBe(false);
    expect(socket.all(C.deleteDm)).toEqual([{ channelId: 'd1', workspaceId: 'w1', userId: me.id }]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await pending).toEqual({ ok: false, message: MSG_DELETE_DM_TIMEOUT });
    expect(session.state.notice).toBe('Delete DM request timed out');
  });

  it('Delete Conversation refused: still gone locally, Failed to delete DM conversation: {reason}; not a DM refused client-side', async () => {
    const { socket, session } = setup({ [C.deleteDm]: () => ({ success: false, code: 'INTERNAL', message: 'boom' }) });
    socket.up();
    await flush();
    expect(await session.deleteDm('d1')).toEqual({ ok: false, message: 'Failed to delete DM conversation: boom' });
    expect(session.state.channels.some((c) => c.id === 'd1')).toBe(false);
    expect(await session.deleteDm('c1')).toEqual({ ok: false, message: MSG_NOT_A_DM });
    expect(socket.all(C.deleteDm)).toHaveLength(1);
  });

  it('rename: trimmed, unchanged or empty sends nothing, the ack updates the list; delete channel removes it', async () => {
    const { socket, session } = setup({
      [C.renameChannel]: (p) => ({ success: true, channel: channel(p.channelId, p.newName) }),
      [C.deleteChannel]: (p) => ({ success: true, channelId: p.channelId }),
    });
    socket.up();
    await flush();
    expect(await session.renameChannel('c2', '  random ')).toEqual({ ok: true });
    expect(await session.renameChannel('c2', '   ')).toEqual({ ok: true });
    expect(socket.all(C.renameChannel)).toHaveLength(0);
    expect(await session.renameChannel('c2', ' chatter ')).toEqual({ ok: true });
    expect(socket.all(C.renameChannel)).toEqual([{ channelId: 'c2', workspaceId: 'w1', newName: 'chatter' }]);
    expect(session.state.channels.find((c) => c.id === 'c2')?.name).toBe('chatter');
    expect(await session.deleteChannel('c2')).toEqual({ ok: true });
    expect(session.state.channels.some((c) => c.id === 'c2')).toBe(false);
  });

  it('rename and delete refused: the server message, else the spec text', async () => {
    const { socket, session } = setup({
      [C.renameChannel]: () => ({ success: false, code: 'FORBIDDEN', message: '' }),
      [C.deleteChannel]: () => NO_ACK,
    });
    socket.up();
    await flush();
    expect(await session.renameChannel('c2', 'x')).toEqual({ ok: false, message: 'Failed to rename channel' });
    const del = session.deleteChannel('c2');
    await vi.advanceTimersByTimeAsync(15_000);
    expect(await del).toEqual({ ok: false, message: 'Failed to delete channel' });
    expect(session.state.channels.some((c) => c.id === 'c2')).toBe(true);
  });

  it('presence: sent once per change, shown at once, re-sent after a reconnect', async () => {
    const { socket, session } = setup();
    socket.up();
    await flush();
    session.setPresence('away');
    session.setPresence('away');
    await flush();
    expect(socket.all(C.updatePresence)).toEqual([{ workspaceId: 'w1', status: 'away' }]);
    expect(session.state.user?.presenceStatus).toBe('away');
    socket.drop();
    socket.up();
    await flush();
    expect(socket.all(C.updatePresence)).toHaveLength(2);
  });

  it('profile: unchanged sends nothing, empty is Username is required, a refusal is the server text or Failed to update profile', async () => {
    let answer: unknown = { success: true, user: { ...me, username: 'alicia' } };
    const { socket, session } = setup({ [C.updateProfile]: () => answer });
    socket.up();
    await flush();
    expect(await session.updateProfile(' alice ')).toEqual({ ok: true });
    expect(await session.updateProfile('  ')).toEqual({ ok: false, message: 'Username is required' });
    expect(socket.all(C.updateProfile)).toHaveLength(0);
    expect(await session.updateProfile('alicia')).toEqual({ ok: true });
    expect(session.state.user?.username).toBe('alicia');
    answer = { success: false, code: 'USERNAME_TAKEN', message: 'Username is already taken' };
    expect(await session.updateProfile('bob')).toEqual({ ok: false, message: 'Username is already taken' });
    answer = NO_ACK;
    const slow = session.updateProfile('carol');
    await vi.advanceTimersByTimeAsync(15_000);
    expect(await slow).toEqual({ ok: false, message: 'Failed to update profile' });
  });

  it('search sends the trimmed query and returns the messages', async () => {
    const { socket, session } = setup({ [C.searchMessages]: () => ({ success: true, messages: [message(3)] }) });
    socket.up();
    await flush();
    const result = await session.searchMessages('  hello ');
    expect(socket.all(C.searchMessages)).toEqual([{ workspaceId: 'w1', query: 'hello' }]);
    expect(result).toMatchObject({ ok: true, messages: [{ seq: 3 }] });
  });

  it('presence, profile and membership events update the store', async () => {
    const { socket, session } = setup();
    socket.up();
    await flush();
    socket.fire(S.onlineUsers, {
      workspaceId: 'w1',
      users: [{ id: other.id, username: 'bob', isAdmin: false, presenceStatus: 'online' }],
    });
    socket.fire(S.userPresenceUpdated, { workspaceId: 'w1', userId: other.id, status: 'busy' });
    expect(session.state.online[0]?.presenceStatus).toBe('busy');
    socket.fire(S.userProfileUpdated, {
      workspaceId: 'w1',
      userId: other.id,
      username: 'robert',
      profilePicture: null,
    });
    expect(session.state.workspace?.users.find((u) => u.id === other.id)?.username).toBe('robert');
    socket.fire(S.userLeft, { workspaceId: 'w1', userId: other.id, username: 'robert', membershipEnded: true });
    expect(session.state.workspace?.users.some((u) => u.id === other.id)).toBe(false);
    socket.fire(S.readPositionUpdated, { workspaceId: 'w1', channelId: 'd1', userId: other.id, seq: 9 });
    expect(session.state.othersReadSeq.d1).toBe(9);
  });
});
