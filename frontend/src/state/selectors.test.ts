import { describe, expect, it } from 'vitest';
import { initialRoomState, roomReducer, type RoomAction, type RoomState } from './roomState.ts';
import { membersOnline, totalUnread } from './selectors.ts';
import { channel, me, message, workspace } from './testData.ts';

const run = (actions: RoomAction[], start: RoomState = initialRoomState()) => actions.reduce(roomReducer, start);

describe('selectors', () => {
  const base = run([
    {
      type: 'joined',
      now: 0,
      user: me,
      workspace: workspace([
        channel('c1', 'general', { createdAt: '2025-01-01T00:00:00.000Z' }),
        channel('c2', 'random', { createdAt: '2025-01-02T00:00:00.000Z' }),
        channel('d1', 'dm', { type: 'dm' }),
      ]),
    },
  ]);

  it('total unread sums the channels', () => {
    const s = run(
      [
        {
          type: 'messagesMerged',
          messages: [message(1, { channelId: 'c1' }), message(2, { channelId: 'c2' }), message(3, { channelId: 'c2' })],
          source: 'live',
        },
      ],
      base,
    );
    expect(totalUnread(s)).toBe(3);
  });
  it('members online: everyone for public channels, members for private ones', () => {
    const u = (id: string) => ({ id, username: id, isAdmin: false, presenceStatus: 'online' as const });
    const s = run([{ type: 'onlineUsers', users: [u('a'), u('b'), u('c')] }], base);
    expect(membersOnline(s, channel('c1'))).toBe(3);
    expect(membersOnline(s, channel('p', 'p', { isPrivate: true, memberIds: ['a', 'z'] }))).toBe(1);
  });
});
