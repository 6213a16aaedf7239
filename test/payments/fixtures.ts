/**
 * What the payment suites (payments, account calls, notices) share: provider-style ids, a signed-up account, the
 * subscription answer, "Stripe now says this checkout was paid", and a checkout-completed event.
 */
import { randomBytes } from 'node:crypto';
import { PAYMENTS_API, type SubscriptionStatusAnswer } from '@ephemera/proto';
import { http } from '../helpers/clients.ts';
import { bearer, register, uniqueEmail } from '../accounts/account-clients.ts';
import type { PaymentTarget } from './target.ts';

export const DAY = 86_400_000;
/** an id in the provider's style (cs_, sub_, cus_, in_ ...), unique per call */
export const rid = (prefix: string) => `${prefix}_test_${randomBytes(8).toString('hex')}`;

/** a new account signed in by a mailed code */
export async function signUp(t: PaymentTarget, prefix = 'payer') {
  const s = await register(t.accounts, uniqueEmail(prefix), prefix);
  return { token: s.token, accountId: s.user.id, email: s.user.email };
}

/** GET subscription-status as the session's account; pathEmail: an address in the path, which must change nothing */
export async function subscriptionStatus(t: PaymentTarget, token: string, pathEmail?: string) {
  return (
    await http<SubscriptionStatusAnswer>(t.url, PAYMENTS_API.subscriptionStatus(pathEmail), { headers: bearer(token) })
  ).body;
}

/** "Stripe" now says: this account's checkout finished and its subscription is active until periodEnd. */
export function subscriptionPaid(
  t: PaymentTarget,
  accountId: string,
  plan: 'pro' | 'business',
  periodEnd = new Date(Date.now() + 30 * DAY),
  cancelAtPeriodEnd = false,
) {
  const ids = { session: rid('cs'), sub: rid('sub'), customer: rid('cus') };
  t.state.setSession({
    id: ids.session,
    mode: 'subscription',
    complete: true,
    paid: true,
    accountId,
    kind: 'subscription',
    plan,
    roomId: null,
    extensionDays: null,
    subscriptionId: ids.sub,
    customerId: ids.customer,
    amountTotalCents: plan === 'pro' ? 900 : 1900,
  });
  t.state.setSubscription({
    id: ids.sub,
    status: 'active',
    customerId: ids.customer,
    accountId,
    plan,
    currentPeriodEnd: periodEnd,
    cancelAtPeriodEnd,
  });
  return ids;
}

export const checkoutCompleted = (t: PaymentTarget, sessionId: string, extra: Record<string, unknown> = {}) =>
  t.event('checkout.session.completed', { id: sessionId, object: 'checkout.session', ...extra });
