/**
 * Payments (docs/product/payments.md; docs/protocol.md "Payments (billing)"): plans and prices, the payment and
 * subscription calls' bodies and answers, renewal status (the payment events' payloads: payment-events.ts). The
 * billing service talks to the payment provider (Stripe) through a port; tiers change only from verified provider
 * data (a signed webhook, or a checkout session read back from the provider), never from a browser's body or query
 * string.
 */
import { z } from 'zod';
import type { Tier } from './limits.ts';
import type { AccountUser, PaymentStatus } from './accounts.ts';
import { PAID_PLANS, DEFAULT_EXTENSION_DAYS, EXTENSION_DAYS, type PaidPlan } from './plans.ts';

/** docs/product/payments.md PAY1: the plans and their monthly prices live in plans.ts (no zod: the browser bundle reads them too) */
export { PAID_PLANS, PLAN_PRICES, PLAN_GUARANTEES, type PaidPlan } from './plans.ts';
/** docs/product/payments.md PAY8: the extension prices live in plans.ts (the room's Extend dialog reads them too) */
export { EXTENSION_PRICES, EXTENSION_DAYS, DEFAULT_EXTENSION_DAYS } from './plans.ts';
/** docs/product/payments.md PAY5, PAY6: grace period 7 days; renewal thresholds 7, 3, 1 days */
export const RENEWAL = { graceDays: 7, reminderDays: 7, warningDays: 3, urgentDays: 1 } as const;

/** the payment API paths live in payment-paths.ts (no zod: the browser bundle reads them too) */
export { PAYMENTS_PREFIX, PAYMENTS_API } from './payment-paths.ts';

/** A return address: a path of this site ("/payment/success"), or an absolute address of this site's origin. */
const ReturnUrlSchema = z.string().trim().min(1).max(500).optional();
const PlanSchema = z
  .string({ error: 'Please select a plan first' })
  .trim()
  .toLowerCase()
  .pipe(z.enum(PAID_PLANS, 'Please select a plan first'));

/**
 * POST /api/payments/create-checkout-session (bearer). The spec's email, username and isExistingUser are accepted and
 * ignored: the account is the session's.
 */
export const CreateCheckoutBodySchema = z.object({
  plan: PlanSchema,
  successUrl: ReturnUrlSchema,
  cancelUrl: ReturnUrlSchema,
});
/** extensionType: the days as text ("7") or a number; one of 3, 7, 14, 30; default 7 */
export const ExtensionDaysSchema = z
  .union([z.string().trim(), z.number()])
  .optional()
  .transform((v) => (v === undefined || v === '' ? DEFAULT_EXTENSION_DAYS : Number(v)))
  .pipe(
    z
      .number()
      .refine((d) => (EXTENSION_DAYS as readonly number[]).includes(d), 'Choose an extension of 3, 7, 14 or 30 days'),
  );
/** POST /api/payments/create-room-extension-payment (bearer). userEmail is ignored. */
export const CreateExtensionPaymentBodySchema = z.object({
  workspaceId: z.string({ error: 'workspaceId is required' }).trim().min(1, 'workspaceId is required').max(64),
  extensionType: ExtensionDaysSchema,
  successUrl: ReturnUrlSchema,
  cancelUrl: ReturnUrlSchema,
});
/** POST /api/payments/create-portal-session (bearer). email is ignored. */
export const PortalBodySchema = z.object({ returnUrl: ReturnUrlSchema });
/** a provider checkout session id as it appears in paths (Stripe: cs_...) */
export const CheckoutSessionIdSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_]{3,255}$/, 'Unknown payment session');

/**
 * POST /api/auth/renew-subscription (bearer). tier ("pro"|"business", any case) only picks the plan of a new checkout;
 * it never sets a tier. returnUrl: the portal's way back (default /dashboard); successUrl/cancelUrl: the checkout's.
 */
export const RenewSubscriptionBodySchema = z.object({
  tier: PlanSchema,
  returnUrl: ReturnUrlSchema,
  successUrl: ReturnUrlSchema,
  cancelUrl: ReturnUrlSchema,
});
/**
 * POST /api/auth/create-paid-account (bearer). paymentId: a checkout session id, read back from the provider. The
 * spec's email, username, subscriptionTier, googleId and picture are accepted and ignored.
 */
export const CreatePaidAccountBodySchema = z.object({
  paymentId: z.string({ error: 'paymentId is required' }).pipe(CheckoutSessionIdSchema),
});
export interface CheckoutAnswer {
  success: true;
  url: string;
  sessionId: string;
}
export interface PortalAnswer {
  success: true;
  url: string;
}
/** renew-subscription: the billing portal (a subscription the provider still holds) or a new checkout (sessionId) */
export interface RenewAnswer {
  success: true;
  url: string;
  kind: 'portal' | 'checkout';
  sessionId: string | null;
}
/** upgrade-rooms: the tier applied to the account's live rooms, and the rooms that changed (workspace ids) */
export interface UpgradeRoomsAnswer {
  success: true;
  tier: Tier;
  changed: string[];
}
/** create-paid-account: the account's profile after the verified payment was applied, and what was verified */
export interface PaidAccountAnswer {
  success: true;
  user: AccountUser;
  payment: PaymentVerificationAnswer;
}

export type RenewalUrgency = 'none' | 'reminder' | 'warning' | 'urgent' | 'expired';
/** the renewal status (docs/product/payments.md PAY5, PAY6), plus what the banner shows */
export interface RenewalStatus {
  needsRenewal: boolean;
  renewalUrgency: RenewalUrgency;
  isInGracePeriod: boolean;
  /** active: full access (grace counts as active, read-only); expired: access suspended */
  status: 'active' | 'expired';
  /** rounded up; null without an expiry */
  daysUntilExpiry: number | null;
  /** days of grace left (in grace only) */
  graceDaysLeft: number | null;
  message: string | null;
  buttonLabel: 'Renew Subscription' | 'Reactivate Subscription';
}

/** GET /api/payments/subscription-status (bearer): the subscription status response, and renewal (docs/product/payments.md PAY7). */
export interface SubscriptionStatusAnswer {
  success: true;
  subscriptionTier: Tier;
  paymentStatus: PaymentStatus;
  hasActiveSubscription: boolean;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  subscriptionExpiresAt: string | null;
  /** price per month of the tier in cents (0 for free) */
  amountCents: number;
  renewal: RenewalStatus;
}

/** GET /api/payments/verify-session/{sessionId} (bearer): the payment result (docs/product/payments.md PAY9), from the provider's record. */
export interface PaymentVerificationAnswer {
  success: true;
  type: 'subscription' | 'room_extension';
  plan: PaidPlan | null;
  /** dollars, e.g. 9 or 2.99 */
  amount: number;
  email: string;
  username: string;
  subscriptionId: string | null;
  extensionDays: number | null;
  newExpiryDate: string | null;
  roomName: string | null;
  workspaceId: string | null;
}

/** POST /api/payments/complete-room-extension/{orderId} (bearer) */
export interface CompleteExtensionAnswer {
  success: true;
  newExpiryDate: string | null;
  roomName: string;
  workspaceId: string;
  extensionDays: number;
}

/**
 * docs/product/payments.md PAY5, PAY6: the status from tier, payment status and expiry. Free: always active. Paid without expiry: active when
 * the payment status is active, else urgent. Otherwise days until expiry rounded up; under 0 expired, but the first
 * 7 days after expiry are a grace period that still counts as active (urgent). Urgency: urgent in grace or at 1 day
 * or less, warning at 3 or less, reminder at 7 or less (not shown for pro: none).
 */
export function renewalStatus(
  account: { tier: Tier; paymentStatus: PaymentStatus; expiresAt: Date | string | null },
  now: Date,
): RenewalStatus {
  const base = {
    needsRenewal: false,
    renewalUrgency: 'none' as RenewalUrgency,
    isInGracePeriod: false,
    status: 'active' as const,
    daysUntilExpiry: null,
    graceDaysLeft: null,
    message: null,
    buttonLabel: 'Renew Subscription' as const,
  };
  if (account.tier === 'free') return base;
  if (account.expiresAt === null) {
    if (account.paymentStatus === 'active') return base;
    return { ...base, needsRenewal: true, renewalUrgency: 'urgent', message: 'Renew now to avoid interruption.' };
  }
  const expiry = typeof account.expiresAt === 'string' ? new Date(account.expiresAt) : account.expiresAt;
  const days = Math.ceil((expiry.getTime() - now.getTime()) / 86_400_000) || 0; // no -0
  if (days < 0) {
    const graceLeft = RENEWAL.graceDays + days;
    if (graceLeft >= 0) {
      return {
        ...base,
        needsRenewal: true,
        renewalUrgency: 'urgent',
        isInGracePeriod: true,
        daysUntilExpiry: days,
        graceDaysLeft: graceLeft,
        message: `Grace period: ${graceLeft} day(s) left. Renew now to keep your data.`,
      };
    }
    return expiredRenewal(days);
  }
  if (days <= RENEWAL.urgentDays)
    return {
      ...base,
      needsRenewal: true,
      renewalUrgency: 'urgent',
      daysUntilExpiry: days,
      message: `Expires in ${days} day(s). Renew now to avoid interruption.`,
    };
  if (days <= RENEWAL.warningDays)
    return {
      ...base,
      needsRenewal: true,
      renewalUrgency: 'warning',
      daysUntilExpiry: days,
      message: `Expires in ${days} day(s). Renew soon to maintain access.`,
    };
  if (days <= RENEWAL.reminderDays && account.tier !== 'pro') {
    return {
      ...base,
      needsRenewal: true,
      renewalUrgency: 'reminder',
      daysUntilExpiry: days,
      message: `Expires in ${days} days. Consider renewing to avoid any interruption.`,
    };
  }
  return { ...base, daysUntilExpiry: days };
}

/** after the grace: renewal needed (docs/product/payments.md PAY6); days: since the expiry, negative */
export function expiredRenewal(days: number): RenewalStatus {
  return {
    needsRenewal: true,
    renewalUrgency: 'expired',
    isInGracePeriod: false,
    status: 'expired',
    daysUntilExpiry: days,
    graceDaysLeft: null,
    message: 'Your subscription has expired. Renew now to regain full access.',
    buttonLabel: 'Reactivate Subscription',
  };
}
