import { describe, expect, it } from 'vitest';
import { initialRoomState, roomReducer, type RoomAction, type RoomState } from './roomState.ts';
import { channel, me, message, other, workspace } from './testData.ts';

const run = (actions: RoomAction[], start: RoomState = initialRoomState()) => actions.reduce(roomReducer, start);
const joined = (now = Date.UTC(2029, 0, 1)) =>
  run([{ type: 'joined', workspace: workspace([channel('c1', 'general'), channel('c2', 'random')]), user: me, now }]);

describe('join', () => {
  it('takes workspace, user and channels; keeps the session start', () => {
    const s = joined(1000);
    expect(s.everJoined).toBe(true);
    expect(s.user?.id).toBe(me.id);
    expect(s.channels.map((c) => c.id)).toEqual(['c1', 'c2']);
    expect(s.connection.status).toBe('joined');
    const again = roomReducer(s, { type: 'joined', workspace: workspace([channel('c1')]), user: me, now: 5000 });
    expect(again.sessionStartedAt).toBe(1000);
  });
  it('a rejoin keeps the current channel if it still exists', () => {
    const s = run([{ type: 'channelSelected', channelId: 'c2' }], joined());
    expect(
      roomReducer(s, { type: 'joined', workspace: workspace([channel('c2')]), user: me, now: 1 }).currentChannelId,
    ).toBe('c2');
    expect(
      roomReducer(s, { type: 'joined', workspace: workspace([channel('c1')]), user: me, now: 1 }).currentChannelId,
    ).toBeNull();
  });
});

describe('messages: dedupe and order', () => {
  it('stores messages by channel in seq order and ignores duplicates by id', () => {
    const s = run(
      [
        {
          type: 'messagesMerged',
          messages: [message(3), message(1)],
          source: 'history',
          page: { channelId: 'c1', hasMore: false },
        },
        { type: 'messagesMerged', messages: [message(2), message(3)], source: 'live' },
        { type: 'messagesMerged', messages: [message(2)], source: 'sync' },
      ],
      joined(),
    );
    expect(s.messages.c1!.map((m) => m.seq)).toEqual([1, 2, 3]);
  });
  it('within one merge: newer messages append, an older or repeated one after them is placed or dropped', () => {
    const held = run(
      [
        {
          type: 'messagesMerged',
          messages: [message(2), message(4)],
          source: 'history',
          page: { channelId: 'c1', hasMore: false },
        },
      ],
      joined(),
    );
    // 6 appends (newer than all held); then 5 and 3 arrive late, and 6 and 4 again: sorted in, repeats dropped
    const s = roomReducer(held, {
      type: 'messagesMerged',
      messages: [message(6), message(5), message(6), message(3), message(4), message(7)],
      source: 'sync',
    });
    expect(s.messages.c1!.map((m) => m.seq)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(
      held.messages.c1!.map((m) => m.seq),
      'the previous state is not changed',
    ).toEqual([2, 4]);
  });
  it('tracks the highest seq seen', () => {
    const s = run(
      [
        { type: 'messagesMerged', messages: [message(7, { channelId: 'c2' })], source: 'live' },
        { type: 'messagesMerged', messages: [message(4)], source: 'older', page: { channelId: 'c1', hasMore: true } },
      ],
      joined(),
    );
    expect(s.lastSeq).toBe(7);
    expect(roomReducer(s, { type: 'seqSeen', seq: 5 }).lastSeq).toBe(7);
    expect(roomReducer(s, { type: 'seqSeen', seq: 9 }).lastSeq).toBe(9);
  });
  it('returns the same state when nothing changes', () => {
    const s = run([{ type: 'messagesMerged', messages: [message(1)], source: 'live' }], joined());
    expect(roomReducer(s, { type: 'messagesMerged', messages: [message(1)], source: 'live' })).toBe(s);
  });
});

describe('pending messages: reconciled by clientMessageId', () => {
  const pending = {
    clientMessageId: 'abc123abc123',
    channelId: 'c1',
    content: 'hi',
    createdAt: new Date().toISOString(),
    status: 'sending' as const,
    error: null,
  };
  it('the broadcast of our own message settles the pending copy', () => {
    const s = run(
      [
        { type: 'channelSelected', channelId: 'c1' },
        { type: 'pendingAdded', pending },
        {
          type: 'messagesMerged',
          messages: [
            message(5, { clientMessageId: 'abc123abc123', authorId: me.id, authorName: me.username, content: 'hi' }),
          ],
          source: 'live',
        },
      ],
      joined(),
    );
    expect(s.pending).toEqual([]);
    expect(s.messages.c1!.map((m) => m.seq)).toEqual([5]);
  });
  it('ack then broadcast leaves one message', () => {
    const mine = message(5, { clientMessageId: 'abc123abc123', authorId: me.id });
    const s = run(
      [
        { type: 'pendingAdded', pending },
        { type: 'messagesMerged', messages: [mine], source: 'ack' },
        { type: 'messagesMerged', messages: [mine], source: 'live' },
      ],
      joined(),
    );
    expect(s.pending).toEqual([]);
    expect(s.messages.c1).toHaveLength(1);
  });
  it("another user's message with the same client id does not settle ours", () => {
    const s = run(
      [
        { type: 'pendingAdded', pending },
        {
          type: 'messagesMerged',
          messages: [message(5, { clientMessageId: 'abc123abc123', authorId: other.id })],
          source: 'live',
        },
      ],
      joined(),
    );
    expect(s.pending).toHaveLength(1);
  });
  it('marks failures and can remove', () => {
    let s = run(
      [
        { type: 'pendingAdded', pending },
        { type: 'pendingAdded', pending },
      ],
      joined(),
    );
    expect(s.pending).toHaveLength(1);
    s = roomReducer(s, {
      type: 'pendingStatus',
      clientMessageId: pending.clientMessageId,
      status: 'failed',
      error: 'Message is too long',
    });
    expect(s.pending[0]).toMatchObject({ status: 'failed', error: 'Message is too long' });
    expect(roomReducer(s, { type: 'pendingRemoved', clientMessageId: pending.clientMessageId }).pending).toEqual([]);
  });
});

describe('unread counts', () => {
  it('a message from another user in another channel raises its count; own and current-channel messages do not', () => {
    const s = run(
      [
        { type: 'channelSelected', channelId: 'c1' },
        { type: 'messagesMerged', messages: [message(1, { channelId: 'c2' })], source: 'live' },
        { type: 'messagesMerged', messages: [message(2, { channelId: 'c2' })], source: 'live' },
        { type: 'messagesMerged', messages: [message(3, { channelId: 'c1' })], source: 'live' },
        { type: 'messagesMerged', messages: [message(4, { channelId: 'c2', authorId: me.id })], source: 'live' },
        { type: 'messagesMerged', messages: [message(5, { channelId: 'c2', type: 'system' })], source: 'live' },
      ],
      joined(),
    );
    expect(s.unread).toEqual({ c2: 2 });
  });
  it('a duplicate never counts twice', () => {
    const m = message(1, { channelId: 'c2' });
    const s = run(
      [
        { type: 'messagesMerged', messages: [m], source: 'live' },
        { type: 'messagesMerged', messages: [m], source: 'sync' },
        { type: 'messagesMerged', messages: [m], source: 'live' },
      ],
      joined(),
    );
    expect(s.unread.c2).toBe(1);
  });
  it('history and previews never count; resynced messages count only from this session on', () => {
    const s = run(
      [
        {
          type: 'messagesMerged',
          messages: [message(1, { channelId: 'c2' })],
          source: 'history',
          page: { channelId: 'c2', hasMore: false },
        },
        {
          type: 'messagesMerged',
          messages: [message(2, { channelId: 'c2' })],
          source: 'preview',
          page: { channelId: 'c2', hasMore: true },
        },
        {
          type: 'messagesMerged',
          messages: [message(3, { channelId: 'c2', timestamp: '2028-01-01T00:00:00.000Z' })],
          source: 'sync',
        },
        {
          type: 'messagesMerged',
          messages: [message(4, { channelId: 'c2', timestamp: '2030-01-01T00:00:00.000Z' })],
          source: 'sync',
        },
      ],
      joined(Date.UTC(2029, 0, 1)),
    );
    expect(s.unread.c2).toBe(1);
  });
  it('selecting a channel resets its count', () => {
    const s = run(
      [
        { type: 'messagesMerged', messages: [message(1, { channelId: 'c2' })], source: 'live' },
        { type: 'channelSelected', channelId: 'c2' },
      ],
      joined(),
    );
    expect(s.unread.c2).toBeUndefined();
    expect(s.currentChannelId).toBe('c2');
  });
});

describe('older pages', () => {
  it('an older page sets hasMore', () => {
    const s = run(
      [
        {
          type: 'messagesMerged',
          messages: [message(60), message(61)],
          source: 'history',
          page: { channelId: 'c1', hasMore: true },
        },
        {
          type: 'messagesMerged',
          messages: [message(10), message(11)],
          source: 'older',
          page: { channelId: 'c1', hasMore: false },
        },
      ],
      joined(),
    );
    expect(s.hasMore.c1).toBe(false);
    expect(s.messages.c1!.map((m) => m.seq)).toEqual([10, 11, 60, 61]);
  });
  it('a later latest page that does not reach back does not reopen older history', () => {
    const s = run(
      [
        {
          type: 'messagesMerged',
          messages: [message(10)],
          source: 'history',
          page: { channelId: 'c1', hasMore: false },
        },
        {
          type: 'messagesMerged',
          messages: [message(20), message(21)],
          source: 'history',
          page: { channelId: 'c1', hasMore: true },
        },
      ],
      joined(),
    );
    expect(s.hasMore.c1).toBe(false);
  });
  it('a preview of one message is superseded by a full latest page', () => {
    const s = run(
      [
        {
          type: 'messagesMerged',
          messages: [message(30)],
          source: 'preview',
          page: { channelId: 'c1', hasMore: true },
        },
        {
          type: 'messagesMerged',
          messages: [message(29), message(30)],
          source: 'history',
          page: { channelId: 'c1', hasMore: false },
        },
      ],
      joined(),
    );
    expect(s.hasMore.c1).toBe(false);
  });
});

describe('presence and channels', () => {
  it('online list: replace, join, leave, no duplicates', () => {
    const u = (id: string) => ({ id, username: id, isAdmin: false, presenceStatus: 'online' as const });
    const s = run(
      [
        { type: 'onlineUsers', users: [u('a'), u('b'), u('a')] },
        { type: 'userJoined', user: u('c') },
        { type: 'userJoined', user: u('c') },
        { type: 'userLeft', userId: 'a' },
      ],
      joined(),
    );
    expect(s.online.map((x) => x.id)).toEqual(['b', 'c']);
  });
  it('channel-created adds a channel once', () => {
    const s = run(
      [
        { type: 'channelAdded', channel: channel('c3', 'new') },
        { type: 'channelAdded', channel: channel('c3', 'new') },
      ],
      joined(),
    );
    expect(s.channels.filter((c) => c.id === 'c3')).toHaveLength(1);
  });
  it('ignores a channel of another workspace', () => {
    const s = roomReducer(joined(), { type: 'channelAdded', channel: channel('x', 'x', { workspaceId: 'w2' }) });
    expect(s.channels.some((c) => c.id === 'x')).toBe(false);
  });
});

describe('latest page tracking', () => {
  it('a preview does not count as the latest page; history does', () => {
    let s = run(
      [
        {
          type: 'messagesMerged',
          messages: [message(9, { channelId: 'c2' })],
          source: 'preview',
          page: { channelId: 'c2', hasMore: true },
        },
      ],
      joined(),
    );
    expect(s.latestLoaded.c2).toBeUndefined();
    s = roomReducer(s, {
      type: 'messagesMerged',
      messages: [],
      source: 'history',
      page: { channelId: 'c2', hasMore: false },
    });
    expect(s.latestLoaded.c2).toBe(true);
  });
});
