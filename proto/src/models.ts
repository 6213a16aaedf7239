/** The read shapes that go over the wire (specs/rooms.md section 3). */
import { z } from 'zod';
import { LIMITS } from './limits.ts';

export const TierSchema = z.enum(['free', 'pro', 'business']);

/** Names are shown everywhere and stored as text: no control characters (PostgreSQL text cannot hold NUL). */
const noControlChars = (s: string) => !/[\u0000-\u001f\u007f]/.test(s);

/** A room name as typed in the landing form and used in the path: trimmed, 1-50 characters. */
export const RoomNameSchema = z.string().trim().min(1, 'Room name is required').max(LIMITS.roomNameMax);
/** Username on join or setup: trimmed, 2-20 characters. */
export const UsernameSchema = z.string().trim().min(LIMITS.usernameMin, 'Please enter a username').max(LIMITS.usernameMax)
  .refine(noControlChars, 'Username contains invalid characters');
export const ChannelNameSchema = z.string().trim().min(1, 'Channel name is required').max(LIMITS.channelNameMax)
  .refine(noControlChars, 'Channel name contains invalid characters');
export const RoomPasswordSchema = z.string().trim().max(LIMITS.roomPasswordMax);
export const IdSchema = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'Invalid id');

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
});
export type Workspace = z.infer<typeof WorkspaceSchema>;

export const MessageTypeSchema = z.enum(['text', 'file', 'image', 'video', 'voice', 'system']);

export const ReplyToSchema = z.object({
  messageId: z.string().max(64),
  content: z.string().max(LIMITS.messageMax),
  authorName: z.string().max(30),
});

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
  reactions: z.record(z.string(), z.array(z.string())),
});
export type Message = z.infer<typeof MessageSchema>;

/** Settings for a tier (specs/rooms.md section 6). */
export function settingsForTier(tier: z.infer<typeof TierSchema>, customMaxUsers: number | null = null): WorkspaceSettings {
  switch (tier) {
    case 'free':
      return { tier, maxUsers: LIMITS.defaultMaxUsers, customMaxUsers: null, canUseThemes: false, maxFileSize: 10, canUseVoiceCalls: false, canUseVideoCalls: false };
    case 'pro':
      return { tier, maxUsers: customMaxUsers ?? 25, customMaxUsers, canUseThemes: true, maxFileSize: 100, canUseVoiceCalls: true, canUseVideoCalls: true };
    case 'business':
      return { tier, maxUsers: customMaxUsers, customMaxUsers, canUseThemes: true, maxFileSize: 500, canUseVoiceCalls: true, canUseVideoCalls: true };
  }
}
