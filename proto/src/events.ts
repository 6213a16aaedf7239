/**
 * Domain events: the source of truth. Every state change is one of these, wrapped in the versioned envelope
 * and appended to a topic of the event log with the workspace id as the partition key.
 */
import { z } from 'zod';
import { TierSchema, ChannelSchema, MessageSchema, RoomUserSchema, WorkspaceSettingsSchema } from './models.ts';
import {
  AccountRegisteredSchema,
  AccountUsernameChangedSchema,
  AccountGoogleLinkedSchema,
  AccountAutoRenewalChangedSchema,
  AccountDeletedSchema,
  WorkspaceClaimedSchema,
  OwnerTokenIssuedSchema,
  AccountSuspendedSchema,
  AccountUnsuspendedSchema,
  AdminTrialGrantedSchema,
  AdminTrialEndedSchema,
} from './accounts.ts';
import {
  SubscriptionActivatedSchema,
  SubscriptionPastDueSchema,
  SubscriptionCancelledSchema,
  SubscriptionExpiredSchema,
  ExtensionPaidSchema,
  PaymentRefundedSchema,
} from './payments.ts';
import {
  ContactMessageReceivedSchema,
  ContactMessageStatusChangedSchema,
  ContactMessageDeletedSchema,
} from './contact.ts';
import { ReceiptMailedSchema, RenewalReminderMailedSchema } from './notices.ts';
import {
  AdminActionRecordedSchema,
  AdminConfigChangedSchema,
  MaintenanceChangedSchema,
  RevenueResetSchema,
  PageViewedSchema,
} from './admin.ts';

/** Topics of the event log. Per-room order holds inside a topic (partition key = workspace id). */
export const TOPICS = {
  room: 'ephemera.room-events',
  messaging: 'ephemera.message-events',
  /** accounts and contact messages: the billing service's; key = account id (a contact message: its id) */
  billing: 'ephemera.billing-events',
  /** admin-analytics: superadmin actions (the audit trail), its configuration and page views */
  admin: 'ephemera.admin-events',
  /** admin-analytics: page views, apart from the admin topic so that every process reading the (small) admin topic
   *  for the maintenance state at start does not read every page view too */
  pageviews: 'ephemera.pageview-events',
} as const;
export type Topic = (typeof TOPICS)[keyof typeof TOPICS];

export const ActorSchema = z.object({
  kind: z.enum(['user', 'system']),
  userId: z.string().nullable(),
});
export type Actor = z.infer<typeof ActorSchema>;

export const TraceContextSchema = z.object({
  traceparent: z.string().optional(),
  tracestate: z.string().optional(),
});

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

// ---- messaging service events (topic messaging) ----
/** Who receives a message: everyone in the room (public topic channel) or the listed users (private channel, DM). */
export const AudienceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('workspace') }),
  z.object({ kind: z.literal('users'), userIds: z.array(z.string()) }),
]);
export type Audience = z.infer<typeof AudienceSchema>;
/**
 * bodyGone: delivered after the message was deleted, its key destroyed (docs/crypto.md "Messages"): the message comes
 * without its body (no text, author name, quote, preview or file) and is stored as deleted.
 */
export const MessageSentSchema = z.object({
  message: MessageSchema,
  audience: AudienceSchema,
  bodyGone: z.boolean().optional(),
});
/**
 * The events below concern one message (or one member's read position): their aggregate is the message (or
 * `{workspaceId}:{userId}:read`), their sequence that aggregate's version, and their partition key the workspace id
 * (partitionKeyOf) so a room's events stay in one ordered stream. Message seq numbers stay gap-free (P1).
 */
export const MessageEditedSchema = z.object({
  workspaceId: z.string(),
  channelId: z.string(),
  messageId: z.string(),
  content: z.string(),
  editedAt: z.string(),
  audience: AudienceSchema,
  /** as message.sent's: the message was deleted since, and its new text is gone with its key */
  bodyGone: z.boolean().optional(),
});
export const MessageDeletedSchema = z.object({
  workspaceId: z.string(),
  channelId: z.string(),
  messageId: z.string(),
  audience: AudienceSchema,
});
/** emoji null: the user's reaction was removed. reactions: the whole map after the change. */
export const ReactionChangedSchema = z.object({
  workspaceId: z.string(),
  channelId: z.string(),
  messageId: z.string(),
  userId: z.string(),
  emoji: z.string().nullable(),
  reactions: z.record(z.string(), z.array(z.string())),
  audience: AudienceSchema,
});
export const ReadMarkedSchema = z.object({
  workspaceId: z.string(),
  channelId: z.string(),
  userId: z.string(),
  seq: z.number().int(),
  audience: AudienceSchema,
});

/**
 * A file was uploaded and stored (messaging owns files; aggregate: the file id). The payload is sealed in the log
 * like every room event; `fileKey` is the file's own data key, itself sealed under the room key (docs/crypto.md).
 * channelId null: a profile picture.
 */
export const FileUploadedSchema = z.object({
  workspaceId: z.string(),
  fileId: z.string(),
  channelId: z.string().nullable(),
  uploaderId: z.string(),
  purpose: z.enum(['message', 'voice', 'avatar']),
  kind: z.enum(['image', 'video', 'file', 'voice']),
  name: z.string(),
  mime: z.string(),
  size: z.number().int().nonnegative(),
  caption: z.string().nullable(),
  durationMs: z.number().int().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  storageKey: z.string(),
  thumbnailKey: z.string().nullable(),
  thumbnailSize: z.number().int().nullable(),
  fileKey: z.string(),
  uploadedAt: z.string(),
  /** the tier's retention (ENTITLEMENTS.fileRetentionMs) from the upload; null = kept as long as the room */
  expiresAt: z.string().nullable(),
});
/** A stored file was removed (retention); its bytes are deleted from storage after this is recorded. */
/** A stored file is gone: past its tier's retention, or its message was deleted (its bytes are deleted too). */
export const FileRemovedSchema = z.object({
  workspaceId: z.string(),
  fileId: z.string(),
  reason: z.enum(['retention', 'message-deleted']),
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

/** type -> payload schema. Adding an event means adding a row here. */
export const DOMAIN_EVENTS = {
  'workspace.created': WorkspaceCreatedSchema,
  'member.joined': MemberJoinedSchema,
  'channel.created': ChannelCreatedSchema,
  'workspace.expired': WorkspaceExpiredSchema,
  'channel.renamed': ChannelRenamedSchema,
  'channel.deleted': ChannelDeletedSchema,
  'channel.members-changed': ChannelMembersChangedSchema,
  'dm.hidden': DmHiddenSchema,
  'dm.reopened': DmReopenedSchema,
  'member.left': MemberLeftSchema,
  'member.profile-updated': MemberProfileUpdatedSchema,
  'workspace.renamed': WorkspaceRenamedSchema,
  'workspace.password-changed': WorkspacePasswordChangedSchema,
  'workspace.max-users-changed': WorkspaceMaxUsersChangedSchema,
  'workspace.extended': WorkspaceExtendedSchema,
  'workspace.tier-changed': WorkspaceTierChangedSchema,
  'workspace.theme-changed': WorkspaceThemeChangedSchema,
  'workspace.deleted': WorkspaceDeletedSchema,
  'member.kicked': MemberKickedSchema,
  'member.role-changed': MemberRoleChangedSchema,
  'message.sent': MessageSentSchema,
  'message.edited': MessageEditedSchema,
  'message.deleted': MessageDeletedSchema,
  'reaction.changed': ReactionChangedSchema,
  'read.marked': ReadMarkedSchema,
  'file.uploaded': FileUploadedSchema,
  'file.removed': FileRemovedSchema,
  'workspace.claimed': WorkspaceClaimedSchema,
  'workspace.owner-token-issued': OwnerTokenIssuedSchema,
  'call.connected': CallConnectedSchema,
  'account.registered': AccountRegisteredSchema,
  'account.username-changed': AccountUsernameChangedSchema,
  'account.google-linked': AccountGoogleLinkedSchema,
  'account.auto-renewal-changed': AccountAutoRenewalChangedSchema,
  'account.deleted': AccountDeletedSchema,
  'account.subscription-activated': SubscriptionActivatedSchema,
  'account.subscription-past-due': SubscriptionPastDueSchema,
  'account.subscription-cancelled': SubscriptionCancelledSchema,
  'account.subscription-expired': SubscriptionExpiredSchema,
  'account.extension-paid': ExtensionPaidSchema,
  'account.payment-refunded': PaymentRefundedSchema,
  'account.receipt-mailed': ReceiptMailedSchema,
  'account.renewal-reminder-mailed': RenewalReminderMailedSchema,
  'account.suspended': AccountSuspendedSchema,
  'account.unsuspended': AccountUnsuspendedSchema,
  'account.admin-trial-granted': AdminTrialGrantedSchema,
  'account.admin-trial-ended': AdminTrialEndedSchema,
  'contact.message-received': ContactMessageReceivedSchema,
  'contact.message-status-changed': ContactMessageStatusChangedSchema,
  'contact.message-deleted': ContactMessageDeletedSchema,
  'admin.action-recorded': AdminActionRecordedSchema,
  'admin.config-changed': AdminConfigChangedSchema,
  'admin.maintenance-changed': MaintenanceChangedSchema,
  'admin.revenue-reset': RevenueResetSchema,
  'analytics.page-viewed': PageViewedSchema,
} as const;
export type DomainEventType = keyof typeof DOMAIN_EVENTS;

/** The topic each event type is appended to (the owning service's topic). */
export const TOPIC_OF: Record<DomainEventType, Topic> = {
  'workspace.created': TOPICS.room,
  'member.joined': TOPICS.room,
  'channel.created': TOPICS.room,
  'workspace.expired': TOPICS.room,
  'channel.renamed': TOPICS.room,
  'channel.deleted': TOPICS.room,
  'channel.members-changed': TOPICS.room,
  'dm.hidden': TOPICS.room,
  'dm.reopened': TOPICS.room,
  'member.left': TOPICS.room,
  'member.profile-updated': TOPICS.room,
  'workspace.renamed': TOPICS.room,
  'workspace.password-changed': TOPICS.room,
  'workspace.max-users-changed': TOPICS.room,
  'workspace.extended': TOPICS.room,
  'workspace.tier-changed': TOPICS.room,
  'workspace.theme-changed': TOPICS.room,
  'workspace.deleted': TOPICS.room,
  'member.kicked': TOPICS.room,
  'member.role-changed': TOPICS.room,
  'message.sent': TOPICS.messaging,
  'message.edited': TOPICS.messaging,
  'message.deleted': TOPICS.messaging,
  'reaction.changed': TOPICS.messaging,
  'read.marked': TOPICS.messaging,
  'file.uploaded': TOPICS.messaging,
  'file.removed': TOPICS.messaging,
  'workspace.claimed': TOPICS.room,
  'workspace.owner-token-issued': TOPICS.room,
  'call.connected': TOPICS.room,
  'account.registered': TOPICS.billing,
  'account.username-changed': TOPICS.billing,
  'account.google-linked': TOPICS.billing,
  'account.auto-renewal-changed': TOPICS.billing,
  'account.deleted': TOPICS.billing,
  'account.subscription-activated': TOPICS.billing,
  'account.subscription-past-due': TOPICS.billing,
  'account.subscription-cancelled': TOPICS.billing,
  'account.subscription-expired': TOPICS.billing,
  'account.extension-paid': TOPICS.billing,
  'account.payment-refunded': TOPICS.billing,
  'account.receipt-mailed': TOPICS.billing,
  'account.renewal-reminder-mailed': TOPICS.billing,
  'account.suspended': TOPICS.billing,
  'account.unsuspended': TOPICS.billing,
  'account.admin-trial-granted': TOPICS.billing,
  'account.admin-trial-ended': TOPICS.billing,
  // contact messages (billing; key = the message id)
  'contact.message-received': TOPICS.billing,
  'contact.message-status-changed': TOPICS.billing,
  'contact.message-deleted': TOPICS.billing,
  'admin.action-recorded': TOPICS.admin,
  'admin.config-changed': TOPICS.admin,
  'admin.maintenance-changed': TOPICS.admin,
  'admin.revenue-reset': TOPICS.admin,
  'analytics.page-viewed': TOPICS.pageviews,
};
export type DomainEventPayload<T extends DomainEventType> = z.infer<(typeof DOMAIN_EVENTS)[T]>;

export const EVENT_VERSION = 1;

/** The envelope every event travels in. */
export interface EventEnvelope<T extends DomainEventType = DomainEventType> {
  id: string;
  type: T;
  version: number;
  /** the aggregate the sequence counts for: the workspace id */
  aggregateId: string;
  /** 1, 2, 3... per aggregate and topic, gap-free */
  sequence: number;
  occurredAt: string;
  actor: Actor;
  trace: z.infer<typeof TraceContextSchema>;
  payload: DomainEventPayload<T>;
}
export type AnyEventEnvelope = { [K in DomainEventType]: EventEnvelope<K> }[DomainEventType];

export const EnvelopeBaseSchema = z.object({
  id: z.string().uuid(),
  type: z.enum(Object.keys(DOMAIN_EVENTS) as [DomainEventType, ...DomainEventType[]]),
  version: z.number().int().positive(),
  aggregateId: z.string().min(1),
  sequence: z.number().int().positive(),
  occurredAt: z.string(),
  actor: ActorSchema,
  trace: TraceContextSchema,
  payload: z.unknown(),
});

/** The partition key of an event: its workspace, so every event of a room keeps its order in the log (P1). */
export function partitionKeyOf(event: AnyEventEnvelope): string {
  const p = event.payload as { workspaceId?: string; message?: { workspaceId: string } };
  return p.workspaceId ?? p.message?.workspaceId ?? event.aggregateId;
}

/**
 * A payload sealed under its room's key (docs/crypto.md): only the partition key stays readable. The event-log's
 * sealing decorator (services/platform/src/event-log/sealed.ts) seals on append and opens (then validates) on
 * delivery; after the room's key is destroyed the payload can never be read again.
 */
export interface SealedPayload {
  workspaceId: string;
  sealed: string;
}
export const SealedPayloadSchema = z
  .object({ workspaceId: z.string().min(1), sealed: z.string().startsWith('e1.') })
  .strict();
export const isSealedPayload = (p: unknown): p is SealedPayload => SealedPayloadSchema.safeParse(p).success;

/**
 * Parse an envelope read from the log; throws on a malformed one. A sealed payload is returned as it is (typed as
 * the event's payload only after the sealing decorator opened and validated it).
 */
export function parseEnvelope(raw: unknown): AnyEventEnvelope {
  const base = EnvelopeBaseSchema.parse(raw);
  const payload = isSealedPayload(base.payload) ? base.payload : DOMAIN_EVENTS[base.type].parse(base.payload);
  return { ...base, payload } as AnyEventEnvelope;
}

/** Validate a payload after opening it. */
export function parsePayload<T extends DomainEventType>(type: T, payload: unknown): DomainEventPayload<T> {
  return DOMAIN_EVENTS[type].parse(payload) as DomainEventPayload<T>;
}
