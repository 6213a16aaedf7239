/**
 * Receipts and renewal reminders (docs/product/payments.md PAY6, PAY10) against a running product (embedded or
 * distributed), a real stripe-mock and
 * a real SMTP server (Mailpit): one receipt per payment however often Stripe delivers it, a receipt naming the room of
 * a paid extension, reminders at the 7/3/1-day thresholds once each (sweeps at injected times), and a failing SMTP
 * server that neither fails the webhook nor loses the receipt. Restart and replay: notices-restart.test.ts.
 */
import { describe, it, expect } from 'vitest';
import { API, AUTH_API, PAYMENTS_API, type ProfileAnswer } from '@ephemera/proto';
import { http, uniqueName } from '../helpers/clients.ts';
import { bearer } from '../accounts/account-clients.ts';
import type { PaymentTarget } from './target.ts';
import { DAY, checkoutCompleted, rid, signUp, subscriptionPaid, subscriptionStatus } from './fixtures.ts';

const HOUR = 3_600_000;
/** how the mails print a date */
const inMail = (d: Date | string) => `${new Date(d).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
const isReceipt = (m: { subject: string }) => m.subject.startsWith('Your Ephemera receipt');
const isReminder = (m: { subject: string }) => /plan expires|has expired/.test(m.subject);

export function noticesSuite(target: () => PaymentTarget) {
  /** The mails to `email` matching `which`, once at least `atLeast` are there (or after timeoutMs). */
  const mails = async (
    t: PaymentTarget,
    email: string,
    which: (m: { subject: string }) => boolean,
    atLeast = 0,
    timeoutMs = 10_000,
  ) => {
    await t.receiptsSettled();
    const until = Date.now() + timeoutMs;
    for (;;) {
      const found = (await t.mail.messagesTo(email)).filter(which);
      if (found.length >= atLeast || Date.now() > until) return found;
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  describe('receipts', () => {
    it('a checkout completed five times at once mails one receipt; the success page and a cancel-at-period-end change add none; a renewal mails the next', async () => {
      const t = target();
      const { token, accountId, email } = await signUp(t);
      const periodEnd = new Date(Date.now() + 30 * DAY);
      const ids = subscriptionPaid(t, accountId, 'pro', periodEnd);
      const body = checkoutCompleted(t, ids.session); // one event, delivered five times at once
      const answers = await Promise.all(Array.from({ length: 5 }, () => t.deliver(body)));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
      expect(answers.filter((a) => a.body.duplicate === false)).toHaveLength(1);
      const first = await mails(t, email, isReceipt, 1);
      expect(first).toHaveLength(1);
      expect(first[0]!.subject).toBe('Your Ephemera receipt: Pro plan, $9.00');
      expect(first[0]!.text).toContain('Item: Ephemera Pro plan, monthly subscription');
      expect(first[0]!.text).toContain('Amount: $9.00 (USD)');
      expect(first[0]!.text).toContain(`Paid until: ${inMail(periodEnd)} (renews automatically`);
      expect(first[0]!.text).toMatch(/^Receipt: rcpt_sub_/m);

      // the success page reads the same payment back from the provider: the same outcome, no second receipt
      expect((await http(t.url, PAYMENTS_API.verifySession(ids.session), { headers: bearer(token) })).status).toBe(200);
      // the customer turns renewal off in Stripe's portal: recorded (an activation), but nothing was paid
      t.state.setSubscription({
        id: ids.sub,
        status: 'active',
        customerId: ids.customer,
        accountId,
        plan: 'pro',
        currentPeriodEnd: periodEnd,
        cancelAtPeriodEnd: true,
      });
      const updated = await t.deliver(
        t.event('customer.subscription.updated', { id: ids.sub, object: 'subscription', customer: ids.customer }),
      );
      expect(updated.body.outcome).toBe('account.subscription-activated');
      expect(await mails(t, email, isReceipt)).toHaveLength(1);

      // the next month is paid (invoice.paid, delivered twice at once): one more receipt, for the new period
      const nextEnd = new Date(periodEnd.getTime() + 30 * DAY);
      t.state.setSubscription({
        id: ids.sub,
        status: 'active',
        customerId: ids.customer,
        accountId,
        plan: 'pro',
        currentPeriodEnd: nextEnd,
        cancelAtPeriodEnd: false,
      });
      const invoice = t.event('invoice.paid', {
        id: rid('in'),
        object: 'invoice',
        customer: ids.customer,
        parent: { type: 'subscription_details', subscription_details: { subscription: ids.sub } },
      });
      const renewals = await Promise.all([t.deliver(invoice), t.deliver(invoice)]);
      expect(renewals.map((r) => r.body.outcome).sort()).toEqual(['account.subscription-activated', 'duplicate']);
      const both = await mails(t, email, isReceipt, 2);
      expect(both).toHaveLength(2);
      expect(both[0]!.text).toContain(`Paid until: ${inMail(nextEnd)}`);
      expect(both[0]!.text).not.toBe(first[0]!.text);
      expect((await subscriptionStatus(t, token)).currentPeriodEnd).toBe(nextEnd.toISOString());
    });

    it('different events about one payment at once (completed, async succeeded, invoice.paid, success page) mail one receipt', async () => {
      const t = target();
      const { token, accountId, email } = await signUp(t);
      const ids = subscriptionPaid(t, accountId, 'business', new Date(Date.now() + 30 * DAY));
      const invoice = {
        id: rid('in'),
        object: 'invoice',
        customer: ids.customer,
        parent: { type: 'subscription_details', subscription_details: { subscription: ids.sub } },
      };
      const answers = await Promise.all([
        t.deliver(checkoutCompleted(t, ids.session)),
        t.deliver(checkoutCompleted(t, ids.session)),
        t.deliver(t.event('checkout.session.async_payment_succeeded', { id: ids.session, object: 'checkout.session' })),
        t.deliver(t.event('invoice.paid', invoice)),
        http(t.url, PAYMENTS_API.verifySession(ids.session), { headers: bearer(token) }),
      ]);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
      // whichever got there first recorded the activation (the success page's answer does not say); the rest: unchanged
      expect(answers.filter((a) => a.body.outcome === 'account.subscription-activated').length).toBeLessThanOrEqual(1);
      expect(await subscriptionStatus(t, token)).toMatchObject({
        subscriptionTier: 'business',
        paymentStatus: 'active',
      });
      const receipts = await mails(t, email, isReceipt, 1);
      expect(receipts.map((m) => m.subject)).toEqual(['Your Ephemera receipt: Business plan, $19.00']);
    });

    it('a paid room extension mails a receipt naming the room, its price and new expiry; completing it again mails nothing', async () => {
      const t = target();
      const { token, accountId, email } = await signUp(t);
      const created = await http(t.url, API.create(), {
        body: { name: uniqueName('receipt'), username: 'owner', hasPassword: false },
        headers: bearer(token),
      });
      expect(created.status).toBe(201);
      const room = created.body as { workspaceId: string; workspace: { name: string } };
      const session = rid('cs');
      t.state.setSession({
        id: session,
        mode: 'payment',
        complete: true,
        paid: true,
        accountId,
        kind: 'room_extension',
        plan: null,
        roomId: room.workspaceId,
        extensionDays: 30,
        subscriptionId: null,
        customerId: null,
        amountTotalCents: 899,
      });
      expect((await t.deliver(checkoutCompleted(t, session))).body.outcome).toBe(`extended ${room.workspaceId}`);
      const expiresAt = (
        await http<ProfileAnswer>(t.url, AUTH_API.profile, { headers: bearer(token) })
      ).body.rooms.find((r) => r.workspaceId === room.workspaceId)!.expiresAt!;
      const receipts = await mails(t, email, isReceipt, 1);
      expect(receipts).toHaveLength(1);
      expect(receipts[0]!.subject).toBe(`Your Ephemera receipt: 30-day extension of ${room.workspace.name}, $8.99`);
      expect(receipts[0]!.text).toContain(`Item: room extension, 30 days for the room "${room.workspace.name}"`);
      expect(receipts[0]!.text).toContain('Amount: $8.99 (USD)');
      expect(receipts[0]!.text).toContain(`The room now expires: ${inMail(expiresAt)}`);
      const again = await http(t.url, PAYMENTS_API.completeRoomExtension(session), {
        body: {},
        headers: bearer(token),
      });
      expect(again.body).toMatchObject({ success: true, extensionDays: 30 });
      expect(await mails(t, email, isReceipt)).toHaveLength(1);
    });

    it('a failing SMTP server: the webhook still answers 200 and the tier changes; the sweep mails the receipt later, once', async () => {
      const t = target();
      const { token, accountId, email } = await signUp(t); // the sign-in code needs the SMTP server working
      const ids = subscriptionPaid(t, accountId, 'business', new Date(Date.now() + 30 * DAY));
      await t.mail.refuseRecipients(true);
      try {
        const res = await t.deliver(checkoutCompleted(t, ids.session));
        expect(res).toMatchObject({
          status: 200,
          body: { duplicate: false, outcome: 'account.subscription-activated' },
        });
        expect(await subscriptionStatus(t, token)).toMatchObject({
          subscriptionTier: 'business',
          paymentStatus: 'active',
        });
        await t.receiptsSettled(); // the send was tried and refused
        const early = await t.sweepReminders(new Date()); // not due yet: the retry waits a minute
        expect(early.receipts).toEqual({ mailed: 0, failed: 0 });
      } finally {
        await t.mail.refuseRecipients(false);
      }
      expect(await mails(t, email, isReceipt)).toHaveLength(0);
      const later = await t.sweepReminders(new Date(Date.now() + 5 * 60_000));
      expect(later.receipts.mailed).toBeGreaterThanOrEqual(1);
      const receipts = await mails(t, email, isReceipt, 1);
      expect(receipts.map((m) => m.subject)).toEqual(['Your Ephemera receipt: Business plan, $19.00']);
      await t.sweepReminders(new Date(Date.now() + 60 * 60_000));
      expect(await mails(t, email, isReceipt)).toHaveLength(1);
    });
  });

  describe('renewal reminders', () => {
    it('mails at the 7, 3 and 1-day thresholds once each (a second sweep sends nothing), none for a subscription that renews itself', async () => {
      const t = target();
      const end = new Date(Date.now() + 10 * DAY);
      const cancelling = await signUp(t, 'cancelling'); // business, renewal turned off: every stage
      const proUser = await signUp(t, 'pro-cancelling'); // pro: the spec shows no 7-day reminder for pro
      const renewing = await signUp(t, 'renewing'); // Stripe charges it by itself: nothing before the expiry
      for (const [who, plan, cancelAtPeriodEnd] of [
        [cancelling, 'business', true],
        [proUser, 'pro', true],
        [renewing, 'business', false],
      ] as const) {
        const ids = subscriptionPaid(t, who.accountId, plan, end, cancelAtPeriodEnd);
        expect((await t.deliver(checkoutCompleted(t, ids.session))).body.outcome).toBe(
          'account.subscription-activated',
        );
      }
      const reminders = (email: string) => mails(t, email, isReminder);
      const sweep = async (at: Date, expected: { cancelling: number; pro: number }) => {
        expect((await t.sweepReminders(at)).skipped).toBe(false);
        expect(await mails(t, cancelling.email, isReminder, expected.cancelling)).toHaveLength(expected.cancelling);
        expect(await mails(t, proUser.email, isReminder, expected.pro)).toHaveLength(expected.pro);
        expect(await reminders(renewing.email)).toHaveLength(0);
      };

      await sweep(new Date(end.getTime() - 7 * DAY + HOUR), { cancelling: 1, pro: 0 });
      const [seven] = await reminders(cancelling.email);
      expect(seven!.subject).toBe('Your Ephemera Business plan expires in 7 days');
      expect(seven!.text).toContain('Expires in 7 days. Consider renewing to avoid any interruption.');
      expect(seven!.text).toContain('Renew Subscription');
      expect(seven!.text).toContain(`paid until ${inMail(end)}`);
      await sweep(new Date(end.getTime() - 7 * DAY + HOUR), { cancelling: 1, pro: 0 }); // the same sweep again
      await sweep(new Date(end.getTime() - 6 * DAY + 2 * HOUR), { cancelling: 1, pro: 0 }); // still the reminder stage

      await sweep(new Date(end.getTime() - 3 * DAY + HOUR), { cancelling: 2, pro: 1 });
      expect((await reminders(cancelling.email))[0]!.text).toContain(
        'Expires in 3 day(s). Renew soon to maintain access.',
      );
      expect((await reminders(proUser.email))[0]!.subject).toBe('Your Ephemera Pro plan expires in 3 day(s)');
      await sweep(new Date(end.getTime() - 2 * DAY), { cancelling: 2, pro: 1 });

      await sweep(new Date(end.getTime() - DAY + HOUR), { cancelling: 3, pro: 2 });
      expect((await reminders(cancelling.email))[0]!.text).toContain(
        'Expires in 1 day(s). Renew now to avoid interruption.',
      );
      await sweep(new Date(end.getTime() - DAY + 2 * HOUR), { cancelling: 3, pro: 2 });

      // after the expiry: the grace period's notice, then the expired one, once each
      expect((await t.sweepReminders(new Date(end.getTime() + 2 * DAY + HOUR))).skipped).toBe(false);
      const grace = await mails(t, cancelling.email, isReminder, 4);
      expect(grace[0]!.text).toContain('Grace period: 5 day(s) left. Renew now to keep your data.');
      await t.sweepReminders(new Date(end.getTime() + 8 * DAY + HOUR));
      await t.sweepReminders(new Date(end.getTime() + 8 * DAY + 2 * HOUR));
      const all = await mails(t, cancelling.email, isReminder, 5);
      expect(all).toHaveLength(5);
      expect(all[0]!.text).toContain('Your subscription has expired. Renew now to regain full access.');
      expect(all[0]!.text).toContain('Reactivate Subscription');
    });
  });
}
