/**
 * An account's standing by its subscription (docs/product/payments.md PAY12): the one rule of what an account whose
 * subscription ended may still do. Billing computes it (it holds the subscription); the room service asks billing
 * for it (SessionAccount.standing when a session creates a room; AccountSessionsApi.standingOf when a room of the
 * account is extended) and refuses with assertMayCreateOrExtend.
 *   active   everything its tier allows
 *   grace    the 7 days after a paid period ended unpaid: its rooms stay readable and its data exportable, but it
 *            creates and extends no rooms
 *   expired  the grace is over: renewal needed, creating and extending stay refused until a subscription is paid
 *            again (its rooms are on the free tier's limits meanwhile)
 */
import { DomainError } from './errors.ts';
import type { Tier } from './limits.ts';
import type { AccountStanding, PaymentStatus } from './accounts.ts';
import { expiredRenewal, renewalStatus, type RenewalStatus } from './payments.ts';

export interface StandingInput {
  tier: Tier;
  paymentStatus: PaymentStatus;
  expiresAt: Date | string | null;
  /** the account has (had) a subscription at the payment provider */
  subscribed: boolean;
  /** on the superadmin's trial (admin.md ADM5): its tier is the trial's, whatever an old subscription left behind */
  adminTrial?: boolean;
}

export function accountStanding(account: StandingInput, now: Date): AccountStanding {
  if (account.adminTrial) return 'active';
  const expiresAt = typeof account.expiresAt === 'string' ? new Date(account.expiresAt) : account.expiresAt;
  if (account.tier === 'free') {
    // The expiry sweep put it back on free: still an expired subscription, not a free account that never paid.
    const lapsed =
      account.subscribed &&
      account.paymentStatus === 'cancelled' &&
      expiresAt !== null &&
      expiresAt.getTime() <= now.getTime();
    return lapsed ? 'expired' : 'active';
  }
  const renewal = renewalStatus({ tier: account.tier, paymentStatus: account.paymentStatus, expiresAt }, now);
  if (renewal.isInGracePeriod) return 'grace';
  return renewal.status === 'expired' ? 'expired' : 'active';
}

/**
 * The renewal status the account is shown (docs/product/payments.md PAY6): renewalStatus, except that an account the
 * expiry put back on free reads expired ("Reactivate Subscription") until it subscribes again, as it does in grace's
 * stead after the grace.
 */
export function accountRenewal(account: StandingInput, now: Date): RenewalStatus {
  if (account.tier === 'free' && accountStanding(account, now) === 'expired') {
    const expiresAt = new Date(account.expiresAt!).getTime(); // expired: it has one
    return expiredRenewal(Math.min(-1, Math.ceil((expiresAt - now.getTime()) / 86_400_000)));
  }
  return renewalStatus(account, now);
}

/** Creating a room for the account, or extending one of its rooms: refused in grace and after it. */
export function assertMayCreateOrExtend(standing: AccountStanding): void {
  if (standing === 'grace') throw new DomainError('SUBSCRIPTION_IN_GRACE');
  if (standing === 'expired') throw new DomainError('SUBSCRIPTION_EXPIRED');
}
