/**
 * The socket commands. The gateway has no domain logic: a command the room or messaging owns is dispatched from its
 * row of the command table (proto/src/commands.ts): the session established by join-workspace on this connection is
 * the actor, and the owner's answer is the ack's data (or its `answer` field). Hand-written below are only the
 * commands with gateway work of their own: the session (join, leave, profile), presence, typing, calls, history.
 * Broadcasts do not happen here: they come from the event log (fanout.ts) or the presence bus, so every replica
 * sends the same thing. Who may call what is the authorization table (proto/src/authz.ts): the gateway refuses
 * anonymous sockets (gateway.ts); every event is then checked under its own row by the service that owns the
 * caller's role (room, messaging; for calls, typing and presence the room service, asked before acting).
 */
import {
  C,
  S,
  COMMANDS,
  DomainError,
  channelAudience,
  commandMethod,
  dispatchedCommands,
  type AckData,
  type ClientEventName,
  type DispatchedCommand,
  type GatewayCommand,
  type ParsedClientPayload,
  type SessionActor,
  type RoomApi,
  type MessagingApi,
  type PresenceApi,
  type OnlineUser,
} from '@ephemera/proto';
import { sha256 } from '@ephemera/platform';
import { workspaceRoom, userRoom } from './rooms.ts';
import type { Calls } from './calls.ts';
import { bigRoomOptions, type BigRoomOptions } from './coalesce.ts';
import type { GatewaySocket as Socket, SocketData } from './socket-types.ts';

export type { SocketData } from './socket-types.ts';

export interface CommandDeps {
  rooms: RoomApi;
  messaging: MessagingApi;
  presence: PresenceApi;
  gatewayId: string;
  calls: Calls;
  /** big rooms' thresholds (default BIG_ROOM); tests lower them */
  bigRoom?: Partial<BigRoomOptions>;
}

type Handler<E extends ClientEventName> = (
  socket: Socket,
  payload: ParsedClientPayload<E>,
  session: SessionActor | null,
) => Promise<AckData<E>>;

function requireSession(session: SessionActor | null): SessionActor {
  if (!session) throw new DomainError('NOT_AUTHENTICATED');
  return session;
}

/** The session's own room and user: payload fields that name them are never trusted, only compared. */
function own(session: SessionActor | null, claimed: { workspaceId?: string; userId?: string }): SessionActor {
  const s = requireSession(session);
  if (claimed.workspaceId !== undefined && claimed.workspaceId !== s.workspaceId) throw new DomainError('FORBIDDEN');
  if (claimed.userId !== undefined && claimed.userId !== s.userId) throw new DomainError('FORBIDDEN');
  return s;
}

type AnyHandler = (socket: Socket, payload: unknown, session: SessionActor | null) => Promise<object>;

/** A command the room or messaging owns, from its row: own session as the actor, the owner's answer as the ack. */
function dispatched(deps: CommandDeps, name: ClientEventName): AnyHandler {
  const row: { owner: string; answer?: string; userIdNamesTarget?: true } = COMMANDS[name];
  const owner = (row.owner === 'room' ? deps.rooms : deps.messaging) as unknown as Record<
    string,
    (actor: SessionActor, input: unknown) => Promise<unknown>
  >;
  const method = commandMethod(name);
  return async (_socket, payload, session) => {
    const { workspaceId, userId } = payload as { workspaceId?: string; userId?: string };
    const actor = own(session, { workspaceId, userId: row.userIdNamesTarget ? undefined : userId });
    const answer = await owner[method](actor, payload);
    return row.answer ? { [row.answer]: answer } : ((answer ?? {}) as object);
  };
}

export function commandHandlers(deps: CommandDeps): { [E in ClientEventName]: Handler<E> } {
  const fromRows = Object.fromEntries(dispatchedCommands().map((name) => [name, dispatched(deps, name)]));
  return { ...(fromRows as { [E in DispatchedCommand]: Handler<E> }), ...gatewayHandlers(deps) };
}

/** The commands with work of the gateway's own (owner `gateway`, or `gatewayWork` in their row). */
function gatewayHandlers(deps: CommandDeps): { [E in GatewayCommand]: Handler<E> } {
  const { rooms, messaging, presence, calls } = deps;

  async function leave(socket: Socket, session: SessionActor): Promise<void> {
    await stopTyping(socket, session, presence);
    socket.data.session = null;
    void socket.leave(workspaceRoom(session.workspaceId));
    void socket.leave(userRoom(session.userId));
    await presence.disconnect({ workspaceId: session.workspaceId, userId: session.userId, connectionId: socket.id });
  }

  /**
   * One socket's typing commands are applied in the order they came: each waits for the one before, since the
   * channel lookup of a start could otherwise finish after the stop that followed it (the stop then finds nothing
   * to stop, and the indicator stays until it expires).
   */
  function setTyping(socket: Socket, actor: SessionActor, channelId: string, typing: boolean): Promise<void> {
    const data = socket.data as SocketData & { typingQueue?: Promise<unknown> };
    const run = (data.typingQueue ?? Promise.resolve())
      .catch(() => {})
      .then(() => applyTyping(socket, actor, channelId, typing));
    data.typingQueue = run;
    return run;
  }

  async function applyTyping(socket: Socket, actor: SessionActor, channelId: string, typing: boolean): Promise<void> {
    const data = socket.data as SocketData;
    // Every start and every stop is checked by the room service under its own row (and the channel rule). A stop of
    // what this socket started is told to the audience its start was told, who are the ones seeing the indicator.
    const { channel } = await rooms.authorizePresence(actor, {
      event: typing ? C.typingStart : C.typingStop,
      channelId,
    });
    const started = typing ? undefined : data.typingIn?.get(channelId);
    const audience = started ?? channelAudience(channel!);
    data.typingIn ??= new Map();
    if (typing) data.typingIn.set(channelId, audience);
    else data.typingIn.delete(channelId);
    await presence.typing({
      workspaceId: actor.workspaceId,
      channelId,
      userId: actor.userId,
      username: actor.username,
      typing,
      audience,
    });
  }

  return {
    [C.joinWorkspace]: async (socket, payload, current) => {
      const { user, workspace } = await rooms.authenticate(payload);
      if (current) await leave(socket, current);
      const session: SessionActor = { workspaceId: workspace.id, userId: user.id, username: user.username };
      socket.data.session = session;
      socket.data.tokenHash = sha256(payload.userToken);
      void socket.join([workspaceRoom(workspace.id), userRoom(user.id)]);
      const presenceUser: OnlineUser = {
        id: user.id,
        username: user.username,
        isAdmin: user.isAdmin,
        presenceStatus: 'online',
      };
      socket.data.presenceUser = presenceUser;
      const { online, onlineCount, next } = await presence.connect({
        workspaceId: workspace.id,
        connectionId: socket.id,
        gatewayId: deps.gatewayId,
        user: presenceUser,
        firstPage: bigRoomOptions(deps.bigRoom).onlinePageSize,
      });
      socket.emit(S.workspaceJoined, { workspace, user });
      socket.emit(S.onlineUsers, { workspaceId: workspace.id, users: online, onlineCount, next });
      return { user, workspace };
    },

    [C.joinChannel]: async (socket, payload, session) => {
      const page = await messaging.joinChannel(requireSession(session), payload);
      socket.emit(S.messagesHistory, page);
      return page;
    },

    [C.leaveWorkspace]: async (socket, payload, session) => {
      const s = own(session, payload);
      // This socket first: the member.left fan-out then ends the user's other sockets on every replica, not this one.
      await leave(socket, s);
      await rooms.leaveWorkspace(s, payload);
      return {};
    },

    [C.typingStart]: async (socket, payload, session) => {
      await setTyping(socket, own(session, payload), payload.channelId, true);
      return {};
    },
    [C.typingStop]: async (socket, payload, session) => {
      await setTyping(socket, own(session, payload), payload.channelId, false);
      return {};
    },
    // a big room's join sends the online list's first page: the rest on demand (coalesce.ts, docs/protocol.md)
    [C.fetchOnlineUsers]: async (_socket, payload, session) => {
      const s = own(session, payload);
      await rooms.authorizePresence(s, { event: C.fetchOnlineUsers });
      return presence.onlinePage({ workspaceId: s.workspaceId, after: payload.after ?? null, limit: payload.limit });
    },
    [C.updatePresence]: async (_socket, payload, session) => {
      const s = own(session, payload);
      await rooms.authorizePresence(s, { event: C.updatePresence });
      await presence.setStatus({ workspaceId: s.workspaceId, userId: s.userId, status: payload.status });
      return { status: payload.status };
    },
    // calls: the call module keeps the call (ephemeral store) and relays over the bus (calls.ts)
    [C.startCall]: async (socket, payload, session) => calls.startCall(socket, requireSession(session), payload),
    [C.acceptCall]: async (socket, payload, session) => calls.acceptCall(socket, requireSession(session), payload),
    [C.rejectCall]: async (socket, payload, session) => calls.rejectCall(socket, requireSession(session), payload),
    [C.endCall]: async (socket, payload, session) => calls.endCall(socket, requireSession(session), payload),
    [C.webrtcSignal]: async (socket, payload, session) => calls.signal(socket, requireSession(session), payload),

    [C.updateProfile]: async (socket, payload, session) => {
      const s = own(session, payload);
      const user = await rooms.updateProfile(s, payload);
      // Later commands on this connection act under the new name (typing indicators, message author names).
      socket.data.session = { ...s, username: user.username };
      return { user };
    },
  };
}

/** A socket that goes (disconnect, leave) stops typing everywhere it was typing. */
export async function stopTyping(socket: Socket, session: SessionActor, presence?: PresenceApi): Promise<void> {
  const data = socket.data as SocketData;
  const typingIn = data.typingIn;
  if (!typingIn || typingIn.size === 0 || !presence) {
    data.typingIn?.clear();
    return;
  }
  data.typingIn = new Map();
  await Promise.all(
    [...typingIn].map(([channelId, audience]) =>
      presence.typing({
        workspaceId: session.workspaceId,
        channelId,
        userId: session.userId,
        username: session.username,
        typing: false,
        audience,
      }),
    ),
  );
}
