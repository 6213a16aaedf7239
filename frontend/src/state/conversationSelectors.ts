/**
 * The sidebar's derived views (docs/product/rooms.md R15-R19): the conversation list (topic channels and DMs,
 * latest activity first, with previews, times and unread counts), Available to message, presence of a user, who
 * is typing, and the local part of the sidebar search.
 */
import { LIMITS } from '@ephemera/proto/client';
import type { Channel, Message, PresenceStatus, RoomUser } from '@ephemera/proto';
import { formatTime, truncate } from '../lib/format.ts';
import { plainText } from '../lib/markdown.ts';
import type { RoomState } from './roomState.ts';

export const DM_PREVIEW_MAX = 30;
export const CHANNEL_PREVIEW_MAX = 25;
export const SEARCH_SNIPPET_MAX = 60;
export const EMPTY_DM_PREVIEW = 'Tap to start chatting';
export const EMPTY_CHANNEL_PREVIEW = 'No messages yet • Tap to start chatting';

export type UserStatus = PresenceStatus | 'offline';

export interface PersonView {
  id: string;
  username: string;
  profilePicture: string | null;
  isAdmin: boolean;
  isOwner: boolean;
  status: UserStatus;
}

export interface ConversationItem {
  channel: Channel;
  kind: 'topic' | 'dm';
  /** channel name, or the DM partner's username */
  title: string;
  partner: PersonView | null;
  lastMessage: Message | null;
  preview: string;
  /** last-message time, 24-hour HH:MM ('' without a message) */
  time: string;
  unread: number;
  /** of the unread messages, those that mention the reader */
  mentions: number;
  lastActivity: number;
  /** someone (the partner, in a DM) is typing here */
  typing: boolean;
}

const time = (iso: string | undefined) => {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isFinite(t) ? t : 0;
};

/** Caption or file name of a file message (content is structured text: JSON with name, type, size, data, caption). */
function fileLabel(m: Message): { mime: string; label: string } {
  // our server's file messages carry the stored file (docs/protocol.md Files)
  if (m.file) return { mime: m.file.mime, label: m.file.caption?.trim() || m.file.name };
  try {
    const f = JSON.parse(m.content) as { name?: unknown; type?: unknown; caption?: unknown };
    const caption = typeof f.caption === 'string' ? f.caption.trim() : '';
    const name = typeof f.name === 'string' ? f.name : '';
    return { mime: typeof f.type === 'string' ? f.type : '', label: caption || name };
  } catch {
    return { mime: '', label: m.content };
  }
}

/** The one-line preview of a last message: text, Voice message, or a camera/video/document icon with caption or name. */
export function previewText(m: Message | null, kind: 'topic' | 'dm'): string {
  const max = kind === 'dm' ? DM_PREVIEW_MAX : CHANNEL_PREVIEW_MAX;
  if (!m) return kind === 'dm' ? EMPTY_DM_PREVIEW : EMPTY_CHANNEL_PREVIEW;
  switch (m.type) {
    case 'voice':
      return 'Voice message';
    case 'image':
    case 'video':
    case 'file': {
      const { mime, label } = fileLabel(m);
      const kindOf =
        m.type === 'file'
          ? mime.startsWith('image/')
            ? 'image'
            : mime.startsWith('video/')
              ? 'video'
              : 'file'
          : m.type;
      const icon = kindOf === 'image' ? '📷' : kindOf === 'video' ? '🎥' : '📄';
      return `${icon} ${truncate(label || 'File', max)}`;
    }
    default:
      return truncate(plainText(m.content), max);
  }
}

export function statusOf(state: RoomState, userId: string): UserStatus {
  return state.online.find((u) => u.id === userId)?.presenceStatus ?? 'offline';
}

function personOf(state: RoomState, u: RoomUser): PersonView {
  return {
    id: u.id,
    username: u.username,
    profilePicture: u.profilePicture,
    isAdmin: u.isAdmin,
    isOwner: u.isOwner,
    status: statusOf(state, u.id),
  };
}

/** The other member of a DM (null when unknown: e.g. the partner left the room). */
export function dmPartner(state: RoomState, channel: Channel): PersonView | null {
  const selfId = state.user?.id;
  const partnerId = channel.memberIds.find((id) => id !== selfId);
  if (!partnerId) return null;
  const u = state.workspace?.users.find((x) => x.id === partnerId);
  if (u) return personOf(state, u);
  const o = state.online.find((x) => x.id === partnerId);
  return o
    ? {
        id: o.id,
        username: o.username,
        profilePicture: null,
        isAdmin: o.isAdmin,
        isOwner: false,
        status: o.presenceStatus,
      }
    : null;
}

export const FORMER_MEMBER = 'Former member';

/** A DM partner who left the room: the name on their messages we hold, else "Former member" (DMs have no name). */
function departedName(state: RoomState, channel: Channel): string {
  const selfId = state.user?.id;
  const partnerId = channel.memberIds.find((id) => id !== selfId);
  const theirs = [...(state.messages[channel.id] ?? [])].reverse().find((m) => m.authorId === partnerId);
  return theirs?.authorName ?? FORMER_MEMBER;
}

/** Usernames typing in a channel now (entries older than LIMITS.typingExpireMs are stale). */
export function typingNames(state: RoomState, channelId: string, now = Date.now()): string[] {
  const typers = state.typing[channelId];
  if (!typers) return [];
  return Object.entries(typers)
    .filter(([userId, e]) => userId !== state.user?.id && now - e.at < LIMITS.typingExpireMs)
    .map(([, e]) => e.username);
}

/** Topic channels and DMs, latest activity first (last message, else creation time). */
export function conversationList(state: RoomState, now = Date.now()): ConversationItem[] {
  return state.channels
    .map((channel): ConversationItem => {
      const kind = channel.type === 'dm' ? 'dm' : 'topic';
      const list = state.messages[channel.id];
      const lastMessage = list && list.length ? list[list.length - 1]! : null;
      const partner = kind === 'dm' ? dmPartner(state, channel) : null;
      return {
        channel,
        kind,
        title: kind === 'dm' ? (partner?.username ?? departedName(state, channel)) : channel.name,
        partner,
        lastMessage,
        preview: previewText(lastMessage, kind),
        time: lastMessage ? formatTime(lastMessage.timestamp) : '',
        unread: state.unread[channel.id] ?? 0,
        mentions: state.mentions[channel.id] ?? 0,
        lastActivity: Math.max(time(lastMessage?.timestamp), time(channel.createdAt)),
        typing: kind === 'dm' && typingNames(state, channel.id, now).length > 0,
      };
    })
    .sort((a, b) => b.lastActivity - a.lastActivity || a.title.localeCompare(b.title));
}

/** Our DM with a user, if we have one (opening it needs no confirmation; a new one is confirmed first: "DM confirm"). */
export function dmWith(state: RoomState, userId: string): Channel | null {
  const selfId = state.user?.id;
  if (!selfId) return null;
  return (
    state.channels.find((c) => c.type === 'dm' && c.memberIds.includes(userId) && c.memberIds.includes(selfId)) ?? null
  );
}

/** Online users with no DM yet: the room creator first, then admins, then by username. */
export function availableToMessage(state: RoomState): PersonView[] {
  const selfId = state.user?.id;
  const withDm = new Set(state.channels.filter((c) => c.type === 'dm').flatMap((c) => c.memberIds));
  const creator = state.workspace?.createdBy;
  const users = state.workspace?.users ?? [];
  const rank = (p: PersonView) => (p.id === creator ? 0 : p.isAdmin || p.isOwner ? 1 : 2);
  return state.online
    .filter((o) => o.id !== selfId && !withDm.has(o.id))
    .map((o): PersonView => {
      const u = users.find((x) => x.id === o.id);
      return u
        ? personOf(state, u)
        : {
            id: o.id,
            username: o.username,
            profilePicture: null,
            isAdmin: o.isAdmin,
            isOwner: false,
            status: o.presenceStatus,
          };
    })
    .sort((a, b) => rank(a) - rank(b) || a.username.localeCompare(b.username, undefined, { sensitivity: 'base' }));
}

export interface LocalSearchResults {
  conversations: ConversationItem[];
  users: PersonView[];
}

/** Chats & Channels and Users matching the query (case-insensitive substring). */
export function searchLocal(state: RoomState, query: string): LocalSearchResults {
  const q = query.trim().toLowerCase();
  if (!q) return { conversations: [], users: [] };
  const selfId = state.user?.id;
  return {
    conversations: conversationList(state).filter((c) => c.title.toLowerCase().includes(q)),
    users: (state.workspace?.users ?? [])
      .filter((u) => u.id !== selfId && u.username.toLowerCase().includes(q))
      .map((u) => personOf(state, u))
      .sort((a, b) => a.username.localeCompare(b.username, undefined, { sensitivity: 'base' })),
  };
}

export interface MessageHit {
  message: Message;
  snippet: string;
  where: string;
}

/** The server's message hits: newest first, at most 10, snippets cut at 60, with the conversation they are in. */
export function messageHits(state: RoomState, messages: readonly Message[]): MessageHit[] {
  const titles = new Map(conversationList(state).map((c) => [c.channel.id, c.kind === 'dm' ? c.title : `#${c.title}`]));
  return [...messages]
    .filter((m) => m && typeof m.id === 'string')
    .sort((a, b) => time(b.timestamp) - time(a.timestamp) || b.seq - a.seq)
    .slice(0, LIMITS.searchResultsMax)
    .map((message) => ({
      message,
      snippet: truncate(plainText(message.content), SEARCH_SNIPPET_MAX),
      where: titles.get(message.channelId) ?? '',
    }));
}
