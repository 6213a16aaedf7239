/**
 * The room's server events turned into store actions, registered by the session once per connection:
 * bindRoomEvents (the join's snapshot, messages, who is online, the room's end: deleted or kicked) and
 * bindConversationEvents (channels, DMs, read positions, presence, profiles, members who left). The chat's events
 * are registered by chatCommands.ts, the administration events by adminCommands.ts. Payloads for another workspace are ignored: a socket carries one room, but a late event from a
 * previous session must not leak into this one.
 */
import { ROOM_ENDED_TEXT, S } from '@ephemera/proto/client';
import type { Message } from '@ephemera/proto';
import type { RoomSocket } from './socket.ts';
import type { RoomAction } from '../state/roomState.ts';
import { MSG_REMOVED } from './commandTexts.ts';

export const MSG_ROOM_DELETED = ROOM_ENDED_TEXT.deleted;

export interface RoomEventSink {
  readonly workspaceId: string;
  dispatch(action: RoomAction): void;
  /** a live message (the session checks the per-room seq for a gap) */
  liveMessage(m: Message): void;
  /** the room is over for this user: deleted (or expired) for everyone, or the user was kicked */
  ended(end: { kind: 'deleted' | 'kicked'; message: string }): void;
  /** the token this session joined with was replaced (a claim, a new owner token): join again with the stored one */
  replaced(): void;
}

export interface EventSink {
  readonly workspaceId: string;
  dispatch(action: RoomAction): void;
  /** a channel left our view (deleted, DM hidden, removed from a private channel): handles the selection rule */
  removeChannel(channelId: string): void;
}

const ours = (sink: EventSink, p: { workspaceId?: string } | null | undefined): boolean =>
  Boolean(p) && (!p!.workspaceId || p!.workspaceId === sink.workspaceId);
const isId = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/** The room's core events: the join's snapshot, history pages, live messages, new channels, who is online, the end. */
export function bindRoomEvents(socket: RoomSocket, sink: RoomEventSink): void {
  const { dispatch } = sink;
  const mine = (p: { workspaceId?: string } | null | undefined) =>
    !p?.workspaceId || p.workspaceId === sink.workspaceId;
  socket.on(S.workspaceJoined, (p) => {
    if (p?.workspace && p?.user) dispatch({ type: 'joined', workspace: p.workspace, user: p.user, now: Date.now() });
  });
  socket.on(S.messagesHistory, (p) => {
    if (!p || !Array.isArray(p.messages)) return;
    dispatch({
      type: 'messagesMerged',
      messages: p.messages,
      source: 'history',
      page: { channelId: p.channelId, hasMore: Boolean(p.hasMore) },
    });
  });
  socket.on(S.message, (m) => sink.liveMessage(m));
  socket.on(S.channelCreated, (channel) => {
    if (channel?.id) dispatch({ type: 'channelAdded', channel });
  });
  socket.on(S.onlineUsers, (p) => {
    if (p && Array.isArray(p.users) && mine(p))
      dispatch({ type: 'onlineUsers', users: p.users, onlineCount: p.onlineCount, next: p.next });
  });
  socket.on(S.userJoined, (p) => {
    if (p?.user?.id) dispatch({ type: 'userJoined', user: p.user });
  });
  socket.on(S.userLeft, (p) => {
    if (p?.userId) dispatch({ type: 'userLeft', userId: p.userId });
  });
  // a big room's joins, leaves and statuses (onlineList.ts, loaded with the first frame: only big rooms send them);
  // the frames are applied in the order they came, as the import's callbacks run in the order they were queued
  socket.on(S.presenceBatch, (p) => {
    if (p?.workspaceId === sink.workspaceId)
      void import('./onlineList.ts').then((m) => m.applyPresenceBatch(p, dispatch));
  });
  socket.on(S.workspaceDeleted, (p) => {
    if (mine(p)) sink.ended({ kind: 'deleted', message: p?.message || MSG_ROOM_DELETED });
  });
  socket.on(S.sessionReplaced, (p) => {
    if (mine(p)) sink.replaced();
  });
  socket.on(S.kicked, (p) => {
    if (mine(p)) sink.ended({ kind: 'kicked', message: p?.reason || MSG_REMOVED });
  });
}

export function bindConversationEvents(socket: RoomSocket, sink: EventSink): void {
  const { dispatch } = sink;
  socket.on(S.channelUpdated, (channel) => {
    if (ours(sink, channel) && isId(channel.id)) dispatch({ type: 'channelUpdated', channel });
  });
  socket.on(S.channelDeleted, (p) => {
    if (ours(sink, p) && isId(p.channelId)) sink.removeChannel(p.channelId);
  });
  socket.on(S.dmDeletedForUser, (p) => {
    if (ours(sink, p) && isId(p.channelId)) sink.removeChannel(p.channelId);
  });
  socket.on(S.autoOpenDm, (p) => {
    if (ours(sink, p) && p.channel?.id) dispatch({ type: 'dmOpened', channel: p.channel });
  });
  socket.on(S.readPositionUpdated, (p) => {
    if (ours(sink, p) && isId(p.channelId) && isId(p.userId) && typeof p.seq === 'number') {
      dispatch({ type: 'readPositionUpdated', channelId: p.channelId, userId: p.userId, seq: p.seq });
    }
  });
  socket.on(S.userPresenceUpdated, (p) => {
    if (ours(sink, p) && isId(p.userId) && p.status)
      dispatch({ type: 'presenceUpdated', userId: p.userId, status: p.status });
  });
  socket.on(S.userProfileUpdated, (p) => {
    if (ours(sink, p) && isId(p.userId) && typeof p.username === 'string') {
      dispatch({
        type: 'profileUpdated',
        userId: p.userId,
        username: p.username,
        profilePicture: p.profilePicture ?? null,
      });
    }
  });
  socket.on(S.userLeft, (p) => {
    if (ours(sink, p) && isId(p.userId) && p.membershipEnded) dispatch({ type: 'memberLeft', userId: p.userId });
  });
}
