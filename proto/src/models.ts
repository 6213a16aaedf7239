/** The read shapes that go over the wire (docs/protocol.md). */
import { z } from 'zod';
import { LIMITS } from './limits.ts';
import { LinkPreviewSchema, type LinkPreview } from './link-preview.ts';

export const TierSchema = z.enum(['free', 'pro', 'business']);

/**
 * Names are shown everywhere and stored as text (PostgreSQL text cannot hold NUL). Identity: a username or a channel
 * name may not contain characters that render as nothing or reorder text: controls, format
 * characters (zero-width joiners, bidirectional overrides), line/paragraph separators, every default-ignorable code
 * point (U+FEFF, U+200B..U+200F, U+2060..U+206F, variation selectors, tag characters...) and the blank letters that
 * render like a space. Which names count as the same name (their confusable skeleton) is the room service's rule
 * (services/room/src/name-keys.ts).
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2800]/u;
export const hasInvisibleCharacters = (s: string): boolean => INVISIBLE.test(s);
/** The form a username is stored and shown in: NFKC, trimmed, inner runs of white space collapsed to one space. */
export const normalizeUsername = (s: string): string => s.normalize('NFKC').trim().replace(/\s+/gu, ' ');
export const INVISIBLE_CHARACTERS_MESSAGE = 'Username contains invisible or formatting characters';
// Checked on the name as given: normalizing would turn some of them into a space (U+FEFF counts as white space).
const usernameOf = (max: number, required: string) =>
  z
    .string()
    .refine((s) => !hasInvisibleCharacters(s), INVISIBLE_CHARACTERS_MESSAGE)
    .transform(normalizeUsername)
    .pipe(z.string().min(LIMITS.usernameMin, required).max(max, `Username must be at most ${max} characters`));

/** A room name as typed in the landing form and used in the path: trimmed, 1-50 characters. */
export const RoomNameSchema = z.string().trim().min(1, 'Room name is required').max(LIMITS.roomNameMax);
/** Username on join or setup: trimmed, 2-20 characters. */
export const UsernameSchema = usernameOf(LIMITS.usernameMax, 'Please enter a username');
/** Username in profile editing: up to 30 characters (docs/product/files.md F9). */
export const ProfileUsernameSchema = usernameOf(LIMITS.profileUsernameMax, 'Username is required');
export const CHANNEL_NAME_INVISIBLE_MESSAGE = 'Channel name contains invisible or formatting characters';
/** A channel name: no invisible characters (as usernames, checked before trimming), trimmed, 1-30 characters. */
export const ChannelNameSchema = z
  .string()
  .refine((s) => !hasInvisibleCharacters(s), CHANNEL_NAME_INVISIBLE_MESSAGE)
  .pipe(z.string().trim().min(1, 'Channel name is required').max(LIMITS.channelNameMax));
export const RoomPasswordSchema = z.string().trim().max(LIMITS.roomPasswordMax);
export const IdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'Invalid id');

export const WorkspaceSettingsSchema = z.object({
  tier: TierSchema,
  maxUsers: z.number().int().nullable(), // null = unlimited
  customMaxUsers: z.number().int().nullable(),
  canUseThemes: z.boolean(),
  maxFileSize: z.number().int(), // MB
  canUseVoiceCalls: z.boolean(),
  canUseVideoCalls: z.boolean(),
});
export type WorkspaceSettings = z.infer<typeof WorkspaceSettingsSchema>;

export const PresenceStatusSchema = z.enum(['online', 'away', 'busy']);

export const RoomUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  isAdmin: z.boolean(),
  isOwner: z.boolean(),
  profilePicture: z.string().nullable(),
  presenceStatus: PresenceStatusSchema,
  joinedAt: z.string(),
});
export type RoomUser = z.infer<typeof RoomUserSchema>;

export const ChannelSchema = z.object({
  id: z.string(),
  workspaceId: z.string(),
  name: z.string(),
  type: z.enum(['topic', 'dm']),
  isPrivate: z.boolean(),
  memberIds: z.array(z.string()),
  createdBy: z.string(),
  createdAt: z.string(),
});
export type Channel = z.infer<typeof ChannelSchema>;

export const WorkspaceSchema = z.object({
  id: z.string(),
  workspaceId: z.string(),
  name: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(), // null = never (business)
  isPasswordProtected: z.boolean(),
  tier: TierSchema,
  settings: WorkspaceSettingsSchema,
  users: z.array(RoomUserSchema),
  channels: z.array(ChannelSchema),
  /** the theme last broadcast to the room by an admin (broadcast-theme); null = none */
  theme: z
    .object({
      themeId: z.string(),
      customTheme: z.record(z.string(), z.string()).nullable(),
      changedBy: z.string(),
      changedByName: z.string(),
      logoSrc: z.string().nullable().default(null),
    })
    .nullable()
    .default(null),
});
export type Workspace = z.infer<typeof WorkspaceSchema>;

export const MessageTypeSchema = z.enum(['text', 'file', 'image', 'video', 'voice', 'system']);

/** A reply's quote as stored and shown: taken from the quoted message on the server, never from the client. */
export const ReplyToSchema = z.object({
  messageId: z.string().max(64),
  content: z.string().max(LIMITS.messageMax),
  authorName: z.string().max(LIMITS.profileUsernameMax),
});

/** A link preview attached to a message: the server's own fetch (proto/src/link-preview.ts, docs/link-previews.md). */
export const MessageLinkPreviewSchema = LinkPreviewSchema;
export type MessageLinkPreview = LinkPreview;

/**
 * A file attached to a message (image, video, file, voice), as the server stored it (docs/protocol.md, Files). Never
 * the client's: send-message names the upload by `fileId` only and the server copies the stored description here.
 * `url` and `thumbnailUrl` are API paths that need the member's bearer token, or a signed link from the link route.
 */
export const MessageFileSchema = z.object({
  id: z.string(),
  kind: z.enum(['image', 'video', 'file', 'voice']),
  name: z.string(),
  mime: z.string(),
  size: z.number().int().nonnegative(),
  caption: z.string().nullable(),
  url: z.string(),
  thumbnailUrl: z.string().nullable(),
  /** voice and video: length in milliseconds when the uploader's client measured it (shown, never trusted for limits) */
  durationMs: z.number().int().nonnegative().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
});
export type MessageFile = z.infer<typeof MessageFileSchema>;

export const MessageSchema = z.object({
  id: z.string(),
  /** client-generated id: a retried send carries the same one and is stored once */
  clientMessageId: z.string(),
  workspaceId: z.string(),
  channelId: z.string(),
  /** per-room (workspace) sequence number, gap-free, starts at 1 */
  seq: z.number().int().positive(),
  authorId: z.string(),
  authorName: z.string(),
  profilePicture: z.string().nullable(),
  timestamp: z.string(),
  type: MessageTypeSchema,
  content: z.string(),
  isEdited: z.boolean(),
  replyTo: ReplyToSchema.nullable(),
  /** emoji -> user ids; one reaction per user per message */
  reactions: z.record(z.string(), z.array(z.string())),
  linkPreview: MessageLinkPreviewSchema.nullable().default(null),
  editedAt: z.string().nullable().default(null),
  /** image, video, file and voice messages: the stored file (null for text) */
  file: MessageFileSchema.nullable().default(null),
});
export type Message = z.infer<typeof MessageSchema>;

/** What the sidebar needs of one channel the user can see: the latest message, unread count and read positions. */
export interface ChannelSummary {
  channelId: string;
  lastMessage: Message | null;
  unreadCount: number;
  /** how many of the unread messages mention the user (docs/product/messages.md M27), capped as unreadCount is */
  mentionCount: number;
  /** the user's own read position (highest seq read in this channel) */
  readSeq: number;
  /** the highest read position of any other member: own messages up to it show as read */
  othersReadSeq: number;
}
