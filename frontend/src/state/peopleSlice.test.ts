import { describe, expect, it } from 'vitest';
import { LIMITS } from '@ephemera/proto/client';
import { initialRoomState, roomReducer, type RoomAction, type RoomState } from './roomState.ts';
import { channel, me, message, other, workspace } from './testData.ts';

const run = (actions: RoomAction[], start: RoomState = initialRoomState()) => actions.reduce(roomReducer, start);
const joined = () =>
  run([
    { type: 'joined', workspace: workspace([channel('c1', 'general')]), user: me, now: 1 },
    {
      type: 'onlineUsers',
      users: [
        { id: me.id, username: me.username, isAdmin: true, presenceStatus: 'online' },
        { id: other.id, username: other.username, isAdmin: false, presenceStatus: 'online' },
      ],
    },
  ]);

describe('people', () => {
  it('presence updates the online list, the members and ourselves', () => {
    const s = run(
      [
        { type: 'presenceUpdated', userId: other.id, status: 'away' },
        { type: 'presenceUpdated', userId: me.id, status: 'busy' },
      ],
      joined(),
    );
    expect(s.online.find((u) => u.id === other.id)?.presenceStatus).toBe('away');
    expect(s.workspace!.users.find((u) => u.id === other.id)?.presenceStatus).toBe('away');
    expect(s.user?.presenceStatus).toBe('busy');
  });
  it('a profile change renames the member everywhere, including their messages', () => {
    const s = run(
      [
        {
          type: 'messagesMerged',
          messages: [message(1), message(2, { authorId: me.id, authorName: me.username })],
          source: 'history',
          page: { channelId: 'c1', hasMore: false },
        },
        { type: 'profileUpdated', userId: other.id, username: 'robert', profilePicture: null },
      ],
      joined(),
    );
    expect(s.online.find((u) => u.id === other.id)?.username).toBe('robert');
    expect(s.workspace!.users.find((u) => u.id === other.id)?.username).toBe('robert');
    expect(s.messages.c1!.map((m) => m.authorName)).toEqual(['robert', 'alice']);
    const mine = roomReducer(s, { type: 'profileUpdated', userId: me.id, username: 'alicia', profilePicture: null });
    expect(mine.user?.username).toBe('alicia');
  });
  it('a member who left for good leaves the members and the online list', () => {
    const s = run([{ type: 'memberLeft', userId: other.id }], joined());
    expect(s.online.map((u) => u.id)).toEqual([me.id]);
    expect(s.workspace!.users.map((u) => u.id)).toEqual([me.id]);
  });
  it('typing: start, stop, expiry, and a message from the typer ends it; our own is ignored', () => {
    let s = run(
      [
        { type: 'typingStarted', channelId: 'c1', userId: other.id, username: 'bob', now: 1000 },
        { type: 'typingStarted', channelId: 'c1', userId: me.id, username: 'alice', now: 1000 },
      ],
      joined(),
    );
    expect(Object.keys(s.typing.c1!)).toEqual([other.id]);
    expect(roomReducer(s, { type: 'typingStopped', channelId: 'c1', userId: other.id }).typing).toEqual({});
    expect(roomReducer(s, { type: 'typingExpired', now: 1000 + LIMITS.typingExpireMs - 1 }).typing.c1).toBeDefined();
    expect(roomReducer(s, { type: 'typingExpired', now: 1000 + LIMITS.typingExpireMs }).typing).toEqual({});
    s = roomReducer(s, { type: 'messagesMerged', messages: [message(3)], source: 'live' });
    expect(s.typing).toEqual({});
  });
});
