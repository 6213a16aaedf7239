import { beforeAll, describe, expect, it } from 'vitest';
import { activateLocale } from '../i18n/i18n.ts';
import { LIMITS, type OnlineUser, type PresenceBatch } from '@ephemera/proto';
import { initialRoomState, roomReducer, type RoomAction, type RoomState } from './roomState.ts';
import { typingOthersIn } from './onlineSlice.ts';
import { typingText } from './typing.ts';
import { presenceBatchActions } from '../lib/onlineList.ts';

const run = (actions: RoomAction[], start: RoomState = initialRoomState()) => actions.reduce(roomReducer, start);
const user = (id: string): OnlineUser => ({ id, username: `n-${id}`, isAdmin: false, presenceStatus: 'online' });
/** a big room: 3 of 10 online loaded, the next page after u3 */
const bigRoom = () =>
  run([{ type: 'onlineUsers', users: [user('u1'), user('u2'), user('u3')], onlineCount: 10, next: 'u3' }]);

describe('the online list of a big room', () => {
  beforeAll(() => activateLocale('en', ['room']));

  it("the count is the room's, not the loaded page's; a page sets the list, the count and the next page", () => {
    let s = bigRoom();
    expect(s.onlineCount).toBe(10);
    expect(s.onlineNext).toBe('u3');
    s = run([{ type: 'onlineUsers', users: [...s.online, user('u4'), user('u5')], onlineCount: 10, next: 'u5' }], s);
    expect(s.online.map((u) => u.id)).toEqual(['u1', 'u2', 'u3', 'u4', 'u5']);
    expect(s.onlineNext).toBe('u5');
    s = run([{ type: 'onlineUsers', users: [...s.online, user('u6')], onlineCount: 6, next: null }], s);
    expect(s.onlineNext).toBeNull();
    expect(s.onlineCount).toBe(6);
  });

  it('a room within one page: the list is whole and the count its length (nothing changes for small rooms)', () => {
    const s = run([{ type: 'onlineUsers', users: [user('a'), user('b')] }]);
    expect(s.onlineCount).toBe(2);
    expect(s.onlineNext).toBeNull();
    expect(
      run(
        [
          { type: 'userJoined', user: user('c') },
          { type: 'userLeft', userId: 'a' },
        ],
        s,
      ).onlineCount,
    ).toBe(2);
  });

  it('joins and leaves move the count, a user not loaded yet included; a repeated join counts once', () => {
    let s = bigRoom();
    s = run(
      [
        { type: 'userJoined', user: user('new') },
        { type: 'userJoined', user: user('new') },
      ],
      s,
    );
    expect(s.onlineCount).toBe(11);
    s = run([{ type: 'userLeft', userId: 'u1' }], s); // loaded
    s = run([{ type: 'userLeft', userId: 'u9' }], s); // online but not paged in yet
    expect(s.onlineCount).toBe(9);
    expect(s.online.map((u) => u.id)).toEqual(['u2', 'u3', 'new']);
  });

  it('a presence-batch frame is its changes as single events, in order: the same state as the events one by one', () => {
    const batch: PresenceBatch = {
      workspaceId: 'w1',
      changes: [
        { kind: 'joined', user: user('x') },
        { kind: 'status', userId: 'u2', status: 'busy' },
        { kind: 'left', userId: 'u1', username: 'n-u1', membershipEnded: true },
        { kind: 'joined', user: user('y') },
        { kind: 'left', userId: 'y', username: 'n-y' },
      ],
    };
    const singles: RoomAction[] = [
      { type: 'userJoined', user: user('x') },
      { type: 'presenceUpdated', userId: 'u2', status: 'busy' },
      { type: 'userLeft', userId: 'u1' },
      { type: 'memberLeft', userId: 'u1' },
      { type: 'userJoined', user: user('y') },
      { type: 'userLeft', userId: 'y' },
    ];
    expect(presenceBatchActions(batch, 0)).toEqual(singles);
    const fromBatch = run(presenceBatchActions(batch, 0), bigRoom());
    expect(fromBatch).toEqual(run(singles, bigRoom()));
    expect(fromBatch.online.map((u) => [u.id, u.presenceStatus])).toEqual([
      ['u2', 'busy'],
      ['u3', 'online'],
      ['x', 'online'],
    ]);
    expect(fromBatch.onlineCount).toBe(10); // +x -u1 +y -y
  });

  it('typers counted beyond the shown ones make "Several people are typing...", until they stop or lapse', () => {
    let s = run(
      presenceBatchActions({ workspaceId: 'w1', changes: [], typing: [{ channelId: 'c1', others: 4 }] }, 100),
    );
    expect(typingOthersIn(s, 'c1', 100)).toBe(4);
    expect(typingText(['ann'], typingOthersIn(s, 'c1', 100))).toBe('Several people are typing...');
    expect(typingText([], 1)).toBe('Someone is typing...');
    expect(typingText(['ann'], 0)).toBe('ann is typing...');
    expect(typingOthersIn(s, 'c1', 100 + LIMITS.typingExpireMs)).toBe(0);
    s = run([{ type: 'typingOthers', channelId: 'c1', others: 0, now: 200 }], s);
    expect(typingOthersIn(s, 'c1', 200)).toBe(0);
  });
});
