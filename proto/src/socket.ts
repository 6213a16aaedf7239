/**
 * The realtime protocol (Socket.IO): the events of docs/product/ and the ones this product adds (documented in
 * docs/protocol.md). Every client->server event has a payload schema and an ack type (ClientAcks); its row in the
 * command table (commands.ts) names its schema, and the gateway refuses any event without a row.
 */
import { z } from 'zod';
import { BIG_ROOM, LIMITS } from './limits.ts';
import type { Tier } from './limits.ts';
import { CUSTOM_THEME_FONTS, EXTENSION_HOURS, THEME_IDS, type CustomTheme, type ThemeId } from './tiers.ts';
import {
  IdSchema,
  UsernameSchema,
  ProfileUsernameSchema,
  ChannelNameSchema,
  RoomPasswordSchema,
  MessageTypeSchema,
  PresenceStatusSchema,
  RoomNameSchema,
  type Workspace,
  type RoomUser,
  type Channel,
  type Message,
  type ChannelSummary,
  type WorkspaceSettings,
} from './models.ts';
import type { ErrorBody } from './errors.ts';

export { C, S, CLIENT_CONNECTION } from './names.ts';
import { C, S } from './names.ts';

/**
 * Several spec payloads name the acting user (userId). Identity is the connection's (docs/protocol.md P5): the
 * field is accepted for compatibility and, when present, must be the connection's own user (FORBIDDEN otherwise).
 */
const ClaimedUserId = IdSchema.optional();

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
  /** a private channel's members picked by its creator (the creator is always one) */
  memberIds: z.array(IdSchema).max(500).default([]),
});
export const JoinChannelSchema = z.object({ channelId: IdSchema });
const MessageContentSchema = z
  .string()
  .max(LIMITS.messageMax, `Message is too long (${LIMITS.messageMax} characters max)`)
  .refine((s) => s.trim().length > 0, 'Message cannot be empty');
export const SendMessageSchema = z.object({
  /** client-generated id; a retry with the same id is stored once and acked with the stored message */
  clientMessageId: z
    .string()
    .min(8)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/),
  channelId: IdSchema,
  content: MessageContentSchema,
  type: MessageTypeSchema.exclude(['system']).default('text'),
  /** only the quoted message's id is read: its author and text are taken from the stored message */
  replyTo: z.object({ messageId: IdSchema }).nullish(),
  /** only the url is read: the preview is the server's own fetch of it (POST /api/link-preview/fetch) */
  linkPreview: z.object({ url: z.string().max(2048) }).nullish(),
  /**
   * image, video, file, voice: the id the upload route answered. The server checks it is this sender's upload to
   * this channel, takes the message type from the stored file and the content from its caption or name.
   */
  fileId: IdSchema.nullish(),
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
export const CreateDmChannelSchema = z.object({
  workspaceId: IdSchema,
  targetUserId: IdSchema,
  /** the spec's client sends a display name; DMs are named by their two members, so it is not stored */
  name: z.string().max(200).optional(),
});
export const DeleteDmSchema = z.object({ channelId: IdSchema, workspaceId: IdSchema, userId: ClaimedUserId });
export const DeleteChannelSchema = z.object({ channelId: IdSchema, workspaceId: IdSchema });
export const RenameChannelSchema = z.object({ channelId: IdSchema, workspaceId: IdSchema, newName: ChannelNameSchema });
export const UpdateChannelMembersSchema = z.object({
  channelId: IdSchema,
  workspaceId: IdSchema,
  add: z.array(IdSchema).max(500).default([]),
  remove: z.array(IdSchema).max(500).default([]),
});
export const EditMessageSchema = z.object({
  messageId: IdSchema,
  newContent: z.string().trim().pipe(MessageContentSchema),
  workspaceId: IdSchema,
});
export const DeleteMessageSchema = z.object({ messageId: IdSchema, workspaceId: IdSchema });
export const EmojiSchema = z
  .string()
  .min(1)
  .max(LIMITS.emojiMax)
  .refine(
    (s) => !/[\p{Cc}\s]/u.test(s) && /\p{Extended_Pictographic}|\p{Regional_Indicator}|[#*0-9]\uFE0F?\u20E3/u.test(s),
    'Invalid emoji',
  );
export const AddReactionSchema = z.object({
  messageId: IdSchema,
  emoji: EmojiSchema,
  workspaceId: IdSchema,
  userId: ClaimedUserId,
});
/** The user has read the channel up to seq (ours: read positions are kept by the server). */
export const MarkReadSchema = z.object({ channelId: IdSchema, seq: z.number().int().min(0) });
export const FetchChannelSummariesSchema = z.object({ workspaceId: IdSchema });
export const SearchMessagesSchema = z.object({
  workspaceId: IdSchema,
  query: z.string().trim().min(1, 'Search is empty').max(LIMITS.searchQueryMax),
});
export const TypingStartSchema = z.object({
  channelId: IdSchema,
  userId: ClaimedUserId,
  username: z.string().max(100).optional(),
});
export const TypingStopSchema = z.object({ channelId: IdSchema, userId: ClaimedUserId });
export const UpdatePresenceSchema = z.object({
  workspaceId: IdSchema,
  userId: ClaimedUserId,
  status: PresenceStatusSchema,
});
/** The online list after `after` (a user id; absent: from the start), in the order of user ids. */
export const FetchOnlineUsersSchema = z.object({
  workspaceId: IdSchema,
  after: IdSchema.nullish(),
  limit: z.number().int().min(1).max(BIG_ROOM.onlinePageSize).default(BIG_ROOM.onlinePageSize),
});
export const UpdateProfileSchema = z.object({
  workspaceId: IdSchema,
  userId: ClaimedUserId,
  username: ProfileUsernameSchema.optional(),
  /** a stored picture's address (uploads come with the files issue); null removes it */
  profilePicture: z
    .string()
    .max(2048)
    .regex(/^(https:\/\/|\/api\/)/, 'Please select an image file')
    .nullish(),
});

// ---- room administration ----
export const RenameWorkspaceSchema = z.object({ workspaceId: IdSchema, newName: RoomNameSchema });
/** password null (or empty after trimming) removes it; members already inside stay */
export const SetWorkspacePasswordSchema = z.object({
  workspaceId: IdSchema,
  password: RoomPasswordSchema.nullable().transform((p) => (p ? p : null)),
});
export const MAX_USERS_MESSAGE = 'Please enter a number 2 or higher, or "unlimited"';
/** an integer >= 2, or "unlimited" (case-insensitive) / null for no cap; which of these the tier allows is the room service's rule */
export const SetWorkspaceMaxUsersSchema = z.object({
  workspaceId: IdSchema,
  maxUsers: z.union(
    [
      z.number().int(MAX_USERS_MESSAGE).min(2, MAX_USERS_MESSAGE).max(100_000, MAX_USERS_MESSAGE),
      z
        .string()
        .trim()
        .regex(/^unlimited$/i, MAX_USERS_MESSAGE)
        .transform(() => null),
      z.null(),
    ],
    { error: MAX_USERS_MESSAGE },
  ), // a value of no branch (1.5, 'lots', true) gets the spec's text, not 'Invalid input'
});
export const ExtendWorkspaceSchema = z.object({
  workspaceId: IdSchema,
  additionalHours: z
    .number()
    .int()
    .refine((h) => (EXTENSION_HOURS as readonly number[]).includes(h), 'Choose 7 days or 30 days'),
});
export const DeleteWorkspaceSchema = z.object({ workspaceId: IdSchema });
export const KickUserSchema = z.object({
  workspaceId: IdSchema,
  userId: IdSchema,
  reason: z.string().trim().max(200).optional(),
});
const HexColour = z.string().regex(/^#[0-9A-Fa-f]{6}$/, 'Use a colour like #3B82F6');
export const CustomThemeSchema = z.object({
  primaryColor: HexColour,
  sentMessageColor: HexColour,
  receivedMessageColor: HexColour,
  sentTextColor: HexColour,
  receivedTextColor: HexColour,
  chatBackgroundColor: HexColour,
  /** https only (or empty): members' browsers load it through the signed image proxy (RoomTheme.logoSrc), never directly */
  logoUrl: z
    .string()
    .max(2048)
    .refine((u) => u === '' || /^https:\/\/[^\s"'<>]+$/.test(u), 'The logo must be an https address'),
  fontFamily: z.enum(CUSTOM_THEME_FONTS),
}) satisfies z.ZodType<CustomTheme>;
export const BroadcastThemeSchema = z.object({
  workspaceId: IdSchema,
  themeId: z.enum(THEME_IDS),
  userId: ClaimedUserId,
  /** required with themeId custom (business rooms only) */
  customTheme: CustomThemeSchema.nullish(),
});
export const SetMemberRoleSchema = z.object({ workspaceId: IdSchema, userId: IdSchema, isAdmin: z.boolean() });

// ---- calls (1:1 in a DM; docs/calls.md) ----
export const CALL_TYPES = ['audio', 'video'] as const;
export type CallType = (typeof CALL_TYPES)[number];
/** An SDP is a few KB (a video call with screen sharing stays under 16 KB); the socket frame cap is 64 KB. */
export const SDP_MAX = 32_000;
/**
 * What RTCPeerConnection produces, as JSON: a session description (offer, answer) or an ICE candidate. The server
 * only relays it between the two parties of an active call; it reads nothing in it but its size.
 */
export const WebrtcSignalPayloadSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('offer'), sdp: z.string().min(1).max(SDP_MAX) }),
  z.object({ type: z.literal('answer'), sdp: z.string().min(1).max(SDP_MAX) }),
  z.object({
    type: z.literal('candidate'),
    candidate: z.object({
      candidate: z.string().max(1024),
      sdpMid: z.string().max(64).nullish(),
      sdpMLineIndex: z.number().int().min(0).max(64).nullish(),
      usernameFragment: z.string().max(256).nullish(),
    }),
  }),
]);
export type WebrtcSignalPayload = z.infer<typeof WebrtcSignalPayloadSchema>;
export const StartCallSchema = z.object({ channelId: IdSchema, targetUserId: IdSchema, callType: z.enum(CALL_TYPES) });
export const AcceptCallSchema = z.object({ channelId: IdSchema, callerId: IdSchema });
export const RejectCallSchema = z.object({ channelId: IdSchema, callerId: IdSchema });
export const EndCallSchema = z.object({ channelId: IdSchema });
export const WebrtcSignalSchema = z.object({
  channelId: IdSchema,
  targetUserId: IdSchema,
  signal: WebrtcSignalPayloadSchema,
});
/** RTCIceServer as the browser takes it: STUN/TURN addresses, TURN with time-limited REST credentials. */
export interface IceServer {
  urls: string[];
  username?: string;
  credential?: string;
}
/** Why a call ended (call-ended.reason). */
export type CallEndReason = 'ended' | 'timeout' | 'disconnected' | 'left' | 'answered-elsewhere' | 'room-deleted';

/** Every ack is either { success: true, ...data } or an ErrorBody with success: false. */
/** the answer of a command whose success carries nothing more */
type NoFields = Record<never, never>;
export type Ack<T> = ({ success: true } & T) | (ErrorBody & { success: false });

export interface ClientAcks {
  [C.joinWorkspace]: Ack<{ user: RoomUser; workspace: Workspace; message?: string }>;
  [C.createChannel]: Ack<{ channel: Channel }>;
  [C.joinChannel]: Ack<{ channelId: string; messages: Message[]; hasMore: boolean }>;
  [C.sendMessage]: Ack<{ message: Message }>;
  [C.fetchMessages]: Ack<{ channelId: string; messages: Message[]; hasMore: boolean }>;
  [C.syncMessages]: Ack<{ messages: Message[]; hasMore: boolean; lastSeq: number }>;
  [C.leaveWorkspace]: Ack<NoFields>;
  [C.createDmChannel]: Ack<{ channel: Channel }>;
  [C.deleteDm]: Ack<{ channelId: string }>;
  [C.deleteChannel]: Ack<{ channelId: string }>;
  [C.renameChannel]: Ack<{ channel: Channel }>;
  [C.updateChannelMembers]: Ack<{ channel: Channel }>;
  [C.editMessage]: Ack<{ message: Message }>;
  [C.deleteMessage]: Ack<{ messageId: string }>;
  [C.addReaction]: Ack<{ messageId: string; reactions: Record<string, string[]> }>;
  [C.markRead]: Ack<{ channelId: string; seq: number }>;
  [C.fetchChannelSummaries]: Ack<{ summaries: ChannelSummary[] }>;
  [C.searchMessages]: Ack<{ messages: Message[] }>;
  [C.typingStart]: Ack<NoFields>;
  [C.typingStop]: Ack<NoFields>;
  [C.updatePresence]: Ack<{ status: PresenceStatus }>;
  [C.updateProfile]: Ack<{ user: RoomUser }>;
  [C.fetchOnlineUsers]: Ack<OnlinePage>;
  [C.renameWorkspace]: Ack<{ workspace: WorkspaceUpdate }>;
  [C.setWorkspacePassword]: Ack<{ workspace: WorkspaceUpdate }>;
  [C.setWorkspaceMaxUsers]: Ack<{ workspace: WorkspaceUpdate }>;
  [C.extendWorkspace]: Ack<{ workspace: WorkspaceUpdate }>;
  [C.deleteWorkspace]: Ack<{ workspaceId: string }>;
  [C.kickUser]: Ack<{ userId: string }>;
  [C.broadcastTheme]: Ack<{ theme: RoomTheme }>;
  [C.setMemberRole]: Ack<{ user: RoomUser }>;
  /** the caller's ICE servers (TURN credentials valid for the call) and how long the callee has to answer */
  [C.startCall]: Ack<{ channelId: string; callType: CallType; iceServers: IceServer[]; ringTimeoutMs: number }>;
  [C.acceptCall]: Ack<{ channelId: string; callType: CallType; iceServers: IceServer[] }>;
  [C.rejectCall]: Ack<{ channelId: string }>;
  [C.endCall]: Ack<{ channelId: string }>;
  [C.webrtcSignal]: Ack<NoFields>;
}

/** A room's changeable properties, sent whole after any change (workspace-updated) so a client converges. */
export interface WorkspaceUpdate {
  workspaceId: string;
  name: string;
  isPasswordProtected: boolean;
  expiresAt: string | null;
  tier: Tier;
  settings: WorkspaceSettings;
}
/**
 * The theme an admin broadcast to the room (kept by the room service; new members get it on join). `logoSrc` is the
 * custom logo as a same-origin signed image-proxy path (`/api/link-preview/image?u=...&s=...`), made by the server;
 * null without a logo. Clients show `logoSrc`, never `customTheme.logoUrl` (img-src 'self').
 */
export interface RoomTheme {
  themeId: ThemeId;
  customTheme: CustomTheme | null;
  changedBy: string;
  changedByName: string;
  logoSrc: string | null;
}

export type PresenceStatus = z.infer<typeof PresenceStatusSchema>;
export interface OnlineUser {
  id: string;
  username: string;
  isAdmin: boolean;
  presenceStatus: PresenceStatus;
}

/**
 * A page of the online list: its users in the order of their ids, the id to ask the next page after (null: this was
 * the last), and how many are online in the whole room.
 */
export interface OnlinePage {
  users: OnlineUser[];
  next: string | null;
  onlineCount: number;
}

/** One presence change of a presence-batch frame: what user-joined, user-left or user-presence-updated would carry. */
export type PresenceChange =
  | { kind: 'joined'; user: OnlineUser }
  | { kind: 'left'; userId: string; username: string; membershipEnded?: boolean }
  | { kind: 'status'; userId: string; status: PresenceStatus };

/**
 * A big room's presence changes of one window (BIG_ROOM.coalesceWindowMs), in the order they happened; applied in
 * order they leave the client where the single events would. `typing`: per public channel whose hidden typers
 * changed in the window, how many typers beyond the ones shown (user-typing) are typing now (0: none any more).
 */
export interface PresenceBatch {
  workspaceId: string;
  changes: PresenceChange[];
  typing?: { channelId: string; others: number }[];
}

export interface ServerEvents {
  [S.workspaceJoined]: (p: { workspace: Workspace; user: RoomUser }) => void;
  [S.messagesHistory]: (p: { channelId: string; messages: Message[]; hasMore: boolean }) => void;
  [S.message]: (m: Message) => void;
  [S.messageEdited]: (p: {
    workspaceId: string;
    channelId: string;
    messageId: string;
    content: string;
    isEdited: true;
    editedAt: string;
  }) => void;
  [S.messageDeleted]: (p: { workspaceId: string; channelId: string; messageId: string }) => void;
  /** the message's whole reactions map after the change, so every client converges whatever it missed */
  [S.reactionAdded]: (p: {
    workspaceId: string;
    channelId: string;
    messageId: string;
    emoji: string | null;
    userId: string;
    reactions: Record<string, string[]>;
  }) => void;
  [S.readPositionUpdated]: (p: { workspaceId: string; channelId: string; userId: string; seq: number }) => void;
  [S.channelCreated]: (c: Channel) => void;
  [S.channelUpdated]: (c: Channel) => void;
  /** also sent to a member removed from a private channel: it is gone for them */
  [S.channelDeleted]: (p: { workspaceId: string; channelId: string }) => void;
  [S.dmDeletedForUser]: (p: { workspaceId: string; channelId: string }) => void;
  [S.autoOpenDm]: (p: { workspaceId: string; channelId: string; channel: Channel }) => void;
  /**
   * after join-workspace: the online list's first page (the whole list in a room within one page), with `onlineCount`
   * and `next` as fetch-online-users answers them
   */
  [S.onlineUsers]: (p: {
    workspaceId: string;
    users: OnlineUser[];
    onlineCount?: number;
    next?: string | null;
  }) => void;
  [S.presenceBatch]: (p: PresenceBatch) => void;
  [S.userJoined]: (p: { workspaceId: string; user: OnlineUser }) => void;
  /** membershipEnded: the user left the room for good (leave-workspace), not only went offline */
  [S.userLeft]: (p: { workspaceId: string; userId: string; username: string; membershipEnded?: boolean }) => void;
  [S.userPresenceUpdated]: (p: { workspaceId: string; userId: string; status: PresenceStatus }) => void;
  [S.userTyping]: (p: { workspaceId: string; channelId: string; userId: string; username: string }) => void;
  [S.userStoppedTyping]: (p: { workspaceId: string; channelId: string; userId: string }) => void;
  [S.userProfileUpdated]: (p: {
    workspaceId: string;
    userId: string;
    username: string;
    profilePicture: string | null;
  }) => void;
  [S.workspaceDeleted]: (p: { workspaceId: string; message: string }) => void;
  /** to the kicked user's sockets only (then they are disconnected) */
  [S.kicked]: (p: { workspaceId: string; reason: string; kickedBy: string }) => void;
  /**
   * to the sockets joined with a member token that was just replaced (a claim, a new owner token): their session has
   * ended; the client joins again with the token it holds now, and a browser that holds only the old one is refused
   */
  [S.sessionReplaced]: (p: { workspaceId: string }) => void;
  /** to everyone else in the room */
  [S.userKicked]: (p: { workspaceId: string; userId: string; kickedBy: string }) => void;
  [S.workspaceUpdated]: (p: WorkspaceUpdate) => void;
  [S.themeChanged]: (p: { workspaceId: string } & RoomTheme) => void;
  /** a member's role changed (set-member-role) */
  [S.userUpdated]: (p: { workspaceId: string; user: RoomUser }) => void;
  /** to every socket of the callee */
  [S.incomingCall]: (p: {
    workspaceId: string;
    channelId: string;
    callerId: string;
    callerName: string;
    callType: CallType;
  }) => void;
  /** to every socket of the caller (the callee's other sockets get call-ended 'answered-elsewhere') */
  [S.callAccepted]: (p: { channelId: string; accepterId: string; accepterName: string }) => void;
  [S.callRejected]: (p: { channelId: string; rejecterId: string; rejecterName: string }) => void;
  /** to both parties' sockets: the call is over (hang-up, no answer in time, a party gone) */
  [S.callEnded]: (p: { channelId: string; reason: CallEndReason; endedBy: string | null }) => void;
  /** from the other party of the active call */
  [S.webrtcSignal]: (p: { channelId: string; fromUserId: string; signal: WebrtcSignalPayload }) => void;
}
