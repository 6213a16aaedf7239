/**
 * The realtime protocol (Socket.IO), specs/rooms.md section 7 plus what the spec leaves open (documented in
 * docs/protocol.md). Every client->server event has a payload schema and an ack type; the gateway refuses any
 * event that is not in CLIENT_EVENTS.
 */
import { z } from 'zod';
import { LIMITS } from './limits.ts';
import {
  IdSchema, UsernameSchema, ChannelNameSchema, RoomPasswordSchema, MessageTypeSchema, ReplyToSchema,
  type Workspace, type RoomUser, type Channel, type Message,
} from './models.ts';
import type { ErrorBody } from './errors.ts';

/** Client -> server event names. */
export const C = {
  joinWorkspace: 'join-workspace',
  createChannel: 'create-channel',
  joinChannel: 'join-channel',
  sendMessage: 'send-message',
  fetchMessages: 'fetch-messages',
  syncMessages: 'sync-messages',
  leaveWorkspace: 'leave-workspace',
} as const;

/** Server -> client event names. */
export const S = {
  workspaceJoined: 'workspace-joined',
  messagesHistory: 'messages-history',
  message: 'message',
  channelCreated: 'channel-created',
  onlineUsers: 'online-users',
  userJoined: 'user-joined',
  userLeft: 'user-left',
  workspaceDeleted: 'workspace-deleted',
  kicked: 'kicked',
} as const;

export const JoinWorkspaceSchema = z.object({
  workspaceId: IdSchema,
  username: UsernameSchema,
  password: RoomPasswordSchema.nullish(),
  userToken: z.string().min(16).max(200),
});
export const CreateChannelSchema = z.object({
  workspaceId: IdSchema,
  name: ChannelNameSchema,
  type: z.literal('topic').default('topic'),
  isPrivate: z.boolean().default(false),
});
export const JoinChannelSchema = z.object({ channelId: IdSchema });
export const SendMessageSchema = z.object({
  /** client-generated id; a retry with the same id is stored once and acked with the stored message */
  clientMessageId: z.string().min(8).max(64).regex(/^[A-Za-z0-9_-]+$/),
  channelId: IdSchema,
  content: z.string().max(LIMITS.messageMax, `Message is too long (${LIMITS.messageMax} characters max)`)
    .refine((s) => s.trim().length > 0, 'Message cannot be empty'),
  type: MessageTypeSchema.exclude(['system']).default('text'),
  replyTo: ReplyToSchema.nullish(),
});
/** Older history, page by page: messages of one channel with seq < beforeSeq, newest page first. */
export const FetchMessagesSchema = z.object({
  channelId: IdSchema,
  beforeSeq: z.number().int().positive().optional(),
  limit: z.number().int().min(1).max(100).default(LIMITS.historyPageSize),
});
/** Resync after a reconnect: every message of the room visible to the user with seq > afterSeq, in order. */
export const SyncMessagesSchema = z.object({
  workspaceId: IdSchema,
  afterSeq: z.number().int().min(0),
  limit: z.number().int().min(1).max(500).default(500),
});
export const LeaveWorkspaceSchema = z.object({ workspaceId: IdSchema });

export const CLIENT_EVENTS = {
  [C.joinWorkspace]: JoinWorkspaceSchema,
  [C.createChannel]: CreateChannelSchema,
  [C.joinChannel]: JoinChannelSchema,
  [C.sendMessage]: SendMessageSchema,
  [C.fetchMessages]: FetchMessagesSchema,
  [C.syncMessages]: SyncMessagesSchema,
  [C.leaveWorkspace]: LeaveWorkspaceSchema,
} as const;
export type ClientEventName = keyof typeof CLIENT_EVENTS;
export type ClientPayload<E extends ClientEventName> = z.input<(typeof CLIENT_EVENTS)[E]>;
export type ParsedClientPayload<E extends ClientEventName> = z.output<(typeof CLIENT_EVENTS)[E]>;

/** Every ack is either { success: true, ...data } or an ErrorBody with success: false. */
export type Ack<T> = ({ success: true } & T) | (ErrorBody & { success: false });

export interface ClientAcks {
  [C.joinWorkspace]: Ack<{ user: RoomUser; workspace: Workspace; message?: string }>;
  [C.createChannel]: Ack<{ channel: Channel }>;
  [C.joinChannel]: Ack<{ channelId: string; messages: Message[]; hasMore: boolean }>;
  [C.sendMessage]: Ack<{ message: Message }>;
  [C.fetchMessages]: Ack<{ channelId: string; messages: Message[]; hasMore: boolean }>;
  [C.syncMessages]: Ack<{ messages: Message[]; hasMore: boolean; lastSeq: number }>;
  [C.leaveWorkspace]: Ack<{}>;
}

export interface OnlineUser { id: string; username: string; isAdmin: boolean; presenceStatus: 'online' | 'away' | 'busy' }

export interface ServerEvents {
  [S.workspaceJoined]: (p: { workspace: Workspace; user: RoomUser }) => void;
  [S.messagesHistory]: (p: { channelId: string; messages: Message[]; hasMore: boolean }) => void;
  [S.message]: (m: Message) => void;
  [S.channelCreated]: (c: Channel) => void;
  [S.onlineUsers]: (p: { workspaceId: string; users: OnlineUser[] }) => void;
  [S.userJoined]: (p: { workspaceId: string; user: OnlineUser }) => void;
  [S.userLeft]: (p: { workspaceId: string; userId: string; username: string }) => void;
  [S.workspaceDeleted]: (p: { workspaceId: string; message: string }) => void;
  [S.kicked]: (p: { reason: string }) => void;
}

export type ClientEvents = {
  [E in ClientEventName]: (payload: ClientPayload<E>, ack: (a: ClientAcks[E]) => void) => void;
};

/** Spec's client connection settings (specs/rooms.md section 4 "Connection"). */
export const CLIENT_CONNECTION = {
  transports: ['polling', 'websocket'] as string[],
  reconnectionDelay: 1000,
  reconnectionDelayMax: 5000,
  randomizationFactor: 0.5,
  timeout: 20000,
  maxConsecutiveErrors: 5,
  manualRetryAfterMs: 3000,
  joinTimeoutMs: 20000,
  waitForConnectionMs: 10000,
};
