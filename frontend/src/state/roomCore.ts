/**
 * The room state's shape and the merges the core reducer (roomState.ts) and the slices share. A file of its own so
 * the slices import it, not roomState.ts, which imports them to run them (SLICES).
 */
import type { Channel, Message, OnlineUser, RoomUser, Workspace } from '@ephemera/proto';
import { mentionsMember } from '../lib/mentions.ts';

export type ConnectionStatus = 'connecting' | 'joining' | 'joined' | 'reconnecting';

export interface PendingMessage {
  clientMessageId: string;
  channelId: string;
  content: string;
  createdAt: string;
  status: 'sending' | 'failed';
  error: string | null;
  /** send-message's replyTo: only the quoted message's id (the server stores the quote) */
  replyTo?: { messageId: string } | null;
  /** send-message's linkPreview: only the address (the server fetches the preview itself) */
  linkPreview?: { url: string } | null;
  /** an uploaded file's message (docs/protocol.md Files): the upload's id and the message type */
  file?: { id: string; type: 'file' | 'image' | 'video' | 'voice' } | null;
}

export interface RoomState {
  connection: { status: ConnectionStatus; error: string | null };
  /** true once join-workspace succeeded in this page session */
  everJoined: boolean;
  workspace: Workspace | null;
  user: RoomUser | null;
  channels: Channel[];
  currentChannelId: string | null;
  /** confirmed messages per channel, ascending seq, unique ids */
  messages: Record<string, Message[]>;
  hasMore: Record<string, boolean>;
  /** the channel's latest page has arrived (join-channel ack or messages-history) */
  latestLoaded: Record<string, boolean>;
  loadingOlder: Record<string, boolean>;
  pending: PendingMessage[];
  unread: Record<string, number>;
  /** of the unread messages per channel, those that mention the reader (docs/product/messages.md, Mentions) */
  mentions: Record<string, number>;
  /** the online users loaded: all of them, or in a big room the pages fetched so far plus those who came since */
  online: OnlineUser[];
  /** how many are online in the whole room (x of x/max); onlineSlice.ts */
  onlineCount: number;
  /** the id the online list's next page starts after; null: the whole list is loaded */
  onlineNext: string | null;
  /** a big room's public channels: how many type beyond the typers shown, and when that was said */
  typingOthers: Record<string, { others: number; at: number }>;
  /** highest per-room message seq seen so far */
  lastSeq: number;
  /** when this page session first joined (ms); resynced messages older than this never count as unread */
  sessionStartedAt: number;
  notice: string | null;
  /** the user's own read position per channel (highest seq read), from summaries, mark-read and other devices */
  readSeq: Record<string, number>;
  /** the highest read position of any other member per channel (delivery marks: own messages up to it are read) */
  othersReadSeq: Record<string, number>;
  /** who is typing where: channelId -> userId -> { username, at (ms) }; entries expire after LIMITS.typingExpireMs */
  typing: Record<string, Record<string, { username: string; at: number }>>;
}

/**
 * Where merged messages come from:
 * live: the message broadcast; ack: our own send acknowledged; sync: resync after reconnect or a seq gap;
 * history: a channel's latest page; older: an older page; preview: the last message of a channel for the list.
 */
export type MessageSource = 'live' | 'ack' | 'sync' | 'history' | 'older' | 'preview';

export function mergeChannels(existing: Channel[], incoming: Channel[]): Channel[] {
  const byId = new Map(existing.map((c) => [c.id, c]));
  for (const c of incoming) byId.set(c.id, c);
  return [...byId.values()];
}

function countsAsUnread(state: RoomState, m: Message, source: MessageSource): boolean {
  if (m.type === 'system') return false;
  if (state.user && m.authorId === state.user.id) return false;
  if (m.channelId === state.currentChannelId) return false;
  if (source === 'live') return true;
  if (source === 'sync') {
    const t = Date.parse(m.timestamp);
    return Number.isFinite(t) && state.sessionStartedAt > 0 && t >= state.sessionStartedAt;
  }
  return false;
}

/** whether a message mentions the reader (text messages only: a file's content is its description) */
export function mentionsReader(state: RoomState, m: Message): boolean {
  return m.type === 'text' && !!state.user && mentionsMember(m.content, state.user.username);
}

/** Merge confirmed messages: dedupe by id, keep seq order, settle pending copies by clientMessageId. */
export function mergeMessages(
  state: RoomState,
  incoming: readonly Message[],
  source: MessageSource,
  page?: { channelId: string; hasMore: boolean },
): RoomState {
  const messages = { ...state.messages };
  const unread = { ...state.unread };
  const mentions = { ...state.mentions };
  const touched = new Set<string>();
  const seen = new Map<string, Set<string>>();
  const settled = new Set<string>();
  /** channels where a message went in out of order (a page of older ones, a late one): sorted at the end */
  const unordered = new Set<string>();
  let lastSeq = state.lastSeq;
  let changed = false;

  const idsOf = (channelId: string) => {
    let s = seen.get(channelId);
    if (!s) {
      s = new Set((messages[channelId] ?? []).map((m) => m.id));
      seen.set(channelId, s);
    }
    return s;
  };

  for (const m of incoming) {
    if (!m || typeof m.id !== 'string' || typeof m.channelId !== 'string') continue;
    if (m.seq > lastSeq) lastSeq = m.seq;
    if (m.clientMessageId) settled.add(m.clientMessageId);
    // The live case: newer than every message held in its channel (seq is unique and grows), so it cannot be one
    // we hold and it goes at the end: no id set and no sort over a long history (10,000 held messages) per message.
    const held = messages[m.channelId];
    const newest = held?.[held.length - 1];
    const appends = newest !== undefined && m.seq > newest.seq;
    if (!appends || seen.has(m.channelId)) {
      const ids = idsOf(m.channelId);
      if (ids.has(m.id)) continue;
      ids.add(m.id);
    }
    if (!touched.has(m.channelId)) {
      messages[m.channelId] = (held ?? []).slice();
      touched.add(m.channelId);
    }
    if (!appends) unordered.add(m.channelId);
    messages[m.channelId]!.push(m);
    changed = true;
    if (countsAsUnread(state, m, source)) {
      unread[m.channelId] = (unread[m.channelId] ?? 0) + 1;
      if (mentionsReader(state, m)) mentions[m.channelId] = (mentions[m.channelId] ?? 0) + 1;
    }
  }
  for (const ch of unordered) messages[ch]!.sort((a, b) => a.seq - b.seq);

  const ownId = state.user?.id;
  const isSettled = (p: PendingMessage) =>
    settled.has(p.clientMessageId) &&
    incoming.some((m) => m.clientMessageId === p.clientMessageId && (!ownId || m.authorId === ownId));
  const pending = state.pending.some(isSettled) ? state.pending.filter((p) => !isSettled(p)) : state.pending;

  let hasMore = state.hasMore;
  if (page) {
    const prev = state.hasMore[page.channelId];
    let next = page.hasMore;
    if (source === 'history' || source === 'preview') {
      // a latest page only speaks for older history if it reaches at least as far back as what we hold
      const pageOldest = Math.min(...incoming.filter((m) => m.channelId === page.channelId).map((m) => m.seq));
      const heldOldest = state.messages[page.channelId]?.[0]?.seq;
      if (prev !== undefined && heldOldest !== undefined && !(pageOldest <= heldOldest)) next = prev;
    }
    if (prev !== next) hasMore = { ...state.hasMore, [page.channelId]: next };
  }

  const latestLoaded =
    page && source === 'history' && !state.latestLoaded[page.channelId]
      ? { ...state.latestLoaded, [page.channelId]: true }
      : state.latestLoaded;

  if (
    !changed &&
    lastSeq === state.lastSeq &&
    pending === state.pending &&
    hasMore === state.hasMore &&
    latestLoaded === state.latestLoaded
  )
    return state;
  return {
    ...state,
    latestLoaded,
    messages: changed ? messages : state.messages,
    unread: changed ? unread : state.unread,
    mentions: changed ? mentions : state.mentions,
    pending,
    lastSeq,
    hasMore,
  };
}
