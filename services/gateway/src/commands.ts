/**
 * The socket commands. The gateway has no domain logic: each handler takes the parsed payload and the session
 * established by join-workspace on this connection, calls the owning service, and returns the ack data.
 * Broadcasts do not happen here: they come from the event log (fanout.ts), so every replica sends the same thing.
 */
import { C, S, LIMITS, DomainError, type ClientAcks, type ClientEventName, type ParsedClientPayload, type SessionActor,
  type RoomApi, type MessagingApi, type PresenceApi } from '@ephemera/proto';
import type { Socket } from 'socket.io';
import { workspaceRoom, userRoom } from './rooms.ts';

export interface CommandDeps { rooms: RoomApi; messaging: MessagingApi; presence: PresenceApi; gatewayId: string }

export interface SocketData { session: SessionActor | null }

type AckData<E extends ClientEventName> = Omit<Extract<ClientAcks[E], { success: true }>, 'success'>;
type Handler<E extends ClientEventName> = (socket: Socket, payload: ParsedClientPayload<E>, session: SessionActor | null) => Promise<AckData<E>>;

function requireSession(session: SessionActor | null): SessionActor {
  if (!session) throw new DomainError('NOT_AUTHENTICATED');
  return session;
}

export function commandHandlers(deps: CommandDeps): { [E in ClientEventName]: Handler<E> } {
  const { rooms, messaging, presence } = deps;

  async function leave(socket: Socket, session: SessionActor): Promise<void> {
    (socket.data as SocketData).session = null;
    socket.leave(workspaceRoom(session.workspaceId));
    socket.leave(userRoom(session.userId));
    await presence.disconnect({ workspaceId: session.workspaceId, userId: session.userId, connectionId: socket.id });
  }

  return {
    [C.joinWorkspace]: async (socket, payload, current) => {
      const { user, workspace } = await rooms.authenticate(payload);
      if (current) await leave(socket, current);
      const session: SessionActor = { workspaceId: workspace.id, userId: user.id, username: user.username };
      (socket.data as SocketData).session = session;
      socket.join([workspaceRoom(workspace.id), userRoom(user.id)]);
      const { online } = await presence.connect({
        workspaceId: workspace.id, connectionId: socket.id, gatewayId: deps.gatewayId,
        user: { id: user.id, username: user.username, isAdmin: user.isAdmin, presenceStatus: 'online' },
      });
      socket.emit(S.workspaceJoined, { workspace, user });
      socket.emit(S.onlineUsers, { workspaceId: workspace.id, users: online });
      return { user, workspace };
    },

    [C.createChannel]: async (_socket, payload, session) => {
      const channel = await rooms.createChannel(requireSession(session), payload);
      return { channel };
    },

    [C.joinChannel]: async (socket, payload, session) => {
      const page = await messaging.fetchMessages(requireSession(session), { channelId: payload.channelId, limit: LIMITS.historyPageSize });
      socket.emit(S.messagesHistory, page);
      return page;
    },

    [C.sendMessage]: async (_socket, payload, session) => {
      const message = await messaging.sendMessage(requireSession(session), payload);
      return { message };
    },

    [C.fetchMessages]: async (_socket, payload, session) => messaging.fetchMessages(requireSession(session), payload),

    [C.syncMessages]: async (_socket, payload, session) => messaging.syncMessages(requireSession(session), payload),

    [C.leaveWorkspace]: async (socket, payload, session) => {
      const s = requireSession(session);
      if (payload.workspaceId !== s.workspaceId) throw new DomainError('FORBIDDEN');
      await leave(socket, s);
      return {};
    },
  };
}
