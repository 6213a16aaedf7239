/**
 * The payment events' payloads (topic billing; aggregate: the account; sealed under the account's key;
 * docs/payments.md). Apart from payments.ts (the payment calls' bodies and answers, renewal status) so that the
 * events read as one page beside the other services' (room-events.ts, message-events.ts).
 * Payloads name a room `roomId`, never `workspaceId`: the sealed log picks the key by workspaceId, and these events
 * are the account's (sealed under the account key).
 */
import { z } from 'zod';
import { TierSchema } from './models.ts';

const ProviderRef = { provider: z.literal('stripe'), providerEventId: z.string().nullable() };
/** the provider says the subscription is active (paid): the account gets the plan's tier until the period's end */
export const SubscriptionActivatedSchema = z.object({
  accountId: z.string(),
  tier: TierSchema,
  subscriptionId: z.string(),
  customerId: z.string().nullable(),
  currentPeriodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  ...ProviderRef,
});
/** a renewal payment failed: the tier stays while the provider retries; the page asks for a new payment method */
export const SubscriptionPastDueSchema = z.object({
  accountId: z.string(),
  tier: TierSchema,
  subscriptionId: z.string(),
  currentPeriodEnd: z.string().nullable(),
  ...ProviderRef,
});
/** the subscription ended with paid time left: the tier stays until accessUntil (then grace, then expired) */
export const SubscriptionCancelledSchema = z.object({
  accountId: z.string(),
  tier: TierSchema,
  subscriptionId: z.string(),
  accessUntil: z.string().nullable(),
  ...ProviderRef,
});
/** no paid time (and no grace) left: the account and its rooms are free again */
export const SubscriptionExpiredSchema = z.object({
  accountId: z.string(),
  previousTier: TierSchema,
  subscriptionId: z.string().nullable(),
  expiredAt: z.string(),
  ...ProviderRef,
});
/** a one-time room extension was paid (the room service records workspace.extended for it) */
export const ExtensionPaidSchema = z.object({
  accountId: z.string(),
  roomId: z.string(),
  days: z.number().int().positive(),
  orderId: z.string(),
  amountCents: z.number().int().nullable(),
  ...ProviderRef,
});
/**
 * The provider refunded (part of) a charge of the account. One event per increase of the charge's refunded total as
 * the provider records it: amountCents is that increase, totalRefundedCents the total after it, so chargeId with
 * totalRefundedCents names the refund (a second delivery, or a later event of the same refund, finds it recorded).
 * Tiers and rooms do not change (the subscription's own events decide those). No workspaceId: the account's key
 * seals it (partitionKeyOf: the aggregate, the account).
 */
export const PaymentRefundedSchema = z.object({
  accountId: z.string(),
  chargeId: z.string(),
  amountCents: z.number().int().positive(),
  totalRefundedCents: z.number().int().positive(),
  /** what the charge was for, in the same currency */
  chargeAmountCents: z.number().int().nonnegative(),
  /** ISO 4217, lower case as the provider gives it; null when it gave none */
  currency: z.string().nullable(),
  /** the provider's time of the latest refund of the charge, else when billing learnt of it */
  refundedAt: z.string(),
  ...ProviderRef,
});
