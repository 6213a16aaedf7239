/**
 * The gateway's Socket.IO server and sockets, typed with proto's event maps: what a client may send (ClientEvents,
 * with its ack) and every event the gateway emits (ServerEvents), so an emit with a wrong name or payload does not
 * compile. The frontend's socket uses the same maps (frontend/src/lib/socket.ts).
 */
import type { Server, Socket } from 'socket.io';
import type { Audience, ClientEvents, OnlineUser, ServerEvents, SessionActor } from '@ephemera/proto';

export interface SocketData {
  session: SessionActor | null;
  /** channels this socket said it is typing in: a vanished client stops typing when its socket goes */
  typingIn?: Map<string, Audience>;
  /** as given to presence.connect: the heartbeat connects the socket again if the presence store lost it */
  presenceUser?: OnlineUser;
  /** sha256 of the member token the session was joined with: a replaced token ends it (fanout.ts) */
  tokenHash?: string;
}

/** no events between gateway replicas over Socket.IO's adapter (they share the log and the presence bus instead) */
type InterServerEvents = Record<string, never>;

export type GatewayServer = Server<ClientEvents, ServerEvents, InterServerEvents, SocketData>;
export type GatewaySocket = Socket<ClientEvents, ServerEvents, InterServerEvents, SocketData>;
