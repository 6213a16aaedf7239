/**
 * Auto-renewal (docs/product/payments.md PAY11). The dashboard's switch changes the subscription at the provider
 * first: off sets it to cancel at the period's end, on resumes it. Only when the provider answered with the change is
 * it recorded (account.auto-renewal-changed with the subscription's new cancel-at-period-end), so a provider failure
 * leaves the account as it was and answers AUTO_RENEWAL_FAILED. A change made in the provider's own portal comes
 * back through the webhook (customer.subscription.updated / .deleted: webhooks.ts syncs the subscription, and the
 * projection sets the flag from it). An account without a subscription the provider holds has nothing to change
 * there: its choice is only kept, and a new subscription renews (the provider's default) until it is turned off.
 */
import { AutoRenewalBodySchema, DomainError } from '@ephemera/proto';
import { parseOrThrow, type Logger } from '@ephemera/platform';
import type { BillingService } from '../billing-service.ts';
import type { AccountRow } from '../accounts-repository.ts';
import type { PaymentProvider, SubscriptionState } from './provider.ts';

export interface AutoRenewalDeps {
  billing: BillingService;
  provider: PaymentProvider | null;
  logger: Logger;
}

/** The subscription the provider still bills for the account (a cancelled one cannot be resumed: that is a renewal). */
export function heldSubscriptionOf(
  account: Pick<AccountRow, 'tier' | 'paymentStatus' | 'subscriptionId'>,
): string | null {
  if (account.tier === 'free' || !account.subscriptionId) return null;
  return account.paymentStatus === 'active' || account.paymentStatus === 'past_due' ? account.subscriptionId : null;
}

export async function changeAutoRenewal(
  deps: AutoRenewalDeps,
  account: AccountRow,
  body: unknown,
): Promise<{ success: true; autoRenewal: boolean }> {
  const { autoRenewal } = parseOrThrow(AutoRenewalBodySchema, body);
  const subscriptionId = heldSubscriptionOf(account);
  if (!subscriptionId) return deps.billing.setAutoRenewal(account, { autoRenewal });
  if (!deps.provider) throw new DomainError('PAYMENTS_NOT_CONFIGURED');
  let after: SubscriptionState;
  try {
    after = await deps.provider.setCancelAtPeriodEnd(subscriptionId, !autoRenewal);
  } catch (err) {
    deps.logger.warn({ err, accountId: account.id }, 'auto-renewal: the provider did not change the subscription');
    throw new DomainError('AUTO_RENEWAL_FAILED');
  }
  // Recorded only as the provider answered it: an answer about another subscription, or without the change, is a failure.
  if (after.id !== subscriptionId || after.cancelAtPeriodEnd === autoRenewal) {
    deps.logger.warn(
      { accountId: account.id, subscriptionId, answered: after.id },
      'auto-renewal: the provider answered without the change',
    );
    throw new DomainError('AUTO_RENEWAL_FAILED');
  }
  return deps.billing.setAutoRenewal(
    account,
    { autoRenewal },
    { subscriptionId, cancelAtPeriodEnd: after.cancelAtPeriodEnd },
  );
}
