/**
 * Service-to-service contracts. The gateway talks to room, messaging and presence only through these
 * interfaces: in embedded mode they are the service objects themselves, in distributed mode HTTP clients
 * (services/platform/src/service-client.ts) that call the internal routes below with trace headers.
 * The actor always comes from the gateway's authenticated connection, never from a client payload.
 */
import { z } from 'zod';
import type { Workspace, RoomUser, Channel } from './models.ts';
import type { OnlinePage, OnlineUser, PresenceStatus, WorkspaceUpdate } from './socket-answers.ts';
import type { CommandPort, SessionActor } from './command-ports.ts';
import type { Tier } from './limits.ts';
import type { Audience } from './message-events.ts';

/**
 * The room service as the gateway calls it: one method per command the room owns (CommandPort, from the command
 * table in commands.ts), and the checks it makes for the gateway's own commands.
 */
export type RoomApi = CommandPort<'room'> & {
  /** Verify a user token for a workspace; returns the user and the workspace as this user may see it. */
  authenticate(input: {
    workspaceId: string;
    userToken: string;
    username: string;
    password?: string | null;
  }): Promise<{ user: RoomUser; workspace: Workspace }>;
  /**
   * May the actor send this presence event? Presence keeps no room read model, so the room service decides for it:
   * the role against the event's own row (SOCKET_AUTHZ[event]), and for typing the channel rule (a channel the actor
   * can read: NOT_A_MEMBER / CHANNEL_NOT_FOUND). Answers the typing channel, whose audience hears the indicator.
   */
  authorizePresence(actor: SessionActor, input: AuthorizePresenceInput): Promise<{ channel: Channel | null }>;
  /** internal only (billing, superadmin, tests): RoomTierChanged */
  changeTier(input: { workspaceId: string; tier: Tier; reason: string }): Promise<WorkspaceUpdate>;
  /**
   * May the actor call (or answer) the other member of this DM? The role (SOCKET_AUTHZ[event]), the channel a DM
   * the actor is in, the peer its other member, and with a callType the room's tier (ENTITLEMENTS). Decides nothing.
   */
  authorizeCall(
    actor: SessionActor,
    input: AuthorizeCallInput,
  ): Promise<{ workspaceId: string; channelId: string; memberIds: string[] }>;
};

export const AuthorizeCallSchema = z.object({
  event: z.enum(['start-call', 'accept-call', 'reject-call', 'end-call', 'webrtc-signal']),
  channelId: z.string().min(1).max(64),
  /** the other party as the client names it (start, accept): must be the DM's other member, still in the room */
  peerId: z.string().min(1).max(64).optional(),
  /** checked against the room's tier when given (start-call, accept-call) */
  callType: z.enum(['audio', 'video']).optional(),
});
export type AuthorizeCallInput = z.infer<typeof AuthorizeCallSchema>;

export const AuthorizePresenceSchema = z.discriminatedUnion('event', [
  z.object({ event: z.enum(['typing-start', 'typing-stop']), channelId: z.string().min(1).max(64) }),
  z.object({ event: z.enum(['update-presence', 'fetch-online-users']) }),
]);
export type AuthorizePresenceInput = z.infer<typeof AuthorizePresenceSchema>;

/** The messaging service as the gateway calls it: one method per command it owns (the command table, commands.ts). */
export type MessagingApi = CommandPort<'messaging'>;

export interface PresenceApi {
  /**
   * A connection of this user is now in the room; returns whether the user was newly online and the online list
   * after the change: its first page of at most `firstPage` users (default BIG_ROOM.onlinePageSize; all of them when
   * they fit) and its count.
   */
  connect(input: {
    workspaceId: string;
    user: OnlineUser;
    connectionId: string;
    gatewayId: string;
    firstPage?: number;
  }): Promise<{ firstConnection: boolean; online: OnlineUser[]; onlineCount: number; next: string | null }>;
  disconnect(input: {
    workspaceId: string;
    userId: string;
    connectionId: string;
  }): Promise<{ lastConnection: boolean }>;
  online(workspaceId: string): Promise<OnlineUser[]>;
  /** The online list's users after `after` (a user id; null: from the start), at most `limit`, in id order. */
  onlinePage(input: { workspaceId: string; after: string | null; limit: number }): Promise<OnlinePage>;
  /** The gateway refreshes its live connections so a crashed replica's connections expire. */
  /**
   * Answers the connections the store no longer holds (Redis restarted and lost them): the gateway connects them
   * again, so presence comes back without the users reconnecting.
   */
  heartbeat(input: {
    gatewayId: string;
    connections: { workspaceId: string; userId: string; connectionId: string }[];
  }): Promise<{ missing: string[] }>;
  /** online / away / busy for every connection of the user; signals user-presence-updated */
  setStatus(input: { workspaceId: string; userId: string; status: PresenceStatus }): Promise<void>;
  /** typing started (refreshed) or stopped in a channel; signals only to the channel's audience */
  typing(input: {
    workspaceId: string;
    channelId: string;
    userId: string;
    username: string;
    typing: boolean;
    audience: Audience;
  }): Promise<void>;
}

/** Presence changes published on the ephemeral bus (Redis pub/sub or in-memory), fanned out by every gateway. */
export const PRESENCE_CHANNEL = 'ephemera.presence';
/** One user per signal: a join costs O(1) per member (docs/product/performance.md W4), never the whole list to everyone. */
export type PresenceSignal =
  | { kind: 'joined'; workspaceId: string; user: OnlineUser }
  | { kind: 'left'; workspaceId: string; userId: string; username: string }
  | { kind: 'status'; workspaceId: string; userId: string; status: PresenceStatus }
  | {
      kind: 'typing';
      workspaceId: string;
      channelId: string;
      userId: string;
      username: string;
      typing: boolean;
      audience: Audience;
    };

/**
 * Call signaling between gateway replicas (services/gateway/src/calls.ts): every replica subscribes and emits to
 * its own sockets of `toUserId` (all of them, or the one socket in the call).
 */
export const CALL_CHANNEL = 'ephemera.calls';
export interface CallBusMessage {
  workspaceId: string;
  toUserId: string;
  /** only this socket of the user (the one in the call); absent: every socket of the user */
  toSocketId?: string;
  /** every socket of the user but this one */
  exceptSocketId?: string;
  /** the call it is about (call-ended: the sockets still holding that call let go of it) */
  callId?: string;
  event: 'incoming-call' | 'call-accepted' | 'call-rejected' | 'call-ended' | 'webrtc-signal';
  /** the event's payload sealed whole under the room key (names, SDP with addresses): Redis sees none of it */
  sealed: string;
}

/** Internal HTTP routes (distributed mode) besides the commands' (commandPath in commands.ts). */
export const INTERNAL = {
  authenticate: '/internal/authenticate',
  authorizePresence: '/internal/authorize-presence',
  changeTier: '/internal/change-tier',
  authorizeCall: '/internal/authorize-call',
  presenceStatus: '/internal/presence/status',
  presenceTyping: '/internal/presence/typing',
  presenceConnect: '/internal/presence/connect',
  presenceDisconnect: '/internal/presence/disconnect',
  presenceOnline: '/internal/presence/online',
  presenceOnlinePage: '/internal/presence/online-page',
  presenceHeartbeat: '/internal/presence/heartbeat',
  /** each service's batch route: the calls of one event-loop turn in one request (platform internal-routes.ts) */
  roomBatch: '/internal/room/batch',
  messagingBatch: '/internal/messaging/batch',
  presenceBatch: '/internal/presence/batch',
} as const;

/**
 * The one authority for room tokens (the room service): whose a member's bearer token is, now. Messaging's file and
 * link-preview routes ask it on every request rather than keep a copy of the token hashes that a rotation (a claim,
 * a new owner token) could leave behind; join-workspace, extend-room and claims use the same check inside it.
 */
export interface RoomTokensApi {
  /**
   * The member `userToken` names, in `workspaceId`'s room when given (another room's token names nobody there).
   * Throws NOT_AUTHENTICATED for any token that is not a current member's: unknown, replaced, left, a room expired or
   * deleted; KICKED for a kicked member's.
   */
  memberOfToken(input: {
    userToken: string;
    workspaceId?: string | null;
  }): Promise<{ workspaceId: string; userId: string; role: 'owner' | 'admin' | 'member' }>;
}
export const ROOM_TOKENS_PREFIX = '/internal/room-tokens';
export const ROOM_TOKENS_METHODS = ['memberOfToken'] as const satisfies readonly (keyof RoomTokensApi)[];
