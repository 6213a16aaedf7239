import { describe, expect, it } from 'vitest';
import { initialRoomState, roomReducer, type RoomAction, type RoomState } from './roomState.ts';
import { displayMessages, membersOnline, totalUnread } from './selectors.ts';
import { channel, me, message, workspace } from './testData.ts';

const run = (actions: RoomAction[], start: RoomState = initialRoomState()) => actions.reduce(roomReducer, start);

describe('selectors', () => {
  const base = run([{
    type: 'joined', now: 0, user: me,
    workspace: workspace([
      channel('c1', 'general', { createdAt: '2025-01-01T00:00:00.000Z' }),
      channel('c2', 'random', { createdAt: '2025-01-02T00:00:00.000Z' }),
      channel('d1', 'dm', { type: 'dm' }),
    ]),
  }]);

  it('total unread sums the channels', () => {
    const s = run([
      { type: 'messagesMerged', messages: [message(1, { channelId: 'c1' }), message(2, { channelId: 'c2' }), message(3, { channelId: 'c2' })], source: 'live' },
    ], base);
    expect(totalUnread(s)).toBe(3);
  });
  it('members online: everyone for public channels, members for private ones', () => {
    const u = (id: string) => ({ id, username: id, isAdmin: false, presenceStatus: 'online' as const });
    const s = run([{ type: 'onlineUsers', users: [u('a'), u('b'), u('c')] }], base);
    expect(membersOnline(s, channel('c1'))).toBe(3);
    expect(membersOnline(s, channel('p', 'p', { isPrivate: true, memberIds: ['a', 'z'] }))).toBe(1);
  });
  it('display list: confirmed then pending, own messages marked', () => {
    const s = run([
      { type: 'messagesMerged', messages: [message(1), message(2, { authorId: me.id })], source: 'live' },
      { type: 'pendingAdded', pending: { clientMessageId: 'p1p1p1p1', channelId: 'c1', content: 'x', createdAt: '2031-01-01T00:00:00.000Z', status: 'sending', error: null } },
      { type: 'pendingAdded', pending: { clientMessageId: 'p2p2p2p2', channelId: 'c2', content: 'y', createdAt: '2031-01-01T00:00:00.000Z', status: 'sending', error: null } },
    ], base);
    const list = displayMessages('c1', s.messages.c1, s.pending, s.user);
    expect(list.map((m) => [m.seq, m.own, m.status])).toEqual([[1, false, null], [2, true, 'sent'], [null, true, 'sending']]);
    expect(displayMessages(null, undefined, s.pending, s.user)).toEqual([]);
  });
});
