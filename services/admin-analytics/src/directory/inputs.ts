/** What the directory's routes accept: path parameters, queries and bodies, each refused with a clear 400. */
import { z } from 'zod';
import { ADMIN_LIMITS, ADMIN_TEXT, DomainError, EmailSchema, IdSchema, ReasonBodySchema } from '@ephemera/proto';
import { parseOrThrow } from '@ephemera/platform';
import type express from 'express';

export const emailParam = (req: express.Request): string => parseOrThrow(EmailSchema, req.params.email);
export const roomIdParam = (req: express.Request): string => parseOrThrow(IdSchema, req.params.id);

/** ?search= (optional, one value): trimmed, at most 100 characters */
export const searchQuery = (req: express.Request): string =>
  parseOrThrow(z.string('Search with one text').trim().max(100, 'Search with at most 100 characters').optional(), req.query.search) ?? '';

/** ?limit= of the moderation viewer: 1 to 50, default 50 */
export const messagesLimit = (req: express.Request): number => parseOrThrow(
  z.string().regex(/^\d{1,3}$/, `The limit is a number from 1 to ${ADMIN_LIMITS.moderationMessages}`).transform(Number)
    .pipe(z.number().min(1).max(ADMIN_LIMITS.moderationMessages, `At most ${ADMIN_LIMITS.moderationMessages} messages`)).optional(),
  req.query.limit) ?? ADMIN_LIMITS.moderationMessages;

/** {reason}: a missing, empty or non-text reason is the spec's "a reason is required" */
export function reasonOf(body: unknown): string {
  const parsed = ReasonBodySchema.safeParse(body ?? {});
  if (parsed.success) return parsed.data.reason;
  const tooLong = parsed.error.issues.some((i) => i.code === 'too_big');
  throw new DomainError('VALIDATION', tooLong ? 'The reason must be at most 500 characters' : ADMIN_TEXT.reasonRequired);
}

/**
 * PUT /api/admin/users/{email}/subscription (no screen uses it). Tiers change only from verified provider data or an
 * admin trial, so the one change accepted is ending an admin trial early: {subscriptionTier: 'free'}. Any other field
 * (a paid tier, a payment status, a period end) belongs to the payment provider and is refused.
 */
export const SetSubscriptionBodySchema = z.strictObject({
  subscriptionTier: z.literal('free', 'Only "free" is accepted: it ends an admin trial. Paid tiers change only through verified payments'),
}, { error: (issue) => (issue.code === 'unrecognized_keys'
  ? 'Subscription fields other than subscriptionTier belong to the payment provider and cannot be set here' : undefined) });
