/**
 * Domain events: the source of truth. Every state change is one of these, wrapped in the versioned envelope
 * and appended to a topic of the event log with the workspace id as the partition key.
 */
import { z } from 'zod';
import { TierSchema, ChannelSchema, MessageSchema } from './models.ts';

/** Topics of the event log. Per-room order holds inside a topic (partition key = workspace id). */
export const TOPICS = {
  room: 'ephemera.room-events',
  messaging: 'ephemera.message-events',
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

// ---- messaging service events (topic messaging) ----
/** Who receives a message: everyone in the room (public topic channel) or the listed users (private channel, DM). */
export const AudienceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('workspace') }),
  z.object({ kind: z.literal('users'), userIds: z.array(z.string()) }),
]);
export type Audience = z.infer<typeof AudienceSchema>;
export const MessageSentSchema = z.object({ message: MessageSchema, audience: AudienceSchema });

/** type -> payload schema. Adding an event means adding a row here. */
export const DOMAIN_EVENTS = {
  'workspace.created': WorkspaceCreatedSchema,
  'member.joined': MemberJoinedSchema,
  'channel.created': ChannelCreatedSchema,
  'workspace.expired': WorkspaceExpiredSchema,
  'message.sent': MessageSentSchema,
} as const;
export type DomainEventType = keyof typeof DOMAIN_EVENTS;

/** The topic each event type is appended to (the owning service's topic). */
export const TOPIC_OF: Record<DomainEventType, Topic> = {
  'workspace.created': TOPICS.room,
  'member.joined': TOPICS.room,
  'channel.created': TOPICS.room,
  'workspace.expired': TOPICS.room,
  'message.sent': TOPICS.messaging,
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

/** Parse an envelope read from the log; throws on a malformed one. */
export function parseEnvelope(raw: unknown): AnyEventEnvelope {
  const base = EnvelopeBaseSchema.parse(raw);
  const payload = DOMAIN_EVENTS[base.type].parse(base.payload);
  return { ...base, payload } as AnyEventEnvelope;
}
