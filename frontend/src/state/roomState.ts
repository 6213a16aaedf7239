/**
 * The room's client state: a pure reducer (messages by channel, dedupe by id, pending sends, unread, presence).
 * roomReducer runs the core cases below, then each slice (conversationsSlice.ts: channels, DMs, read positions and
 * summaries; peopleSlice.ts: presence, profiles, typing; messageEventsSlice.ts: edits, deletions, reactions).
 * A new feature adds its actions to a slice (or a new slice in SLICES) rather than to the core switch.
 */
import type { Channel, Message, OnlineUser, RoomUser, Workspace } from '@ephemera/proto';
import { conversationsReducer, type ConversationsAction } from './conversationsSlice.ts';
import { peopleReducer, type PeopleAction } from './peopleSlice.ts';
import { messageEventsReducer, type MessageEventsAction } from './messageEventsSlice.ts';
import { messageRefreshReducer } from './messageRefreshSlice.ts';
import { roomAdminReducer, type RoomAdminAction } from './roomAdminSlice.ts';

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
  online: OnlineUser[];
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

export type CoreAction =
  | { type: 'connection'; status: ConnectionStatus; error?: string | null }
  | { type: 'connectionError'; error: string | null }
  | { type: 'joined'; workspace: Workspace; user: RoomUser; now: number }
  | { type: 'channelAdded'; channel: Channel }
  | { type: 'channelSelected'; channelId: string | null }
  | { type: 'messagesMerged'; messages: Message[]; source: MessageSource; page?: { channelId: string; hasMore: boolean } }
  | { type: 'seqSeen'; seq: number }
  | { type: 'olderLoading'; channelId: string; loading: boolean }
  | { type: 'pendingAdded'; pending: PendingMessage }
  | { type: 'pendingStatus'; clientMessageId: string; status: PendingMessage['status']; error?: string | null }
  | { type: 'pendingRemoved'; clientMessageId: string }
  | { type: 'onlineUsers'; users: OnlineUser[] }
  | { type: 'userJoined'; user: OnlineUser }
  | { type: 'userLeft'; userId: string }
  | { type: 'notice'; message: string | null };

export type RoomAction = CoreAction | ConversationsAction | PeopleAction | MessageEventsAction | RoomAdminAction;

export function initialRoomState(): RoomState {
  return {
    connection: { status: 'connecting', error: null },
    everJoined: false,
    workspace: null,
    user: null,
    channels: [],
    currentChannelId: null,
    messages: {},
    hasMore: {},
    latestLoaded: {},
    loadingOlder: {},
    pending: [],
    unread: {},
    online: [],
    lastSeq: 0,
    sessionStartedAt: 0,
    notice: null,
    readSeq: {},
    othersReadSeq: {},
    typing: {},
  };
}

type SliceReducer = (state: RoomState, action: RoomAction) => RoomState;
/** Each slice returns the state unchanged for actions it does not handle. */
const SLICES: SliceReducer[] = [coreReducer, conversationsReducer, peopleReducer, messageEventsReducer, messageRefreshReducer, roomAdminReducer];

export function roomReducer(state: RoomState, action: RoomAction): RoomState {
  let next = state;
  for (const slice of SLICES) next = slice(next, action);
  return next;
}

function coreReducer(state: RoomState, action: RoomAction): RoomState {
  switch (action.type) {
    case 'connection':
      return { ...state, connection: { status: action.status, error: action.error ?? null } };
    case 'connectionError':
      return { ...state, connection: { ...state.connection, error: action.error } };
    case 'joined': {
      const channels = mergeChannels([], action.workspace.channels ?? []);
      const current = state.currentChannelId && channels.some((c) => c.id === state.currentChannelId) ? state.currentChannelId : null;
      return {
        ...state,
        everJoined: true,
        workspace: action.workspace,
        user: action.user,
        channels,
        currentChannelId: current,
        sessionStartedAt: state.sessionStartedAt || action.now,
        connection: { status: 'joined', error: null },
      };
    }
    case 'channelAdded':
      if (state.workspace && action.channel.workspaceId && action.channel.workspaceId !== state.workspace.id) return state;
      return { ...state, channels: mergeChannels(state.channels, [action.channel]) };
    case 'channelSelected': {
      if (action.channelId === state.currentChannelId && !(action.channelId && state.unread[action.channelId])) return state;
      const unread = { ...state.unread };
      if (action.channelId) delete unread[action.channelId];
      return { ...state, currentChannelId: action.channelId, unread };
    }
    case 'messagesMerged':
      return mergeMessages(state, action.messages, action.source, action.page);
    case 'seqSeen':
      return action.seq > state.lastSeq ? { ...state, lastSeq: action.seq } : state;
    case 'olderLoading':
      return { ...state, loadingOlder: { ...state.loadingOlder, [action.channelId]: action.loading } };
    case 'pendingAdded':
      if (state.pending.some((p) => p.clientMessageId === action.pending.clientMessageId)) return state;
      return { ...state, pending: [...state.pending, action.pending] };
    case 'pendingStatus': {
      const i = state.pending.findIndex((p) => p.clientMessageId === action.clientMessageId);
      if (i < 0) return state;
      const pending = state.pending.slice();
      pending[i] = { ...pending[i]!, status: action.status, error: action.error ?? null };
      return { ...state, pending };
    }
    case 'pendingRemoved':
      return { ...state, pending: state.pending.filter((p) => p.clientMessageId !== action.clientMessageId) };
    case 'onlineUsers':
      return { ...state, online: dedupeUsers(action.users) };
    case 'userJoined':
      return { ...state, online: dedupeUsers([...state.online.filter((u) => u.id !== action.user.id), action.user]) };
    case 'userLeft':
      return state.online.some((u) => u.id === action.userId)
        ? { ...state, online: state.online.filter((u) => u.id !== action.userId) }
        : state;
    case 'notice':
      return { ...state, notice: action.message };
    default:
      return state;
  }
}

export function mergeChannels(existing: Channel[], incoming: Channel[]): Channel[] {
  const byId = new Map(existing.map((c) => [c.id, c]));
  for (const c of incoming) byId.set(c.id, c);
  return [...byId.values()];
}

export function dedupeUsers(users: OnlineUser[]): OnlineUser[] {
  const byId = new Map<string, OnlineUser>();
  for (const u of users) byId.set(u.id, u);
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

/** Merge confirmed messages: dedupe by id, keep seq order, settle pending copies by clientMessageId. */
export function mergeMessages(
  state: RoomState,
  incoming: readonly Message[],
  source: MessageSource,
  page?: { channelId: string; hasMore: boolean },
): RoomState {
  const messages = { ...state.messages };
  const unread = { ...state.unread };
  const touched = new Set<string>();
  const seen = new Map<string, Set<string>>();
  const settled = new Set<string>();
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
    const ids = idsOf(m.channelId);
    if (ids.has(m.id)) continue;
    ids.add(m.id);
    if (!touched.has(m.channelId)) {
      messages[m.channelId] = (messages[m.channelId] ?? []).slice();
      touched.add(m.channelId);
    }
    messages[m.channelId]!.push(m);
    changed = true;
    if (countsAsUnread(state, m, source)) unread[m.channelId] = (unread[m.channelId] ?? 0) + 1;
  }
  for (const ch of touched) messages[ch]!.sort((a, b) => a.seq - b.seq);

  const ownId = state.user?.id;
  const isSettled = (p: PendingMessage) => settled.has(p.clientMessageId)
    && incoming.some((m) => m.clientMessageId === p.clientMessageId && (!ownId || m.authorId === ownId));
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

  const latestLoaded = page && source === 'history' && !state.latestLoaded[page.channelId]
    ? { ...state.latestLoaded, [page.channelId]: true }
    : state.latestLoaded;

  if (!changed && lastSeq === state.lastSeq && pending === state.pending && hasMore === state.hasMore && latestLoaded === state.latestLoaded) return state;
  return {
    ...state,
    latestLoaded,
    messages: changed ? messages : state.messages,
    unread: changed ? unread : state.unread,
    pending,
    lastSeq,
    hasMore,
  };
}
