/**
 * The subscription's decisions (docs/product/payments.md PAY4, PAY5, PAY12): which account event a subscription's
 * state at the provider calls for, given the account's row (none when the row already says it), and the tier its
 * rooms get; when a cancelled subscription has lapsed; whether an activation is money paid (a receipt); the status
 * and renewal urgency an account's row answers. Pure rules,
 * apart from the webhook's handling (webhooks.ts), which reads the state and records what is decided here.
 */
import { PLAN_PRICES, RENEWAL, accountRenewal, type SubscriptionStatusAnswer, type Tier } from '@ephemera/proto';
import type { AccountRow } from '../accounts-repository.ts';
import type { SubscriptionState } from './provider.ts';

/** docs/product/payments.md PAY5, PAY12: the grace after a paid period's end (RENEWAL, proto/src/payments.ts) */
export const GRACE_MS = RENEWAL.graceDays * 86_400_000;

/** The account event the subscription's state calls for (null when the row already says it) and the rooms' tier. */
export function decideSubscription(
  current: AccountRow,
  sub: SubscriptionState,
  providerEventId: string | null,
  now: Date,
): {
  event: {
    type:
      | 'account.subscription-activated'
      | 'account.subscription-past-due'
      | 'account.subscription-cancelled'
      | 'account.subscription-expired';
    payload: unknown;
  } | null;
  roomTier: Tier | null;
} {
  const ref = { provider: 'stripe' as const, providerEventId };
  const periodEnd = sub.currentPeriodEnd?.toISOString() ?? null;
  const sameSub = current.subscriptionId === sub.id;
  // A state of a subscription the account has since replaced (e.g. an old one ending) changes nothing.
  const replaced = current.subscriptionId !== null && !sameSub && current.paymentStatus !== 'cancelled';
  const tier: Tier = sub.plan ?? (current.tier !== 'free' ? current.tier : 'pro');
  switch (sub.status) {
    case 'active':
    case 'trialing': {
      const same =
        sameSub &&
        current.tier === tier &&
        current.paymentStatus === 'active' &&
        current.cancelAtPeriodEnd === sub.cancelAtPeriodEnd &&
        (current.subscriptionExpiresAt?.toISOString() ?? null) === periodEnd;
      return {
        roomTier: tier,
        event: same
          ? null
          : {
              type: 'account.subscription-activated',
              payload: {
                accountId: current.id,
                tier,
                subscriptionId: sub.id,
                customerId: sub.customerId,
                currentPeriodEnd: periodEnd,
                cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
                ...ref,
              },
            },
      };
    }
    case 'past_due':
    case 'unpaid': {
      if (replaced) return { event: null, roomTier: null };
      const same = sameSub && current.paymentStatus === 'past_due' && current.tier === tier;
      return {
        roomTier: tier,
        event: same
          ? null
          : {
              type: 'account.subscription-past-due',
              payload: {
                accountId: current.id,
                tier,
                subscriptionId: sub.id,
                currentPeriodEnd: periodEnd,
                ...ref,
              },
            },
      };
    }
    case 'canceled': {
      if (replaced || (current.subscriptionId === null && current.tier === 'free'))
        return { event: null, roomTier: null };
      const nowMs = now.getTime();
      // the provider's end of the paid period wins; our row's only when the provider's record has none
      const end = sub.currentPeriodEnd ?? current.subscriptionExpiresAt;
      if (end && end.getTime() + GRACE_MS > nowMs && current.tier !== 'free') {
        const same =
          current.paymentStatus === 'cancelled' && current.subscriptionExpiresAt?.getTime() === end.getTime();
        return {
          roomTier: current.tier,
          event: same
            ? null
            : {
                type: 'account.subscription-cancelled',
                payload: {
                  accountId: current.id,
                  tier: current.tier,
                  subscriptionId: sub.id,
                  accessUntil: end.toISOString(),
                  ...ref,
                },
              },
        };
      }
      return {
        roomTier: 'free',
        event:
          current.tier === 'free'
            ? null
            : {
                type: 'account.subscription-expired',
                payload: {
                  accountId: current.id,
                  previousTier: current.tier,
                  subscriptionId: sub.id,
                  expiredAt: now.toISOString(),
                  ...ref,
                },
              },
      };
    }
    default:
      return { event: null, roomTier: null }; // incomplete, paused: nothing paid yet
  }
}

/**
 * The expiry sweep's rule (AccountsRepository.lapsed): a cancelled subscription whose paid time and 7-day grace are
 * over. Such an account's rooms are free, whatever its row's tier still says until the sweep records the expiry.
 */
export function isLapsed(
  account: Pick<AccountRow, 'tier' | 'paymentStatus' | 'subscriptionExpiresAt'>,
  now: Date,
): boolean {
  return (
    account.tier !== 'free' &&
    account.paymentStatus === 'cancelled' &&
    account.subscriptionExpiresAt !== null &&
    account.subscriptionExpiresAt.getTime() < now.getTime() - GRACE_MS
  );
}

/**
 * Whether an activation is money paid (a receipt): a new subscription, another tier, a later period (a renewal), or
 * a payment after a failed one. Not one: the same period of the same subscription changing only cancel-at-period-end.
 */
export function isNewPayment(previous: AccountRow, sub: SubscriptionState, tier: Tier): boolean {
  if (previous.subscriptionId !== sub.id || previous.tier !== tier || previous.paymentStatus !== 'active') return true;
  const before = previous.subscriptionExpiresAt?.getTime() ?? null;
  const after = sub.currentPeriodEnd?.getTime() ?? null;
  return after !== null && (before === null || after > before);
}

/** The subscription status and the renewal status (docs/product/payments.md PAY5-PAY7) of an account's row. */
export function subscriptionStatusOf(account: AccountRow, now: Date): SubscriptionStatusAnswer {
  const paymentStatus =
    (['active', 'past_due', 'cancelled', 'trial'] as const).find((s) => s === account.paymentStatus) ?? 'trial';
  const renewal = accountRenewal(
    {
      tier: account.tier,
      paymentStatus,
      expiresAt: account.subscriptionExpiresAt,
      subscribed: account.subscriptionId !== null,
    },
    now,
  );
  const paid = account.tier !== 'free';
  return {
    success: true,
    subscriptionTier: account.tier,
    paymentStatus,
    hasActiveSubscription:
      paid && account.subscriptionId !== null && (paymentStatus === 'active' || paymentStatus === 'past_due'),
    currentPeriodEnd: paid ? (account.subscriptionExpiresAt?.toISOString() ?? null) : null,
    cancelAtPeriodEnd: account.cancelAtPeriodEnd,
    subscriptionExpiresAt: account.subscriptionExpiresAt?.toISOString() ?? null,
    amountCents: paid ? PLAN_PRICES[account.tier as 'pro' | 'business'].amountCents : 0,
    renewal,
  };
}
