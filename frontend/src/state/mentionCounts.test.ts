/** Unread mentions of the reader, counted beside the unread counts (docs/product/messages.md, Mentions). */
import { describe, expect, it } from 'vitest';
import { initialRoomState, roomReducer, type RoomAction, type RoomState } from './roomState.ts';
import { conversationList } from './conversationSelectors.ts';
import { channel, me, message, workspace } from './testData.ts';

const run = (actions: RoomAction[], start: RoomState) => actions.reduce(roomReducer, start);
const joined = () =>
  run(
    [
      {
        type: 'joined',
        workspace: workspace([channel('c1', 'general'), channel('c2', 'random')]),
        user: me,
        now: Date.UTC(2029, 0, 1),
      },
      { type: 'channelSelected', channelId: 'c1' },
    ],
    initialRoomState(),
  );
const live = (seq: number, content: string, extra: Parameters<typeof message>[1] = {}): RoomAction => ({
  type: 'messagesMerged',
  messages: [message(seq, { channelId: 'c2', content, ...extra })],
  source: 'live',
});

describe('unread mentions', () => {
  const arrived = run(
    [
      live(1, 'hi @Alice, look'),
      live(2, 'hi @alicex'),
      live(3, 'mail alice@example.com'),
      live(4, 'ping @bob'),
      live(5, '**@alice** again'),
      live(6, '@alice from me', { authorId: me.id }),
      live(7, '@alice here', { channelId: 'c1' }),
      live(8, '{"name":"@alice.png"}', { type: 'file' }),
    ],
    joined(),
  );
  it('count the unread messages from others that mention the reader, per channel', () => {
    expect(arrived.unread).toEqual({ c2: 6 });
    expect(arrived.mentions).toEqual({ c2: 2 });
    expect(conversationList(arrived).find((c) => c.channel.id === 'c2')?.mentions).toBe(2);
  });
  it('a duplicate never counts twice', () => {
    expect(run([live(1, 'hi @Alice, look')], arrived).mentions).toEqual({ c2: 2 });
  });
  it('opening the channel clears them', () => {
    expect(run([{ type: 'channelSelected', channelId: 'c2' }], arrived).mentions).toEqual({});
  });
  it('reading up to a message keeps only the mentions above it', () => {
    const s = run([{ type: 'markedRead', channelId: 'c2', seq: 2 }], arrived);
    expect(s.mentions).toEqual({ c2: 1 });
    expect(run([{ type: 'markedRead', channelId: 'c2', seq: 8 }], s).mentions).toEqual({});
  });
  it('a removed channel takes its mentions along', () => {
    expect(run([{ type: 'channelRemoved', channelId: 'c2' }], arrived).mentions).toEqual({});
  });
  const loaded = (unreadCount: number, mentionCount: number, readSeq = 5): RoomAction => ({
    type: 'summariesLoaded',
    summaries: [
      {
        channelId: 'c2',
        unreadCount,
        mentionCount,
        lastMessage: message(9, { channelId: 'c2', content: 'see @alice' }),
        readSeq,
        othersReadSeq: 0,
      },
    ],
  });
  it("after a reload, the server's count shows, though the browser holds only the last message", () => {
    const s = run([loaded(4, 3)], joined());
    expect(s.unread).toEqual({ c2: 4 });
    expect(s.mentions).toEqual({ c2: 3 });
    expect(run([loaded(0, 0, 9)], joined()).mentions).toEqual({});
  });
  it('messages that arrived after the server counted add to its count, never above the unread count', () => {
    const s = run([live(10, '@alice again'), live(11, 'no mention'), loaded(3, 2)], joined());
    expect(s.unread).toEqual({ c2: 5 });
    expect(s.mentions).toEqual({ c2: 3 });
    expect(run([loaded(1, 5)], joined()).mentions).toEqual({ c2: 1 });
  });
});
