/**
 * Refunds (Stripe's charge.refunded). The webhook only names a charge: the charge is read back from the provider,
 * and when its refunded total (amount_refunded, which partial refunds add to) is above what billing has recorded for
 * it, one account.payment-refunded records the increase. So neither a second delivery of the event (already stopped
 * by billing.provider_events) nor another event about a refund already counted records anything; a later partial
 * refund records only its own amount. Two partial refunds the provider already shows together when the first event
 * is handled become one event of their sum (the money is exact; the count can be lower than the provider's).
 * A total that went down (a refund that failed) records nothing, and its amount is not counted again if retried.
 * Concurrent events about one charge: the decision is taken under the account's lock (recordSystemFor) from a
 * snapshot of the account's last sequence and the charge's recorded total; if the account recorded anything since the
 * snapshot, it is taken again. No connection is held while waiting (a lock held on a pooled connection while the
 * recording needs another could starve the pool).
 * A refund changes no tier and no room: the subscription's own events (past due, cancelled) decide those.
 * The recorded totals (billing.charge_refunds) are kept by refund-projection.ts.
 */
import type { Pool } from '@ephemera/platform';
import type { BillingService } from '../billing-service.ts';
import type { AccountRow } from '../accounts-repository.ts';
import type { ChargeState, ProviderStateReader } from './provider.ts';
import { refundedSoFar } from './repository.ts';

export interface RefundDeps {
  billing: BillingService;
  pool: Pool;
  state: ProviderStateReader;
  now: () => Date;
}

/** snapshots taken before giving up (the webhook answers 503 and the provider retries) */
const ATTEMPTS = 5;

/** The outcome of a refund event about the charge (the webhook's answer and billing.provider_events.outcome). */
export async function recordRefund(
  deps: RefundDeps,
  chargeId: string,
  providerEventId: string | null,
): Promise<string> {
  const charge = await deps.state.charge(chargeId);
  if (!charge) return 'ignored: unknown charge';
  if (charge.amountRefundedCents === 0) return 'ignored: nothing refunded';
  const account = await accountOf(deps, charge);
  if (!account) return 'ignored: no account for the charge';
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    // One statement: the charge's recorded total as of the account's last sequence (both are projected together).
    const seen = await refundedSoFar(deps.pool, account.id, charge.id);
    if (!seen) return 'ignored: the account was deleted';
    const increase = charge.amountRefundedCents - seen.refundedCents;
    if (increase <= 0) return `unchanged (${charge.amountRefundedCents} cents refunded, already recorded)`;
    let moved = false;
    const recorded = await deps.billing.recordSystemFor(account.id, (current) => {
      if (current.lastSeq !== seen.lastSeq) {
        moved = true;
        return null;
      } // recorded something meanwhile: look again
      return {
        type: 'account.payment-refunded',
        payload: {
          accountId: current.id,
          chargeId: charge.id,
          amountCents: increase,
          totalRefundedCents: charge.amountRefundedCents,
          chargeAmountCents: charge.amountCents,
          currency: charge.currency,
          refundedAt: (charge.lastRefundAt ?? deps.now()).toISOString(),
          provider: 'stripe',
          providerEventId,
        },
      };
    });
    if (recorded) return 'account.payment-refunded';
    if (!moved) return 'ignored: the account was deleted';
  }
  throw new Error(`account ${account.id} kept changing while the refund of ${charge.id} was decided`);
}

/** Our account id in the provider's record of the charge, else the account of the charge's customer. */
async function accountOf(deps: RefundDeps, charge: ChargeState): Promise<AccountRow | null> {
  const repo = deps.billing.accounts;
  if (charge.accountId) {
    const account = await repo.byId(charge.accountId);
    if (account) return account;
  }
  return charge.customerId ? repo.byCustomerId(charge.customerId) : null;
}
