/**
 * The realtime protocol (Socket.IO): the events of docs/product/ and the ones this product adds (documented in
 * docs/protocol.md). Every client->server event has a payload schema (here); its row in the command table
 * (commands.ts) names its schema and its ack type, and the gateway refuses any event without a row.
 */
import { z } from 'zod';
import { BIG_ROOM, LIMITS } from './limits.ts';
import { CUSTOM_THEME_FONTS, EXTENSION_HOURS, THEME_IDS, type CustomTheme } from './tiers.ts';
import {
  IdSchema,
  UsernameSchema,
  ProfileUsernameSchema,
  ChannelNameSchema,
  RoomPasswordSchema,
  MessageTypeSchema,
  PresenceStatusSchema,
  RoomNameSchema,
} from './models.ts';

export { C, S, CLIENT_CONNECTION } from './names.ts';

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
