/**
 * The sidebar's server events (channels, DMs, read positions, presence, profiles, members who left), turned into
 * store actions; the session registers them once per connection. (The chat's events, edits, deletions, reactions
 * and typing, are registered by chatCommands.ts.) Payloads for another workspace are ignored: a socket carries one room, but a late event from a
 * previous session must not leak into this one.
 */
import { S } from '@ephemera/proto/client';
import type { RoomSocket } from './socket.ts';
import type { RoomAction } from '../state/roomState.ts';

export interface EventSink {
  readonly workspaceId: string;
  dispatch(action: RoomAction): void;
  /** a channel left our view (deleted, DM hidden, removed from a private channel): handles the selection rule */
  removeChannel(channelId: string): void;
}

const ours = (sink: EventSink, p: { workspaceId?: string } | null | undefined): boolean =>
  Boolean(p) && (!p!.workspaceId || p!.workspaceId === sink.workspaceId);
const isId = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

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
    if (ours(sink, p) && isId(p.userId) && p.status) dispatch({ type: 'presenceUpdated', userId: p.userId, status: p.status });
  });
  socket.on(S.userProfileUpdated, (p) => {
    if (ours(sink, p) && isId(p.userId) && typeof p.username === 'string') {
      dispatch({ type: 'profileUpdated', userId: p.userId, username: p.username, profilePicture: p.profilePicture ?? null });
    }
  });
  socket.on(S.userLeft, (p) => {
    if (ours(sink, p) && isId(p.userId) && p.membershipEnded) dispatch({ type: 'memberLeft', userId: p.userId });
  });
}
