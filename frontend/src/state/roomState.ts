/**
 * The room's client state: a pure reducer (messages by channel, dedupe by id, pending sends, unread, presence).
 * roomReducer runs the core cases below, then each slice (conversationsSlice.ts: channels, DMs, read positions and
 * summaries; peopleSlice.ts: presence, profiles, typing; messageEventsSlice.ts: edits, deletions, reactions; namesSlice.ts:
 * current names and pictures on messages and the online list).
 * A new feature adds its actions to a slice (or a new slice in SLICES) rather than to the core switch. The state's
 * shape and the message and channel merges are in roomCore.ts, which the slices import.
 */
import type { Channel, Message, OnlineUser, RoomUser, Workspace } from '@ephemera/proto';
import {
  mergeChannels,
  mergeMessages,
  type ConnectionStatus,
  type MessageSource,
  type PendingMessage,
  type RoomState,
} from './roomCore.ts';
import { conversationsReducer, type ConversationsAction } from './conversationsSlice.ts';
import { peopleReducer, type PeopleAction } from './peopleSlice.ts';
import { messageEventsReducer, type MessageEventsAction } from './messageEventsSlice.ts';
import { messageRefreshReducer } from './messageRefreshSlice.ts';
import { roomAdminReducer, type RoomAdminAction } from './roomAdminSlice.ts';
import { namesReducer } from './namesSlice.ts';
import { onlineReducer, type OnlineAction } from './onlineSlice.ts';

export {
  mergeChannels,
  mergeMessages,
  type ConnectionStatus,
  type MessageSource,
  type PendingMessage,
  type RoomState,
} from './roomCore.ts';

export type CoreAction =
  | { type: 'connection'; status: ConnectionStatus; error?: string | null }
  | { type: 'connectionError'; error: string | null }
  | { type: 'joined'; workspace: Workspace; user: RoomUser; now: number }
  | { type: 'channelAdded'; channel: Channel }
  | { type: 'channelSelected'; channelId: string | null }
  | {
      type: 'messagesMerged';
      messages: Message[];
      source: MessageSource;
      page?: { channelId: string; hasMore: boolean };
    }
  | { type: 'seqSeen'; seq: number }
  | { type: 'olderLoading'; channelId: string; loading: boolean }
  | { type: 'pendingAdded'; pending: PendingMessage }
  | { type: 'pendingStatus'; clientMessageId: string; status: PendingMessage['status']; error?: string | null }
  | { type: 'pendingRemoved'; clientMessageId: string }
  | { type: 'onlineUsers'; users: OnlineUser[]; onlineCount?: number; next?: string | null }
  | { type: 'userJoined'; user: OnlineUser }
  | { type: 'userLeft'; userId: string }
  | { type: 'notice'; message: string | null };

export type RoomAction =
  CoreAction | ConversationsAction | PeopleAction | MessageEventsAction | RoomAdminAction | OnlineAction;

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
    mentions: {},
    online: [],
    onlineCount: 0,
    onlineNext: null,
    typingOthers: {},
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
const SLICES: SliceReducer[] = [
  onlineReducer, // before the core: it counts a join or leave against the list as it was
  coreReducer,
  conversationsReducer,
  peopleReducer,
  messageEventsReducer,
  messageRefreshReducer,
  roomAdminReducer,
  namesReducer,
];

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
      const current =
        state.currentChannelId && channels.some((c) => c.id === state.currentChannelId) ? state.currentChannelId : null;
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
      if (state.workspace && action.channel.workspaceId && action.channel.workspaceId !== state.workspace.id)
        return state;
      return { ...state, channels: mergeChannels(state.channels, [action.channel]) };
    case 'channelSelected': {
      if (action.channelId === state.currentChannelId && !(action.channelId && state.unread[action.channelId]))
        return state;
      const unread = { ...state.unread };
      const mentions = { ...state.mentions };
      if (action.channelId) delete unread[action.channelId];
      if (action.channelId) delete mentions[action.channelId];
      return { ...state, currentChannelId: action.channelId, unread, mentions };
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

export function dedupeUsers(users: OnlineUser[]): OnlineUser[] {
  const byId = new Map<string, OnlineUser>();
  for (const u of users) byId.set(u.id, u);
  return [...byId.values()];
}
