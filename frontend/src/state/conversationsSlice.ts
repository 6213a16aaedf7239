/**
 * Channels and DMs as the sidebar sees them: renames, deletions (with the spec's selection rule), DMs hidden and
 * (re)opened, and the server's read positions and channel summaries (unread counts that survive a reload and
 * follow the user to another device).
 */
import type { Channel, ChannelSummary } from '@ephemera/proto';
import { mentionsReader, mergeChannels, mergeMessages, type RoomState } from './roomCore.ts';

export type ConversationsAction =
  | { type: 'channelUpdated'; channel: Channel }
  /** channel-deleted, dm-deleted-for-user, removed from a private channel, or our own delete */
  | { type: 'channelRemoved'; channelId: string }
  /** auto-open-dm: a DM someone opened with us, or one we hid that a new message reopened */
  | { type: 'dmOpened'; channel: Channel }
  | { type: 'summariesLoaded'; summaries: ChannelSummary[] }
  | { type: 'readPositionUpdated'; channelId: string; userId: string; seq: number }
  /** the user read the channel up to seq (mark-read sent, or the DM menu's Mark as Read) */
  | { type: 'markedRead'; channelId: string; seq: number };

const byCreation = (a: Channel, b: Channel) =>
  Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.name.localeCompare(b.name);

/** Where to go when the current channel disappears: the first topic channel, otherwise none (docs/product/rooms.md R29). */
export function fallbackChannel(channels: readonly Channel[]): string | null {
  return channels.filter((c) => c.type === 'topic').sort(byCreation)[0]?.id ?? null;
}

/** The highest seq of the messages held for a channel (0 when none). */
export function tailSeq(state: RoomState, channelId: string): number {
  return state.messages[channelId]?.at(-1)?.seq ?? 0;
}

function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  if (!(key in record)) return record;
  const next = { ...record };
  delete next[key];
  return next;
}

function sameWorkspace(state: RoomState, channel: Channel): boolean {
  return !state.workspace || !channel.workspaceId || channel.workspaceId === state.workspace.id;
}

export function conversationsReducer(state: RoomState, action: ConversationsAction | { type: string }): RoomState {
  const a = action as ConversationsAction;
  switch (a.type) {
    case 'channelUpdated':
    case 'dmOpened':
      if (!a.channel?.id || !sameWorkspace(state, a.channel)) return state;
      return { ...state, channels: mergeChannels(state.channels, [a.channel]) };

    case 'channelRemoved': {
      if (!state.channels.some((c) => c.id === a.channelId)) return state;
      const channels = state.channels.filter((c) => c.id !== a.channelId);
      const currentChannelId =
        state.currentChannelId === a.channelId ? fallbackChannel(channels) : state.currentChannelId;
      const unread = without(state.unread, a.channelId);
      const mentions = without(state.mentions, a.channelId);
      // the channel we move to is being viewed: it has nothing unread
      if (currentChannelId && currentChannelId !== state.currentChannelId) {
        delete unread[currentChannelId];
        delete mentions[currentChannelId];
      }
      return {
        ...state,
        channels,
        currentChannelId,
        messages: without(state.messages, a.channelId),
        hasMore: without(state.hasMore, a.channelId),
        latestLoaded: without(state.latestLoaded, a.channelId),
        loadingOlder: without(state.loadingOlder, a.channelId),
        pending: state.pending.some((p) => p.channelId === a.channelId)
          ? state.pending.filter((p) => p.channelId !== a.channelId)
          : state.pending,
        unread,
        mentions,
        typing: without(state.typing, a.channelId),
      };
    }

    case 'summariesLoaded': {
      const summaries = Array.isArray(a.summaries)
        ? a.summaries.filter((s) => s && typeof s.channelId === 'string')
        : [];
      const lastMessages = summaries.flatMap((s) => (s.lastMessage ? [s.lastMessage] : []));
      const merged = mergeMessages(state, lastMessages, 'preview');
      const unread = { ...merged.unread };
      const mentions = { ...merged.mentions };
      const readSeq = { ...merged.readSeq };
      const othersReadSeq = { ...merged.othersReadSeq };
      for (const s of summaries) {
        readSeq[s.channelId] = Math.max(readSeq[s.channelId] ?? 0, s.readSeq ?? 0);
        othersReadSeq[s.channelId] = Math.max(othersReadSeq[s.channelId] ?? 0, s.othersReadSeq ?? 0);
        // messages that arrived after the server counted (above its last message) are added to its count
        const countedTo = s.lastMessage?.seq ?? 0;
        const later =
          countedTo > 0
            ? (merged.messages[s.channelId] ?? []).filter(
                (m) => m.seq > countedTo && m.authorId !== state.user?.id && m.type !== 'system',
              ).length
            : 0;
        const count = s.channelId === state.currentChannelId ? 0 : Math.max(0, Math.floor(s.unreadCount ?? 0)) + later;
        if (count > 0) unread[s.channelId] = count;
        else delete unread[s.channelId];
        // the server's mention count, plus the held messages after what it counted that mention the reader
        const laterMentions = countedTo > 0 ? heldMentions(merged, s.channelId, countedTo) : 0;
        const mentioning = Math.min(count, Math.max(0, Math.floor(s.mentionCount ?? 0)) + laterMentions);
        if (mentioning > 0) mentions[s.channelId] = mentioning;
        else delete mentions[s.channelId];
      }
      return { ...merged, unread, mentions, readSeq, othersReadSeq };
    }

    case 'readPositionUpdated': {
      if (!state.user || typeof a.seq !== 'number') return state;
      if (a.userId !== state.user.id) {
        if ((state.othersReadSeq[a.channelId] ?? 0) >= a.seq) return state;
        return { ...state, othersReadSeq: { ...state.othersReadSeq, [a.channelId]: a.seq } };
      }
      return markRead(state, a.channelId, a.seq);
    }

    case 'markedRead':
      return markRead(state, a.channelId, a.seq);

    default:
      return state;
  }
}

/** Messages held above a read position that mention the reader (and are not the reader's own). */
function heldMentions(state: RoomState, channelId: string, seq: number): number {
  const selfId = state.user?.id;
  return (state.messages[channelId] ?? []).filter(
    (m) => m.seq > seq && m.authorId !== selfId && mentionsReader(state, m),
  ).length;
}

/** Our read position moved to seq (this tab or another device): what is at or below it is no longer unread. */
function markRead(state: RoomState, channelId: string, seq: number): RoomState {
  const before = state.readSeq[channelId] ?? 0;
  const readSeq = seq > before ? { ...state.readSeq, [channelId]: seq } : state.readSeq;
  const count = state.unread[channelId] ?? 0;
  let remaining = count;
  if (count > 0) {
    const selfId = state.user?.id;
    const held = state.messages[channelId] ?? [];
    // messages we hold above the read position that count; the server's count wins when we hold fewer
    const above = held.filter((m) => m.seq > seq && m.authorId !== selfId && m.type !== 'system').length;
    remaining = seq >= tailSeq(state, channelId) ? 0 : Math.min(count, above);
  }
  const mentioned = state.mentions[channelId] ?? 0;
  const mentionsLeft = remaining > 0 ? Math.min(mentioned, remaining, heldMentions(state, channelId, seq)) : 0;
  if (readSeq === state.readSeq && remaining === count && mentionsLeft === mentioned) return state;
  return {
    ...state,
    readSeq,
    unread: remaining > 0 ? { ...state.unread, [channelId]: remaining } : without(state.unread, channelId),
    mentions: mentionsLeft > 0 ? { ...state.mentions, [channelId]: mentionsLeft } : without(state.mentions, channelId),
  };
}
