/**
 * Refunds end to end, in both modes (harness.ts): a signed charge.refunded, whose charge billing reads back from
 * "Stripe" (ProviderState in front of stripe-mock), moves the superadmin report's revenue.refunds by exactly one; a
 * duplicate delivery and another event about the same refund move nothing; a later partial refund of the same charge
 * is one more; revenue stays gross (docs/admin-analytics.md). The report follows the log: figures are polled.
 */
import { describe, it, expect } from 'vitest';
import { ADMIN_API, type AnalyticsReport } from '@ephemera/proto';
import { http } from '../helpers/clients.ts';
import { settledRead } from '../helpers/settled.ts';
import { bearer, register } from '../accounts/account-clients.ts';
import type { PaymentTarget } from './target.ts';
import { checkoutCompleted, rid, signUp, subscriptionPaid } from './fixtures.ts';

const POLL = { timeout: 20_000, interval: 200 };

export function refundsSuite(target: () => PaymentTarget) {
  describe('refunds', () => {
    it("a signed charge.refunded moves the report's refunds by exactly one; a duplicate delivery does not; revenue stays gross", async () => {
      const t = target();
      const admin = bearer((await register(t.accounts, t.superadminEmail, 'root')).token);
      const report = async () => {
        const res = await http<AnalyticsReport>(t.url, ADMIN_API.report, { headers: admin });
        expect(res.status).toBe(200);
        return res.body;
      };
      const money = (r: AnalyticsReport) => JSON.stringify([r.revenue, r.timeBasedRevenue]);
      /**
       * the report once the projection has caught up: two reads with the same money figures, a gather window apart
       * (distributed, admin-analytics' records may wait ~2 s to be fetched: services/admin-analytics/src/index.ts)
       */
      const settled = () => settledRead(report, money, { windowMs: 2_500, tries: 12, what: 'the revenue figures' });

      const { accountId } = await signUp(t, 'refunded');
      const ids = subscriptionPaid(t, accountId, 'pro');
      expect((await t.deliver(checkoutCompleted(t, ids.session))).body.outcome).toBe('account.subscription-activated');
      const before = await settled();

      // Stripe now says 4.00 of the 9.00 charge was refunded; the body claims all of it (it is only a hint).
      const chargeId = rid('ch');
      const chargeState = (refundedCents: number) =>
        t.state.setCharge({
          id: chargeId,
          customerId: ids.customer,
          accountId: null,
          amountCents: 900,
          amountRefundedCents: refundedCents,
          currency: 'usd',
          lastRefundAt: new Date(),
        });
      chargeState(400);
      const refunded = () =>
        t.event('charge.refunded', {
          id: chargeId,
          object: 'charge',
          customer: ids.customer,
          amount: 900,
          amount_refunded: 900,
          refunded: true,
        });
      const body = refunded();
      expect((await t.deliver(body)).body).toEqual({
        received: true,
        duplicate: false,
        outcome: 'account.payment-refunded',
      });
      expect((await t.deliver(body)).body).toMatchObject({ received: true, duplicate: true });
      expect((await t.deliver(refunded())).body.outcome).toMatch(/^unchanged/); // another event, the same refund
      await expect.poll(async () => (await report()).revenue.refunds - before.revenue.refunds, POLL).toBe(1);

      // The rest refunded later: one more refund.
      chargeState(900);
      expect((await t.deliver(refunded())).body.outcome).toBe('account.payment-refunded');
      await expect.poll(async () => (await report()).revenue.refunds - before.revenue.refunds, POLL).toBe(2);

      // A marker after them in the account's own ordered stream (a failed renewal): once it shows, whatever the
      // deliveries above recorded has been projected, so the refunds figure is final.
      t.state.setSubscription({
        id: ids.sub,
        status: 'past_due',
        customerId: ids.customer,
        accountId,
        plan: 'pro',
        currentPeriodEnd: new Date(Date.now() + 86_400_000),
        cancelAtPeriodEnd: false,
      });
      const failed = await t.deliver(
        t.event('invoice.payment_failed', {
          id: rid('in'),
          object: 'invoice',
          customer: ids.customer,
          subscription: ids.sub,
        }),
      );
      expect(failed.body.outcome).toBe('account.subscription-past-due');
      await expect
        .poll(async () => (await report()).revenue.failedPayments - before.revenue.failedPayments, POLL)
        .toBe(1);
      const after = await report();
      expect(after.revenue.refunds - before.revenue.refunds).toBe(2);
      // gross: refunds are neither subtracted from revenue nor counted as payments
      expect(after.timeBasedRevenue).toEqual(before.timeBasedRevenue);
      expect({ ...after.revenue, refunds: 0, failedPayments: 0 }).toEqual({
        ...before.revenue,
        refunds: 0,
        failedPayments: 0,
      });
    });
  });
}
