/** A paid plan as the payment pages read and show it (split from payments.ts): parsing, prices, status labels. */
import { PAID_PLANS, PLAN_PRICES, type PaidPlan } from '@ephemera/proto/client';
import type { SubscriptionStatusAnswer } from '@ephemera/proto';
import { t as translate } from '../i18n/i18n.ts';

/** A plan value accepted only if pro or business, in any case (docs/product/accounts.md A5). */
export function parsePlan(value: unknown): PaidPlan | null {
  if (typeof value !== 'string') return null;
  const v = value.trim().toLowerCase();
  return (PAID_PLANS as readonly string[]).includes(v) ? (v as PaidPlan) : null;
}

export const formatDollars = (dollars: number) => `$${dollars.toFixed(2)}`;

/** The success page's plan lookup: pro $9.00, business $19.00; a missing or unknown plan is pro at $9.00. */
export function planDetails(plan: unknown): { plan: PaidPlan; name: string; amount: string } {
  const p = parsePlan(plan) ?? 'pro';
  return { plan: p, name: PLAN_PRICES[p].name, amount: formatDollars(PLAN_PRICES[p].amountCents / 100) };
}

/**
 * The payment status as the subscription page's suffix (docs/product/payments.md PAY5): anything else is Trial. In the
 * active language: the account catalog must be loaded (the account pages load it).
 */
export function statusLabel(status: string | null | undefined): string {
  switch (status) {
    case 'active':
      return translate('account.status.active');
    case 'past_due':
      return translate('account.status.pastDue');
    case 'cancelled':
      return translate('account.status.cancelled');
    default:
      return translate('account.status.trial');
  }
}

/** On failure the subscription page shows the error and treats the user as free and active. */
export const FREE_STATUS: SubscriptionStatusAnswer = {
  success: true,
  subscriptionTier: 'free',
  paymentStatus: 'active',
  hasActiveSubscription: false,
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
  subscriptionExpiresAt: null,
  amountCents: 0,
  renewal: {
    needsRenewal: false,
    renewalUrgency: 'none',
    isInGracePeriod: false,
    status: 'active',
    daysUntilExpiry: null,
    graceDaysLeft: null,
    message: null,
    buttonLabel: 'Renew Subscription',
  },
};
