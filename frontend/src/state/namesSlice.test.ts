/** Names and pictures follow the member list (docs/product/messages.md M20): namesSlice.ts through the room reducer. */
import { describe, expect, it } from 'vitest';
import { initialRoomState, roomReducer, type RoomAction, type RoomState } from './roomState.ts';
import { channel, me, message, other, workspace } from './testData.ts';

const run = (actions: RoomAction[], start: RoomState = initialRoomState()) => actions.reduce(roomReducer, start);
/** the room as joined after bob renamed himself robert and set a picture */
const renamedRoom = () => ({
  ...workspace([channel('c1', 'general')]),
  users: [me, { ...other, username: 'robert', profilePicture: '/p.png' }],
});

describe('names follow the member list', () => {
  it("history sent under an old name shows the author's current name and picture", () => {
    const s = run([
      { type: 'joined', workspace: renamedRoom(), user: me, now: 1 },
      {
        type: 'messagesMerged',
        messages: [message(1), message(2, { authorId: me.id, authorName: me.username })],
        source: 'history',
        page: { channelId: 'c1', hasMore: false },
      },
      { type: 'messagesMerged', messages: [message(3)], source: 'live' },
    ]);
    expect(s.messages.c1!.map((m) => [m.authorName, m.profilePicture])).toEqual([
      ['robert', '/p.png'],
      ['alice', null],
      ['robert', '/p.png'],
    ]);
  });

  it("presence's online list, which holds the name a member connected with, takes the current name", () => {
    const s = run([
      { type: 'joined', workspace: renamedRoom(), user: me, now: 1 },
      { type: 'onlineUsers', users: [{ id: other.id, username: 'bob', isAdmin: false, presenceStatus: 'online' }] },
    ]);
    expect(s.online.map((u) => u.username)).toEqual(['robert']);
    const again = roomReducer(s, {
      type: 'userJoined',
      user: { id: other.id, username: 'bob', isAdmin: false, presenceStatus: 'away' },
    });
    expect(again.online.map((u) => `${u.username} ${u.presenceStatus}`)).toEqual(['robert away']);
  });

  it('a join after a rename renames what was held; a member who left keeps the name their messages carry', () => {
    const before = run([
      { type: 'joined', workspace: workspace([channel('c1', 'general')]), user: me, now: 1 },
      {
        type: 'messagesMerged',
        messages: [message(1), message(2, { authorId: 'u-gone', authorName: 'carol' })],
        source: 'history',
        page: { channelId: 'c1', hasMore: false },
      },
    ]);
    expect(before.messages.c1!.map((m) => m.authorName)).toEqual(['bob', 'carol']);
    const after = roomReducer(before, { type: 'joined', workspace: renamedRoom(), user: me, now: 2 });
    expect(after.messages.c1!.map((m) => m.authorName)).toEqual(['robert', 'carol']);
  });

  it('nothing to rename: the entries stay the same objects (no row re-renders)', () => {
    const s = run([{ type: 'joined', workspace: workspace([channel('c1', 'general')]), user: me, now: 1 }]);
    const bob = { id: other.id, username: 'bob', isAdmin: false, presenceStatus: 'online' as const };
    expect(roomReducer(s, { type: 'onlineUsers', users: [bob] }).online[0]).toBe(bob);
    const m = message(1);
    expect(roomReducer(s, { type: 'messagesMerged', messages: [m], source: 'live' }).messages.c1![0]).toBe(m);
  });
});
