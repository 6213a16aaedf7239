import { describe, expect, it } from 'vitest';
import type { ChannelSummary } from '@ephemera/proto';
import { initialRoomState, roomReducer, type RoomAction, type RoomState } from './roomState.ts';
import { channel, me, message, other, workspace } from './testData.ts';

const run = (actions: RoomAction[], start: RoomState = initialRoomState()) => actions.reduce(roomReducer, start);
const dm = channel('d1', 'alice-bob', { type: 'dm', memberIds: [me.id, other.id], createdBy: me.id });
const joined = () =>
  run([
    {
      type: 'joined',
      workspace: workspace([
        channel('c1', 'general'),
        channel('c2', 'random', { createdAt: '2025-02-01T00:00:00.000Z' }),
        channel('c0', 'older', { createdAt: '2024-12-01T00:00:00.000Z' }),
        dm,
      ]),
      user: me,
      now: 1,
    },
  ]);
const summary = (channelId: string, extra: Partial<ChannelSummary> = {}): ChannelSummary => ({
  channelId,
  lastMessage: null,
  unreadCount: 0,
  mentionCount: 0,
  readSeq: 0,
  othersReadSeq: 0,
  ...extra,
});

describe('channel removed (channel-deleted, dm-deleted-for-user, own delete)', () => {
  it('the current channel goes: the first topic channel by creation is selected', () => {
    const s = run(
      [
        { type: 'channelSelected', channelId: 'c2' },
        { type: 'channelRemoved', channelId: 'c2' },
      ],
      joined(),
    );
    expect(s.channels.map((c) => c.id)).not.toContain('c2');
    expect(s.currentChannelId).toBe('c0');
  });
  it('with no topic channel left, none is selected (a DM is never picked)', () => {
    const s = run(
      [
        { type: 'channelSelected', channelId: 'c1' },
        { type: 'channelRemoved', channelId: 'c0' },
        { type: 'channelRemoved', channelId: 'c2' },
        { type: 'channelRemoved', channelId: 'c1' },
      ],
      joined(),
    );
    expect(s.channels.map((c) => c.id)).toEqual(['d1']);
    expect(s.currentChannelId).toBeNull();
  });
  it('another channel goes: the selection stays; its messages, unread and typing go too', () => {
    const s = run(
      [
        { type: 'channelSelected', channelId: 'c1' },
        { type: 'messagesMerged', messages: [message(5, { channelId: 'd1' })], source: 'live' },
        { type: 'typingStarted', channelId: 'd1', userId: other.id, username: 'bob', now: 1 },
        { type: 'channelRemoved', channelId: 'd1' },
      ],
      joined(),
    );
    expect(s.currentChannelId).toBe('c1');
    expect(s.messages.d1).toBeUndefined();
    expect(s.unread.d1).toBeUndefined();
    expect(s.typing.d1).toBeUndefined();
  });
  it('an unknown channel changes nothing', () => {
    const s = joined();
    expect(roomReducer(s, { type: 'channelRemoved', channelId: 'nope' })).toBe(s);
  });
});

describe('channel updated and DM opened', () => {
  it('a rename replaces the channel in place', () => {
    const s = run([{ type: 'channelUpdated', channel: channel('c1', 'renamed') }], joined());
    expect(s.channels.find((c) => c.id === 'c1')?.name).toBe('renamed');
    expect(s.channels).toHaveLength(4);
  });
  it('auto-open-dm adds the DM (once) without changing the selection', () => {
    const newDm = channel('d2', 'x', { type: 'dm', memberIds: [me.id, 'u-carol'] });
    const s = run(
      [
        { type: 'channelSelected', channelId: 'c1' },
        { type: 'dmOpened', channel: newDm },
        { type: 'dmOpened', channel: newDm },
      ],
      joined(),
    );
    expect(s.channels.filter((c) => c.id === 'd2')).toHaveLength(1);
    expect(s.currentChannelId).toBe('c1');
  });
  it('a channel of another workspace is ignored', () => {
    const s = joined();
    expect(roomReducer(s, { type: 'channelUpdated', channel: channel('c9', 'x', { workspaceId: 'w2' }) })).toBe(s);
  });
});

describe('summaries and read positions', () => {
  it('summaries set unread counts, previews and read positions; the open channel has none unread', () => {
    const s = run(
      [
        { type: 'channelSelected', channelId: 'c1' },
        {
          type: 'summariesLoaded',
          summaries: [
            summary('c1', { unreadCount: 4, lastMessage: message(10), readSeq: 6 }),
            summary('c2', {
              unreadCount: 3,
              lastMessage: message(9, { channelId: 'c2' }),
              readSeq: 2,
              othersReadSeq: 9,
            }),
            summary('d1', { unreadCount: 0 }),
          ],
        },
      ],
      joined(),
    );
    expect(s.unread).toEqual({ c2: 3 });
    expect(s.messages.c2!.map((m) => m.seq)).toEqual([9]);
    expect(s.readSeq).toMatchObject({ c1: 6, c2: 2 });
    expect(s.othersReadSeq.c2).toBe(9);
    expect(s.lastSeq).toBe(10);
  });
  it('messages that arrived after the server counted are added to its count', () => {
    const s = run(
      [
        {
          type: 'messagesMerged',
          messages: [message(8, { channelId: 'c2' }), message(9, { channelId: 'c2' })],
          source: 'live',
        },
        {
          type: 'summariesLoaded',
          summaries: [summary('c2', { unreadCount: 2, lastMessage: message(8, { channelId: 'c2' }) })],
        },
      ],
      joined(),
    );
    expect(s.unread.c2).toBe(3);
  });
  it('summaries replace a stale local count (read on another device)', () => {
    const s = run(
      [
        { type: 'messagesMerged', messages: [message(3, { channelId: 'c2' })], source: 'live' },
        { type: 'summariesLoaded', summaries: [summary('c2', { unreadCount: 0, readSeq: 3 })] },
      ],
      joined(),
    );
    expect(s.unread.c2).toBeUndefined();
  });
  it('our read position from another device clears what is at or below it', () => {
    const s = run(
      [
        {
          type: 'messagesMerged',
          messages: [message(3, { channelId: 'd1' }), message(4, { channelId: 'd1' }), message(5, { channelId: 'd1' })],
          source: 'live',
        },
      ],
      joined(),
    );
    expect(s.unread.d1).toBe(3);
    const partly = roomReducer(s, { type: 'readPositionUpdated', channelId: 'd1', userId: me.id, seq: 4 });
    expect(partly.unread.d1).toBe(1);
    expect(partly.readSeq.d1).toBe(4);
    const all = roomReducer(partly, { type: 'readPositionUpdated', channelId: 'd1', userId: me.id, seq: 5 });
    expect(all.unread.d1).toBeUndefined();
  });
  it("another member's read position is kept for delivery marks and never lowers", () => {
    const s = run(
      [
        { type: 'readPositionUpdated', channelId: 'd1', userId: other.id, seq: 7 },
        { type: 'readPositionUpdated', channelId: 'd1', userId: other.id, seq: 5 },
      ],
      joined(),
    );
    expect(s.othersReadSeq.d1).toBe(7);
    expect(s.readSeq.d1).toBeUndefined();
  });
  it('Mark as Read clears the count even with nothing held', () => {
    const s = run([{ type: 'summariesLoaded', summaries: [summary('d1', { unreadCount: 120 })] }], joined());
    expect(s.unread.d1).toBe(120);
    expect(roomReducer(s, { type: 'markedRead', channelId: 'd1', seq: 0 }).unread.d1).toBeUndefined();
  });
});
