import { describe, expect, it } from 'vitest';
import type { OnlineUser, RoomUser } from '@ephemera/proto';
import { initialRoomState, roomReducer, type RoomAction, type RoomState } from './roomState.ts';
import {
  availableToMessage,
  conversationList,
  dmWith,
  EMPTY_CHANNEL_PREVIEW,
  EMPTY_DM_PREVIEW,
  messageHits,
  previewText,
  searchLocal,
  typingNames,
} from './conversationSelectors.ts';
import { channel, me, message, other, workspace } from './testData.ts';

const run = (actions: RoomAction[], start: RoomState = initialRoomState()) => actions.reduce(roomReducer, start);
const user = (id: string, username: string, extra: Partial<RoomUser> = {}): RoomUser => ({
  ...other,
  id,
  username,
  ...extra,
});
const online = (u: RoomUser, presenceStatus: OnlineUser['presenceStatus'] = 'online'): OnlineUser => ({
  id: u.id,
  username: u.username,
  isAdmin: u.isAdmin,
  presenceStatus,
});
const dm = channel('d1', 'alice-bob', {
  type: 'dm',
  memberIds: [me.id, other.id],
  createdAt: '2025-01-02T00:00:00.000Z',
});

function room(actions: RoomAction[] = []) {
  const ws = { ...workspace([channel('c1', 'general'), channel('c2', 'random'), dm]), createdBy: 'u-zed' };
  ws.users = [me, other, user('u-zed', 'zed'), user('u-amy', 'amy', { isAdmin: true }), user('u-carl', 'Carl')];
  return run([
    { type: 'joined', workspace: ws, user: { ...me, isOwner: false }, now: 1 },
    {
      type: 'onlineUsers',
      users: [
        online(me),
        online(other, 'away'),
        online(ws.users[2]!),
        online(ws.users[3]!),
        online(ws.users[4]!, 'busy'),
      ],
    },
    ...actions,
  ]);
}

describe('conversation list', () => {
  it('channels and DMs together, latest activity first; a DM is titled by its partner with their presence', () => {
    const s = room([
      { type: 'messagesMerged', messages: [message(1, { channelId: 'c2' })], source: 'live' },
      { type: 'messagesMerged', messages: [message(2, { channelId: 'd1' })], source: 'live' },
    ]);
    const list = conversationList(s);
    expect(list.map((c) => c.title)).toEqual(['bob', 'random', 'general']);
    expect(list[0]).toMatchObject({ kind: 'dm', unread: 1, partner: { id: other.id, status: 'away' } });
    expect(list[0]!.time).toMatch(/^\d\d:\d\d$/);
  });
  it('previews: cut at 30 in DMs and 25 in channels; the empty texts', () => {
    const long = 'x'.repeat(40);
    expect(previewText(message(1, { content: long }), 'dm')).toBe(`${'x'.repeat(30)}...`);
    expect(previewText(message(1, { content: long }), 'topic')).toBe(`${'x'.repeat(25)}...`);
    expect(previewText(null, 'dm')).toBe(EMPTY_DM_PREVIEW);
    expect(previewText(null, 'topic')).toBe(EMPTY_CHANNEL_PREVIEW);
    expect(EMPTY_CHANNEL_PREVIEW).toBe('No messages yet • Tap to start chatting');
    expect(EMPTY_DM_PREVIEW).toBe('Tap to start chatting');
  });
  it('file and voice previews', () => {
    expect(previewText(message(1, { type: 'voice', content: '' }), 'dm')).toBe('Voice message');
    const file = (type: string, caption = '') =>
      JSON.stringify({ name: 'report.pdf', type, size: 10, data: '', caption });
    expect(previewText(message(1, { type: 'file', content: file('application/pdf') }), 'dm')).toBe('📄 report.pdf');
    expect(previewText(message(1, { type: 'image', content: file('image/png', 'the view') }), 'dm')).toBe(
      '📷 the view',
    );
    expect(previewText(message(1, { type: 'video', content: file('video/mp4') }), 'topic')).toBe('🎥 report.pdf');
    // our server's file messages: the stored file's caption, else its name
    const stored = (kind: 'image' | 'video' | 'file', caption: string | null) => ({
      id: 'f1',
      kind,
      name: 'clip.mp4',
      mime: kind === 'image' ? 'image/png' : kind === 'video' ? 'video/mp4' : 'application/pdf',
      size: 1,
      caption,
      url: '/api/workspaces/w1/files/f1',
      thumbnailUrl: null,
      durationMs: null,
      width: null,
      height: null,
    });
    expect(previewText(message(1, { type: 'video', content: 'clip.mp4', file: stored('video', null) }), 'dm')).toBe(
      '🎥 clip.mp4',
    );
    expect(previewText(message(1, { type: 'image', content: 'sunset', file: stored('image', 'sunset') }), 'dm')).toBe(
      '📷 sunset',
    );
    expect(previewText(message(1, { type: 'file', content: 'x', file: stored('file', null) }), 'dm')).toBe(
      '📄 clip.mp4',
    );
  });
  it('a DM shows typing... while its partner types (not after expiry)', () => {
    const s = room([{ type: 'typingStarted', channelId: 'd1', userId: other.id, username: 'bob', now: 1000 }]);
    expect(conversationList(s, 2000).find((c) => c.kind === 'dm')?.typing).toBe(true);
    expect(conversationList(s, 60_000).find((c) => c.kind === 'dm')?.typing).toBe(false);
    expect(typingNames(s, 'd1', 2000)).toEqual(['bob']);
  });
});

describe('a DM whose partner left the room', () => {
  it('is titled by the name on their messages, else Former member', () => {
    const withMessage = room([
      { type: 'messagesMerged', messages: [message(1, { channelId: 'd1' })], source: 'live' },
      { type: 'memberLeft', userId: other.id },
    ]);
    expect(conversationList(withMessage).find((c) => c.kind === 'dm')?.title).toBe('bob');
    const without = room([{ type: 'memberLeft', userId: other.id }]);
    expect(conversationList(without).find((c) => c.kind === 'dm')).toMatchObject({
      title: 'Former member',
      partner: null,
    });
  });
});

describe('available to message', () => {
  it('online users with no DM yet: the creator first, then admins, then by username; not ourselves', () => {
    expect(availableToMessage(room()).map((p) => p.username)).toEqual(['zed', 'amy', 'Carl']);
  });
  it('dmWith: our DM with a user opens directly; anyone else needs a new DM (DM confirm)', () => {
    const s = room();
    expect(dmWith(s, other.id)?.id).toBe('d1');
    expect(dmWith(s, 'u-amy')).toBeNull();
    expect(dmWith(initialRoomState(), other.id)).toBeNull();
    // a DM between two other people is not ours
    const theirs = channel('d9', 'x', { type: 'dm', memberIds: ['u-amy', 'u-zed'] });
    expect(dmWith(run([{ type: 'channelAdded', channel: theirs }], s), 'u-amy')).toBeNull();
  });
  it('hiding the DM makes its partner available again; offline users are not listed', () => {
    const s = room([
      { type: 'channelRemoved', channelId: 'd1' },
      { type: 'userLeft', userId: 'u-carl' },
    ]);
    expect(availableToMessage(s).map((p) => p.username)).toEqual(['zed', 'amy', 'bob']);
    expect(availableToMessage(s).find((p) => p.username === 'bob')?.status).toBe('away');
  });
});

describe('search', () => {
  it('Chats & Channels and Users, case-insensitive', () => {
    const s = room();
    const r = searchLocal(s, 'RAN');
    expect(r.conversations.map((c) => c.title)).toEqual(['random']);
    expect(searchLocal(s, 'bo').conversations.map((c) => c.title)).toEqual(['bob']);
    expect(searchLocal(s, 'c').users.map((u) => u.username)).toEqual(['Carl']);
    expect(searchLocal(s, '  ')).toEqual({ conversations: [], users: [] });
  });
  it('message hits: newest first, at most 10, snippets cut at 60, with where they are', () => {
    const s = room();
    const hits = messageHits(
      s,
      Array.from({ length: 14 }, (_, i) =>
        message(i + 1, { content: `${i + 1} ${'y'.repeat(80)}`, channelId: i % 2 ? 'c1' : 'd1' }),
      ),
    );
    expect(hits).toHaveLength(10);
    expect(hits.map((h) => h.message.seq)).toEqual([14, 13, 12, 11, 10, 9, 8, 7, 6, 5]);
    expect(hits[0]!.snippet).toBe(`14 ${'y'.repeat(57)}...`);
    expect(hits[0]!.where).toBe('#general');
    expect(hits[1]!.where).toBe('bob');
  });
});
