/** Derived views of the room state. */
import type { Channel, Message, RoomUser } from '@ephemera/proto';
import type { PendingMessage, RoomState } from './roomState.ts';

export interface ChannelSummary {
  channel: Channel;
  lastMessage: Message | null;
  unread: number;
  lastActivity: number;
}

const time = (iso: string | undefined) => {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isFinite(t) ? t : 0;
};

/** Topic channels, most recent activity first (last message, else creation time). */
export function channelSummaries(state: RoomState): ChannelSummary[] {
  return state.channels
    .filter((c) => c.type === 'topic')
    .map((channel) => {
      const list = state.messages[channel.id];
      const lastMessage = list && list.length ? list[list.length - 1]! : null;
      return {
        channel,
        lastMessage,
        unread: state.unread[channel.id] ?? 0,
        lastActivity: Math.max(time(lastMessage?.timestamp), time(channel.createdAt)),
      };
    })
    .sort((a, b) => b.lastActivity - a.lastActivity || a.channel.name.localeCompare(b.channel.name));
}

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
