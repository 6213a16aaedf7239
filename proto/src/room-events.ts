/**
 * The room service's events (topic room): rooms, members, channels, DMs, room administration, and the gateway's one
 * durable fact of a call. Apart from events.ts (the envelope, the event table, the topics) so that each service's
 * events read as one page.
 */
import { z } from 'zod';
import { TierSchema, ChannelSchema, RoomUserSchema, WorkspaceSettingsSchema } from './models.ts';

// ---- room service events (topic room) ----
export const WorkspaceCreatedSchema = z.object({
  workspaceId: z.string(),
  name: z.string(),
  /** lower-cased name: room names are unique case-insensitively */
  nameKey: z.string(),
  tier: TierSchema,
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  passwordHash: z.string().nullable(),
  createdBy: z.string(),
});
export const MemberJoinedSchema = z.object({
  workspaceId: z.string(),
  userId: z.string(),
  username: z.string(),
  isAdmin: z.boolean(),
  /** sha256 of the user token: the token itself never enters the log */
  tokenHash: z.string(),
  joinedAt: z.string(),
});
export const ChannelCreatedSchema = z.object({ workspaceId: z.string(), channel: ChannelSchema });
export const WorkspaceExpiredSchema = z.object({ workspaceId: z.string(), name: z.string(), expiredAt: z.string() });
/** channel: the channel after the rename */
export const ChannelRenamedSchema = z.object({ workspaceId: z.string(), channel: ChannelSchema });
/** memberIds/isPrivate: who must hear that it is gone when it was private */
export const ChannelDeletedSchema = z.object({
  workspaceId: z.string(),
  channelId: z.string(),
  isPrivate: z.boolean(),
  memberIds: z.array(z.string()),
});
export const ChannelMembersChangedSchema = z.object({
  workspaceId: z.string(),
  channel: ChannelSchema,
  added: z.array(z.string()),
  removed: z.array(z.string()),
});
/** A DM removed from one member's view only (delete-dm); the partner keeps it. */
export const DmHiddenSchema = z.object({ workspaceId: z.string(), channelId: z.string(), userId: z.string() });
/** A message arrived in a DM a member had hidden: it is back in their list (appended by the room service's policy). */
export const DmReopenedSchema = z.object({
  workspaceId: z.string(),
  channelId: z.string(),
  userId: z.string(),
  channel: ChannelSchema,
});
/** The member left (the spec's logout): the token is revoked and the username free again. */
export const MemberLeftSchema = z.object({
  workspaceId: z.string(),
  userId: z.string(),
  username: z.string(),
  leftAt: z.string(),
});
export const MemberProfileUpdatedSchema = z.object({
  workspaceId: z.string(),
  userId: z.string(),
  username: z.string(),
  profilePicture: z.string().nullable(),
});

// ---- room administration (topic room) ----
/**
 * The room's changeable properties after the change (socket.ts WorkspaceUpdate): the gateways fan it out whole as
 * workspace-updated, as channel events carry the channel after the change (gateways keep no read model).
 */
export const WorkspaceUpdateSchema = z.object({
  workspaceId: z.string(),
  name: z.string(),
  isPasswordProtected: z.boolean(),
  expiresAt: z.string().nullable(),
  tier: TierSchema,
  settings: WorkspaceSettingsSchema,
});
/** The new name takes the address; the old one stops resolving. */
export const WorkspaceRenamedSchema = z.object({
  workspaceId: z.string(),
  name: z.string(),
  nameKey: z.string(),
  previousName: z.string(),
  workspace: WorkspaceUpdateSchema,
});
/** passwordHash null: the password was removed. Members already inside stay. */
export const WorkspacePasswordChangedSchema = z.object({
  workspaceId: z.string(),
  passwordHash: z.string().nullable(),
  workspace: WorkspaceUpdateSchema,
});
/** customMaxUsers null: the tier's default (unlimited on business) */
export const WorkspaceMaxUsersChangedSchema = z.object({
  workspaceId: z.string(),
  customMaxUsers: z.number().int().nullable(),
  workspace: WorkspaceUpdateSchema,
});
export const WorkspaceExtendedSchema = z.object({
  workspaceId: z.string(),
  additionalHours: z.number().int(),
  expiresAt: z.string(),
  workspace: WorkspaceUpdateSchema,
});
/**
 * RoomTierChanged: the room's tier (and so its limits, lifetime and themes) changed. Emitted by billing from verified
 * payments and by the internal change-tier command.
 */
export const WorkspaceTierChangedSchema = z.object({
  workspaceId: z.string(),
  tier: TierSchema,
  previousTier: TierSchema,
  expiresAt: z.string().nullable(),
  reason: z.string(),
  workspace: WorkspaceUpdateSchema,
});
export const WorkspaceThemeChangedSchema = z.object({
  workspaceId: z.string(),
  themeId: z.string(),
  customTheme: z.record(z.string(), z.string()).nullable(),
  changedBy: z.string(),
  changedByName: z.string(),
  /** the custom logo as a signed image-proxy path, made by the room service (never from a client); events before it: null */
  logoSrc: z.string().nullable().default(null),
});
/** The owner deleted the room: like expiry, everything of it goes; its key is destroyed first (docs/crypto.md). */
export const WorkspaceDeletedSchema = z.object({
  workspaceId: z.string(),
  name: z.string(),
  deletedBy: z.string(),
  deletedAt: z.string(),
});
/** An owner or admin removed the member: the token is revoked for good (role 'kicked'), the username free again. */
export const MemberKickedSchema = z.object({
  workspaceId: z.string(),
  userId: z.string(),
  username: z.string(),
  kickedBy: z.string(),
  reason: z.string(),
  kickedAt: z.string(),
});
/** The owner made a member an admin (isAdmin true) or took it back. user: the member after the change (user-updated). */
export const MemberRoleChangedSchema = z.object({
  workspaceId: z.string(),
  userId: z.string(),
  isAdmin: z.boolean(),
  user: RoomUserSchema,
});

/**
 * A DM call was answered (the gateway records it, topic room, aggregate: the call id, sequence 1): the one durable
 * fact of a call, for the superadmin's feature usage (video calls). The call itself (ringing, signaling, its end)
 * stays ephemeral in the gateways.
 */
export const CallConnectedSchema = z.object({
  workspaceId: z.string(),
  channelId: z.string(),
  callId: z.string(),
  callType: z.enum(['audio', 'video']),
  connectedAt: z.string(),
});
