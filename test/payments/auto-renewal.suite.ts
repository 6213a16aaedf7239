/**
 * Auto-renewal at the provider (docs/product/payments.md PAY11) against a running product (embedded or distributed)
 * and a real stripe-mock: the dashboard's switch changes the subscription there (the SDK's update, answered by
 * stripe-mock) before the account records it; a change made in the provider's portal comes back through the signed
 * webhook, once, whatever the delivery order or count. What the dashboard shows is the server's profile.
 */
import { describe, it, expect } from 'vitest';
import { AUTH_API, ERRORS, type ProfileAnswer } from '@ephemera/proto';
import { http } from '../helpers/clients.ts';
import { bearer } from '../accounts/account-clients.ts';
import type { PaymentTarget } from './target.ts';
import { DAY, checkoutCompleted, rid, signUp, subscriptionPaid, subscriptionStatus } from './fixtures.ts';

export function autoRenewalSuite(target: () => PaymentTarget) {
  const profile = async (t: PaymentTarget, token: string) =>
    (await http<ProfileAnswer>(t.url, AUTH_API.profile, { headers: bearer(token) })).body.user;
  const toggle = (t: PaymentTarget, token: string, autoRenewal: unknown) =>
    http(t.url, AUTH_API.autoRenewal, { body: { autoRenewal }, headers: bearer(token) });
  /** a pro subscriber whose checkout the webhook applied; the provider's subscription renews */
  const subscriber = async (t: PaymentTarget) => {
    const account = await signUp(t, 'renewer');
    const periodEnd = new Date(Date.now() + 20 * DAY);
    const ids = subscriptionPaid(t, account.accountId, 'pro', periodEnd);
    expect((await t.deliver(checkoutCompleted(t, ids.session))).status).toBe(200);
    return { ...account, ...ids, periodEnd };
  };
  /** "Stripe" now says the subscription is in this state (the portal or our own call changed it there) */
  const providerSays = (
    t: PaymentTarget,
    s: Awaited<ReturnType<typeof subscriber>>,
    change: { cancelAtPeriodEnd?: boolean; status?: 'active' | 'canceled' },
  ) =>
    t.state.setSubscription({
      id: s.sub,
      status: change.status ?? 'active',
      customerId: s.customer,
      accountId: s.accountId,
      plan: 'pro',
      currentPeriodEnd: s.periodEnd,
      cancelAtPeriodEnd: change.cancelAtPeriodEnd ?? false,
    });
  const subscriptionEvent = (
    t: PaymentTarget,
    type: string,
    s: { sub: string; customer: string },
    body: Record<string, unknown>,
    id?: string,
  ) => t.event(type, { id: s.sub, object: 'subscription', customer: s.customer, ...body }, id ? { id } : {});

  describe('auto-renewal at the provider (docs/product/payments.md PAY11)', () => {
    it("a new subscription renews; turning auto-renewal off cancels it at the period's end, turning it on resumes it", async () => {
      const t = target();
      const s = await subscriber(t);
      expect((await profile(t, s.token)).autoRenewal).toBe(true);
      expect(await subscriptionStatus(t, s.token)).toMatchObject({ subscriptionTier: 'pro', cancelAtPeriodEnd: false });

      const off = await toggle(t, s.token, false);
      expect(off.status).toBe(200);
      expect(off.body).toEqual({ success: true, autoRenewal: false });
      expect((await profile(t, s.token)).autoRenewal).toBe(false);
      // the plan stays until the period's end; the subscription page's notice reads cancel-at-period-end
      expect(await subscriptionStatus(t, s.token)).toMatchObject({
        subscriptionTier: 'pro',
        paymentStatus: 'active',
        cancelAtPeriodEnd: true,
        currentPeriodEnd: s.periodEnd.toISOString(),
      });
      // Stripe then reports the change it made: nothing moves
      providerSays(t, s, { cancelAtPeriodEnd: true });
      expect(
        (
          await t.deliver(
            subscriptionEvent(t, 'customer.subscription.updated', s, { status: 'active', cancel_at_period_end: true }),
          )
        ).body,
      ).toMatchObject({ received: true, outcome: 'unchanged (active)' });

      const on = await toggle(t, s.token, true);
      expect(on.body).toEqual({ success: true, autoRenewal: true });
      expect((await profile(t, s.token)).autoRenewal).toBe(true);
      expect((await subscriptionStatus(t, s.token)).cancelAtPeriodEnd).toBe(false);
    });

    it('a bad body is refused and changes nothing', async () => {
      const t = target();
      const s = await subscriber(t);
      for (const value of ['no', 1, null, undefined]) {
        const res = await toggle(t, s.token, value);
        expect(res.status, String(value)).toBe(400);
      }
      expect((await profile(t, s.token)).autoRenewal).toBe(true);
      expect((await subscriptionStatus(t, s.token)).cancelAtPeriodEnd).toBe(false);
    });

    it("a change in the provider's portal comes back through the webhook, once; an unsigned one changes nothing", async () => {
      const t = target();
      const s = await subscriber(t);
      providerSays(t, s, { cancelAtPeriodEnd: true });
      const forged = subscriptionEvent(t, 'customer.subscription.updated', s, {
        status: 'active',
        cancel_at_period_end: true,
      });
      const refused = await t.deliver(forged, { secret: 'whsec_wrong' });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe(ERRORS.WEBHOOK_SIGNATURE_INVALID);
      expect((await profile(t, s.token)).autoRenewal).toBe(true);

      const eventId = rid('evt');
      const updated = subscriptionEvent(
        t,
        'customer.subscription.updated',
        s,
        { status: 'active', cancel_at_period_end: true },
        eventId,
      );
      expect((await t.deliver(updated)).body).toMatchObject({
        received: true,
        duplicate: false,
        outcome: 'account.subscription-activated',
      });
      expect((await t.deliver(updated)).body).toMatchObject({ duplicate: true });
      expect(
        (await t.deliver(subscriptionEvent(t, 'customer.subscription.updated', s, { cancel_at_period_end: true }))).body
          .outcome,
      ).toBe('unchanged (active)');
      expect((await profile(t, s.token)).autoRenewal).toBe(false);
      expect(await subscriptionStatus(t, s.token)).toMatchObject({ subscriptionTier: 'pro', cancelAtPeriodEnd: true });

      // resumed in the portal
      providerSays(t, s, { cancelAtPeriodEnd: false });
      await t.deliver(subscriptionEvent(t, 'customer.subscription.updated', s, { cancel_at_period_end: false }));
      expect((await profile(t, s.token)).autoRenewal).toBe(true);

      // cancelled at once in the portal: the plan stays for the paid time, nothing renews any more
      providerSays(t, s, { status: 'canceled' });
      const deleted = await t.deliver(subscriptionEvent(t, 'customer.subscription.deleted', s, { status: 'canceled' }));
      expect(deleted.body.outcome).toBe('account.subscription-cancelled');
      const user = await profile(t, s.token);
      expect(user).toMatchObject({
        autoRenewal: false,
        subscriptionTier: 'pro',
        paymentStatus: 'cancelled',
        subscriptionExpiresAt: s.periodEnd.toISOString(),
      });
    });
  });
}
