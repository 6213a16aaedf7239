/**
 * Domain events: the source of truth. Every state change is one of these, wrapped in the versioned envelope
 * and appended to a topic of the event log with the workspace id as the partition key.
 */
import { z } from 'zod';
import {
  WorkspaceCreatedSchema,
  MemberJoinedSchema,
  ChannelCreatedSchema,
  WorkspaceExpiredSchema,
  ChannelRenamedSchema,
  ChannelDeletedSchema,
  ChannelMembersChangedSchema,
  DmHiddenSchema,
  DmReopenedSchema,
  MemberLeftSchema,
  MemberProfileUpdatedSchema,
  WorkspaceRenamedSchema,
  WorkspacePasswordChangedSchema,
  WorkspaceMaxUsersChangedSchema,
  WorkspaceExtendedSchema,
  WorkspaceTierChangedSchema,
  WorkspaceThemeChangedSchema,
  WorkspaceDeletedSchema,
  MemberKickedSchema,
  MemberRoleChangedSchema,
  CallConnectedSchema,
} from './room-events.ts';
import {
  MessageSentSchema,
  MessageEditedSchema,
  MessageDeletedSchema,
  ReactionChangedSchema,
  ReadMarkedSchema,
  FileUploadedSchema,
  FileRemovedSchema,
} from './message-events.ts';
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
} from './payment-events.ts';
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
