import { describe, expect, it } from 'vitest';
import { myReaction, reactionChips, toggleReaction } from './reactions.ts';
import { initialRoomState, roomReducer, type RoomState } from './roomState.ts';
import { channel, me, message, workspace } from './testData.ts';

describe('toggleReaction: one reaction per user per message (docs/product/messages.md M5)', () => {
  it('adds a first reaction', () => {
    expect(toggleReaction({}, 'u1', '👍')).toEqual({ '👍': ['u1'] });
  });
  it('the same emoji again removes it and drops the empty entry', () => {
    expect(toggleReaction({ '👍': ['u1'] }, 'u1', '👍')).toEqual({});
    expect(toggleReaction({ '👍': ['u1', 'u2'] }, 'u1', '👍')).toEqual({ '👍': ['u2'] });
  });
  it('another emoji moves the reaction', () => {
    expect(toggleReaction({ '👍': ['u1', 'u2'] }, 'u1', '❤️')).toEqual({ '👍': ['u2'], '❤️': ['u1'] });
    expect(toggleReaction({ '👍': ['u1'], '❤️': ['u2'] }, 'u1', '❤️')).toEqual({ '❤️': ['u2', 'u1'] });
  });
  it('leaves other users alone and does not mutate its input', () => {
    const before = { '😂': ['u2'], '👍': ['u3'] };
    const after = toggleReaction(before, 'u1', '😂');
    expect(after).toEqual({ '😂': ['u2', 'u1'], '👍': ['u3'] });
    expect(before).toEqual({ '😂': ['u2'], '👍': ['u3'] });
  });
  it('repairs a map where the user appears twice (moves, keeps one)', () => {
    expect(toggleReaction({ '👍': ['u1'], '😮': ['u1'] }, 'u1', '🙏')).toEqual({ '🙏': ['u1'] });
  });
});

describe('myReaction and chips', () => {
  it('finds my emoji', () => {
    expect(myReaction({ '👍': ['u2'], '❤️': ['u1'] }, 'u1')).toBe('❤️');
    expect(myReaction({ '👍': ['u2'] }, 'u1')).toBeNull();
    expect(myReaction({ '👍': ['u2'] }, null)).toBeNull();
  });
  it('one chip per non-empty emoji with its count and whether I reacted', () => {
    expect(reactionChips({ '👍': ['u1', 'u2'], '😢': [], '🙏': ['u3'] }, 'u1')).toEqual([
      { emoji: '👍', count: 2, mine: true },
      { emoji: '🙏', count: 1, mine: false },
    ]);
    expect(reactionChips(null, 'u1')).toEqual([]);
  });
});

describe('the store converges on the server map (reactionsChanged)', () => {
  const base = (): RoomState =>
    [
      { type: 'joined' as const, workspace: workspace([channel('c1')]), user: me, now: 1 },
      {
        type: 'messagesMerged' as const,
        messages: [message(1), message(2)],
        source: 'history' as const,
        page: { channelId: 'c1', hasMore: false },
      },
    ].reduce(roomReducer, initialRoomState());

  it('replaces the whole map, whatever was applied before (missed or reordered events)', () => {
    let s = base();
    s = roomReducer(s, {
      type: 'reactionsChanged',
      channelId: 'c1',
      messageId: 'm1',
      reactions: toggleReaction({}, me.id, '👍'),
    });
    s = roomReducer(s, {
      type: 'reactionsChanged',
      channelId: 'c1',
      messageId: 'm1',
      reactions: { '❤️': ['u-bob'], '👍': ['u-x'] },
    });
    expect(s.messages.c1![0]!.reactions).toEqual({ '❤️': ['u-bob'], '👍': ['u-x'] });
    expect(s.messages.c1![1]!.reactions).toEqual({});
  });
  it('drops empty entries from the map and ignores a message it does not hold', () => {
    let s = base();
    s = roomReducer(s, {
      type: 'reactionsChanged',
      channelId: 'c1',
      messageId: 'm2',
      reactions: { '👍': [], '😮': ['u-bob'] },
    });
    expect(s.messages.c1![1]!.reactions).toEqual({ '😮': ['u-bob'] });
    const same = roomReducer(s, {
      type: 'reactionsChanged',
      channelId: 'c1',
      messageId: 'nope',
      reactions: { '👍': ['u1'] },
    });
    expect(same).toBe(s);
  });
});
