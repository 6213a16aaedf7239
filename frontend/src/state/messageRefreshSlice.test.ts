import { describe, expect, it } from 'vitest';
import { initialRoomState, roomReducer, type RoomAction, type RoomState } from './roomState.ts';
import { channel, me, message, workspace } from './testData.ts';

const run = (actions: RoomAction[], start: RoomState = initialRoomState()) => actions.reduce(roomReducer, start);
const held = () =>
  run([
    { type: 'joined', workspace: workspace([channel('c1'), channel('c2')]), user: me, now: 1 },
    {
      type: 'messagesMerged',
      messages: [1, 2, 3, 4].map((n) => message(n)),
      source: 'history',
      page: { channelId: 'c1', hasMore: false },
    },
    { type: 'messagesMerged', messages: [message(5, { channelId: 'c2' })], source: 'live' },
  ]);
const seqs = (s: RoomState, c = 'c1') => s.messages[c]!.map((m) => m.seq);

describe('catching up on changes to held messages (edits, reactions, deletions missed while offline)', () => {
  it('a latest page brings the current content, edit mark and reactions of messages already held', () => {
    const s0 = held();
    const s = roomReducer(s0, {
      type: 'messagesMerged',
      source: 'history',
      page: { channelId: 'c1', hasMore: false },
      messages: [
        message(1),
        { ...message(2), content: 'edited offline', isEdited: true, editedAt: 'x' },
        { ...message(3), reactions: { '👍': ['u9'] } },
        message(4),
      ],
    });
    expect(s.messages.c1![1]).toMatchObject({ content: 'edited offline', isEdited: true });
    expect(s.messages.c1![2]!.reactions).toEqual({ '👍': ['u9'] });
    expect(s.messages.c1![0]).toBe(s0.messages.c1![0]); // unchanged rows keep their identity
  });
  it('a page without a held message inside its range means it was deleted; outside the range it stays', () => {
    const s = roomReducer(held(), {
      type: 'messagesMerged',
      source: 'history',
      page: { channelId: 'c1', hasMore: true },
      messages: [message(2), message(4)],
    });
    expect(seqs(s)).toEqual([1, 2, 4]); // 3 was deleted; 1 is older than the page, kept
    expect(seqs(s, 'c2')).toEqual([5]);
  });
  it('a resync updates what changed but deletes nothing (it is not a page of one channel)', () => {
    const s = roomReducer(held(), {
      type: 'messagesMerged',
      source: 'sync',
      messages: [{ ...message(4), content: 'new text', isEdited: true }],
    });
    expect(seqs(s)).toEqual([1, 2, 3, 4]);
    expect(s.messages.c1![3]!.content).toBe('new text');
  });
  it('live messages and identical pages change nothing', () => {
    const s0 = held();
    expect(
      roomReducer(s0, { type: 'messagesMerged', source: 'live', messages: [{ ...message(2), content: 'ignored' }] })
        .messages.c1![1]!.content,
    ).toBe('message 2');
    const same = roomReducer(s0, {
      type: 'messagesMerged',
      source: 'history',
      page: { channelId: 'c1', hasMore: false },
      messages: s0.messages.c1!,
    });
    expect(same.messages).toBe(s0.messages);
  });
});
