/** Derived views of the room state (the sidebar's conversation list is in conversationSelectors.ts). */
import type { Channel, Message, RoomUser } from '@ephemera/proto';
import type { PendingMessage, RoomState } from './roomState.ts';

export function totalUnread(state: RoomState): number {
  let n = 0;
  for (const c of state.channels) n += state.unread[c.id] ?? 0;
  return n;
}

export function currentChannel(state: RoomState): Channel | null {
  return state.channels.find((c) => c.id === state.currentChannelId) ?? null;
}

/** Online members of a channel: everyone online for a public channel, online members for a private one. */
export function membersOnline(state: RoomState, channel: Channel | null): number {
  if (!channel) return state.online.length;
  if (!channel.isPrivate) return state.online.length;
  const members = new Set(channel.memberIds);
  return state.online.filter((u) => members.has(u.id)).length;
}

/** One row of the message list: a confirmed message or our own pending one. */
export interface DisplayMessage {
  key: string;
  id: string | null;
  clientMessageId: string;
  seq: number | null;
  authorId: string;
  authorName: string;
  timestamp: string;
  type: string;
  content: string;
  isEdited: boolean;
  own: boolean;
  status: 'sending' | 'failed' | 'sent' | null;
  error: string | null;
}

/** Confirmed messages of a channel followed by our pending ones. */
export function displayMessages(
  channelId: string | null,
  confirmedMessages: readonly Message[] | undefined,
  pendingMessages: readonly PendingMessage[],
  me: RoomUser | null,
): DisplayMessage[] {
  if (!channelId) return [];
  const confirmed = (confirmedMessages ?? []).map((m): DisplayMessage => ({
    key: m.id,
    id: m.id,
    clientMessageId: m.clientMessageId,
    seq: m.seq,
    authorId: m.authorId,
    authorName: m.authorName,
    timestamp: m.timestamp,
    type: m.type,
    content: m.content,
    isEdited: m.isEdited,
    own: Boolean(me && m.authorId === me.id),
    status: me && m.authorId === me.id ? 'sent' : null,
    error: null,
  }));
  const pending = pendingMessages
    .filter((p) => p.channelId === channelId)
    .map((p: PendingMessage): DisplayMessage => ({
      key: `pending-${p.clientMessageId}`,
      id: null,
      clientMessageId: p.clientMessageId,
      seq: null,
      authorId: me?.id ?? '',
      authorName: me?.username ?? '',
      timestamp: p.createdAt,
      type: 'text',
      content: p.content,
      isEdited: false,
      own: true,
      status: p.status,
      error: p.error,
    }));
  return pending.length ? [...confirmed, ...pending] : confirmed;
}
