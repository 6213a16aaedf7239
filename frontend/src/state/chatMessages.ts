/**
 * The rows of the chat's message list: confirmed messages (with reply quote, reactions, link preview, edit mark)
 * followed by our own pending sends, each own message with its delivery mark (docs/product/messages.md M6).
 */
import type { Channel, Message, MessageFile, MessageLinkPreview, OnlineUser, RoomUser } from '@ephemera/proto';
import type { PendingMessage, RoomState } from './roomState.ts';
import type { Reactions } from './reactions.ts';

/** sending: not acknowledged yet; sent: stored; delivered: another member of the channel is online; read: one has read it. */
export type DeliveryStatus = 'sending' | 'sent' | 'delivered' | 'read';

export interface ChatMessage {
  key: string;
  id: string | null;
  clientMessageId: string;
  channelId: string;
  seq: number | null;
  authorId: string;
  authorName: string;
  /** the author's current profile picture (namesSlice.ts keeps it current) */
  authorPicture: string | null;
  timestamp: string;
  type: string;
  content: string;
  isEdited: boolean;
  own: boolean;
  /** own messages only: the delivery mark, or failed (not sent, with Retry/Discard) */
  status: DeliveryStatus | 'failed' | null;
  error: string | null;
  replyTo: { messageId: string; content: string; authorName: string } | null;
  reactions: Reactions;
  linkPreview: MessageLinkPreview | null;
  /** image, video, file, voice: the stored file (docs/protocol.md Files) */
  file: MessageFile | null;
}

export interface DeliveryInput {
  /** acknowledged by the server (it has a seq) */
  seq: number | null;
  pendingStatus?: 'sending' | 'failed';
  /** highest read position of any other member of the channel */
  othersReadSeq: number;
  /** another member of the channel is online */
  othersOnline: boolean;
}

/** The mark of one own message. */
export function deliveryStatus({
  seq,
  pendingStatus,
  othersReadSeq,
  othersOnline,
}: DeliveryInput): DeliveryStatus | 'failed' {
  if (pendingStatus) return pendingStatus;
  if (seq === null) return 'sending';
  if (othersReadSeq >= seq) return 'read';
  return othersOnline ? 'delivered' : 'sent';
}

/** Someone other than me who may read the channel is online (everyone for a public channel, members otherwise). */
export function otherMemberOnline(
  online: readonly OnlineUser[],
  channel: Channel | null,
  selfId: string | null | undefined,
): boolean {
  const members = channel && (channel.isPrivate || channel.type === 'dm') ? new Set(channel.memberIds) : null;
  return online.some((u) => u.id !== selfId && (!members || members.has(u.id)));
}

/** Rows of stored messages by message object (messages are immutable in the store: a change is a new object). */
const rowCache = new WeakMap<Message, ChatMessage>();

export interface ChatMessagesInput {
  channel: Channel | null;
  confirmed: readonly Message[] | undefined;
  pending: readonly PendingMessage[];
  me: RoomUser | null;
  online: readonly OnlineUser[];
  othersReadSeq: number;
}

export function chatMessages({
  channel,
  confirmed,
  pending,
  me,
  online,
  othersReadSeq,
}: ChatMessagesInput): ChatMessage[] {
  if (!channel) return [];
  const selfId = me?.id ?? null;
  const othersOnline = otherMemberOnline(online, channel, selfId);
  const list = confirmed ?? [];
  const rows = list.map((m): ChatMessage => {
    const own = Boolean(selfId && m.authorId === selfId);
    const status = own ? deliveryStatus({ seq: m.seq, othersReadSeq, othersOnline }) : null;
    // the same stored message with the same mark gives the same row object, so its MessageItem (memo) does not
    // re-render when something else changes (presence churn in a big room, another message's reaction)
    const cached = rowCache.get(m);
    if (cached && cached.status === status && cached.own === own) return cached;
    const row: ChatMessage = {
      key: m.id,
      id: m.id,
      clientMessageId: m.clientMessageId,
      channelId: m.channelId,
      seq: m.seq,
      authorId: m.authorId,
      authorName: m.authorName,
      authorPicture: m.profilePicture ?? null,
      timestamp: m.timestamp,
      type: m.type,
      content: m.content,
      isEdited: m.isEdited,
      own,
      status,
      error: null,
      replyTo: m.replyTo ?? null,
      reactions: m.reactions ?? {},
      linkPreview: m.linkPreview ?? null,
      file: m.file ?? null,
    };
    rowCache.set(m, row);
    return row;
  });
  for (const p of pending) {
    if (p.channelId !== channel.id) continue;
    // until the server stores it, the quote is the quoted message as we hold it
    const quoted = p.replyTo ? list.find((m) => m.id === p.replyTo!.messageId) : undefined;
    rows.push({
      key: `pending-${p.clientMessageId}`,
      id: null,
      clientMessageId: p.clientMessageId,
      channelId: p.channelId,
      seq: null,
      authorId: selfId ?? '',
      authorName: me?.username ?? '',
      authorPicture: me?.profilePicture ?? null,
      timestamp: p.createdAt,
      type: p.file?.type ?? 'text',
      content: p.content,
      isEdited: false,
      own: true,
      status: p.status,
      error: p.error,
      replyTo: quoted ? { messageId: quoted.id, content: quoted.content, authorName: quoted.authorName } : null,
      reactions: {},
      linkPreview: null,
      file: null,
    });
  }
  return rows;
}

/** The chat's inputs from the room state, for memoising in a component. */
export function chatMessagesOf(state: RoomState, channel: Channel | null): ChatMessagesInput {
  return {
    channel,
    confirmed: channel ? state.messages[channel.id] : undefined,
    pending: state.pending,
    me: state.user,
    online: state.online,
    othersReadSeq: channel ? (state.othersReadSeq[channel.id] ?? 0) : 0,
  };
}
