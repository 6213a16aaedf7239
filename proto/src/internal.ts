/**
 * Service-to-service contracts. The gateway talks to room, messaging and presence only through these
 * interfaces: in embedded mode they are the service objects themselves, in distributed mode HTTP clients
 * (services/platform/src/service-client.ts) that call the internal routes below with trace headers.
 * The actor always comes from the gateway's authenticated connection, never from a client payload.
 */
import { z } from 'zod';
import type { Workspace, RoomUser, Channel, Message, ChannelSummary } from './models.ts';
import type { OnlineUser, PresenceStatus } from './socket.ts';
import type {
  CreateChannelSchema,
  JoinChannelSchema,
  SendMessageSchema,
  FetchMessagesSchema,
  SyncMessagesSchema,
  CreateDmChannelSchema,
  DeleteDmSchema,
  DeleteChannelSchema,
  RenameChannelSchema,
  UpdateChannelMembersSchema,
  EditMessageSchema,
  DeleteMessageSchema,
  AddReactionSchema,
  MarkReadSchema,
  SearchMessagesSchema,
  UpdateProfileSchema,
  RenameWorkspaceSchema,
  SetWorkspacePasswordSchema,
  SetWorkspaceMaxUsersSchema,
  ExtendWorkspaceSchema,
  KickUserSchema,
  BroadcastThemeSchema,
  SetMemberRoleSchema,
} from './socket.ts';
import type { WorkspaceUpdate, RoomTheme } from './socket.ts';
import type { Tier } from './limits.ts';
import type { Audience } from './events.ts';

type In<S extends z.ZodTypeAny> = z.output<S>;

/** Who is acting, as established by join-workspace on this connection. */
export const SessionActorSchema = z.object({
  workspaceId: z.string().min(1),
  userId: z.string().min(1),
  username: z.string().min(1),
});
export type SessionActor = z.infer<typeof SessionActorSchema>;

export interface RoomApi {
  /** Verify a user token for a workspace; returns the user and the workspace as this user may see it. */
  authenticate(input: {
    workspaceId: string;
    userToken: string;
    username: string;
    password?: string | null;
  }): Promise<{ user: RoomUser; workspace: Workspace }>;
  createChannel(actor: SessionActor, input: z.output<typeof CreateChannelSchema>): Promise<Channel>;
  /**
   * May the actor send this presence event? Presence keeps no room read model, so the room service decides for it:
   * the role against the event's own row (SOCKET_AUTHZ[event]), and for typing the channel rule (a channel the actor
   * can read: NOT_A_MEMBER / CHANNEL_NOT_FOUND). Answers the typing channel, whose audience hears the indicator.
   */
  authorizePresence(actor: SessionActor, input: AuthorizePresenceInput): Promise<{ channel: Channel | null }>;
  /** The DM between the actor and the target (created if there is none; reopened for the actor if hidden). */
  createDmChannel(actor: SessionActor, input: In<typeof CreateDmChannelSchema>): Promise<Channel>;
  deleteDm(actor: SessionActor, input: In<typeof DeleteDmSchema>): Promise<{ channelId: string }>;
  deleteChannel(actor: SessionActor, input: In<typeof DeleteChannelSchema>): Promise<{ channelId: string }>;
  renameChannel(actor: SessionActor, input: In<typeof RenameChannelSchema>): Promise<Channel>;
  updateChannelMembers(actor: SessionActor, input: In<typeof UpdateChannelMembersSchema>): Promise<Channel>;
  updateProfile(actor: SessionActor, input: In<typeof UpdateProfileSchema>): Promise<RoomUser>;
  /** The spec's logout: the member leaves, the token stops working, every socket of the user is dropped. */
  leaveWorkspace(actor: SessionActor): Promise<void>;
  // room administration (room-admin.ts)
  renameWorkspace(actor: SessionActor, input: In<typeof RenameWorkspaceSchema>): Promise<WorkspaceUpdate>;
  setWorkspacePassword(actor: SessionActor, input: In<typeof SetWorkspacePasswordSchema>): Promise<WorkspaceUpdate>;
  setWorkspaceMaxUsers(actor: SessionActor, input: In<typeof SetWorkspaceMaxUsersSchema>): Promise<WorkspaceUpdate>;
  extendWorkspace(actor: SessionActor, input: In<typeof ExtendWorkspaceSchema>): Promise<WorkspaceUpdate>;
  /** destroys the room key first, then records workspace.deleted; every service removes its rows */
  deleteWorkspace(actor: SessionActor): Promise<{ workspaceId: string }>;
  kickUser(actor: SessionActor, input: In<typeof KickUserSchema>): Promise<{ userId: string }>;
  setMemberRole(actor: SessionActor, input: In<typeof SetMemberRoleSchema>): Promise<RoomUser>;
  broadcastTheme(actor: SessionActor, input: In<typeof BroadcastThemeSchema>): Promise<RoomTheme>;
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
}

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
  z.object({ event: z.literal('update-presence') }),
]);
export type AuthorizePresenceInput = z.infer<typeof AuthorizePresenceSchema>;

export interface MessagingApi {
  sendMessage(actor: SessionActor, input: z.output<typeof SendMessageSchema>): Promise<Message>;
  fetchMessages(
    actor: SessionActor,
    input: z.output<typeof FetchMessagesSchema>,
  ): Promise<{ channelId: string; messages: Message[]; hasMore: boolean }>;
  /** join-channel: the channel's latest page of history, under join-channel's own row */
  joinChannel(
    actor: SessionActor,
    input: z.output<typeof JoinChannelSchema>,
  ): Promise<{ channelId: string; messages: Message[]; hasMore: boolean }>;
  syncMessages(
    actor: SessionActor,
    input: z.output<typeof SyncMessagesSchema>,
  ): Promise<{ messages: Message[]; hasMore: boolean; lastSeq: number }>;
  editMessage(actor: SessionActor, input: In<typeof EditMessageSchema>): Promise<Message>;
  deleteMessage(actor: SessionActor, input: In<typeof DeleteMessageSchema>): Promise<{ messageId: string }>;
  addReaction(
    actor: SessionActor,
    input: In<typeof AddReactionSchema>,
  ): Promise<{ messageId: string; reactions: Record<string, string[]> }>;
  markRead(actor: SessionActor, input: In<typeof MarkReadSchema>): Promise<{ channelId: string; seq: number }>;
  channelSummaries(actor: SessionActor): Promise<ChannelSummary[]>;
  /** Newest first, at most LIMITS.searchResultsMax, only in channels the actor may read. */
  searchMessages(actor: SessionActor, input: In<typeof SearchMessagesSchema>): Promise<Message[]>;
}

export interface PresenceApi {
  /** A connection of this user is now in the room; returns the online list after the change and whether the user was newly online. */
  connect(input: {
    workspaceId: string;
    user: OnlineUser;
    connectionId: string;
    gatewayId: string;
  }): Promise<{ firstConnection: boolean; online: OnlineUser[] }>;
  disconnect(input: {
    workspaceId: string;
    userId: string;
    connectionId: string;
  }): Promise<{ lastConnection: boolean }>;
  online(workspaceId: string): Promise<OnlineUser[]>;
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

/** Internal HTTP routes (distributed mode). */
export const INTERNAL = {
  authenticate: '/internal/authenticate',
  createChannel: '/internal/create-channel',
  authorizePresence: '/internal/authorize-presence',
  createDmChannel: '/internal/create-dm-channel',
  deleteDm: '/internal/delete-dm',
  deleteChannel: '/internal/delete-channel',
  renameChannel: '/internal/rename-channel',
  updateChannelMembers: '/internal/update-channel-members',
  updateProfile: '/internal/update-profile',
  leaveWorkspace: '/internal/leave-workspace',
  renameWorkspace: '/internal/rename-workspace',
  setWorkspacePassword: '/internal/set-workspace-password',
  setWorkspaceMaxUsers: '/internal/set-workspace-max-users',
  extendWorkspace: '/internal/extend-workspace',
  deleteWorkspace: '/internal/delete-workspace',
  kickUser: '/internal/kick-user',
  broadcastTheme: '/internal/broadcast-theme',
  setMemberRole: '/internal/set-member-role',
  changeTier: '/internal/change-tier',
  authorizeCall: '/internal/authorize-call',
  editMessage: '/internal/edit-message',
  deleteMessage: '/internal/delete-message',
  addReaction: '/internal/add-reaction',
  markRead: '/internal/mark-read',
  channelSummaries: '/internal/channel-summaries',
  searchMessages: '/internal/search-messages',
  presenceStatus: '/internal/presence/status',
  presenceTyping: '/internal/presence/typing',
  sendMessage: '/internal/send-message',
  fetchMessages: '/internal/fetch-messages',
  joinChannel: '/internal/join-channel',
  syncMessages: '/internal/sync-messages',
  presenceConnect: '/internal/presence/connect',
  presenceDisconnect: '/internal/presence/disconnect',
  presenceOnline: '/internal/presence/online',
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
