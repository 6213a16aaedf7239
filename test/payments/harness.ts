/**
 * One start per mode for the payment suites: Mailpit (sign-in codes, receipts and reminders; its chaos switch plays a
 * failing SMTP server), stripe-mock (Stripe's own mock server, the SDK talks to it for real), then the product with
 * STRIPE_* pointed at it and the provider's state read through ProviderState (stripe-mock is stateless). Webhook
 * bodies are signed here with the SDK's generateTestHeaderString. The reminder sweep's timer is off: the notice suite
 * runs sweeps itself, at the times it chooses (payments.onCreated hands the product's sweeps over). The product has a
 * superadmin (and admin-analytics), whose report the refunds suite reads.
 */
import { describe, beforeAll, afterAll } from 'vitest';
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import type { Payments } from '@ephemera/billing';
import { PAYMENTS_API } from '@ephemera/proto';
import { startMailpit } from '../helpers/mailpit.ts';
import { startStripeMock, STRIPE_MOCK_KEY } from '../helpers/stripe-mock.ts';
import { accountTestLimits } from '../accounts/harness.ts';
import type { AccountTarget } from '../accounts/account-clients.ts';
import { ProviderState } from './provider-state.ts';
import { paymentsSuite } from './payments.suite.ts';
import { noticesSuite } from './notices.suite.ts';
import { accountCallsSuite } from './account-calls.suite.ts';
import { refundsSuite } from './refunds.suite.ts';
import { autoRenewalSuite } from './auto-renewal.suite.ts';
import { graceSuite } from './grace.suite.ts';
import { WEBHOOK_SECRET, type PaymentEnv, type PaymentProduct, type PaymentTarget } from './target.ts';

const SUPERADMIN_EMAIL = 'root@example.test';

const signer = new Stripe('sk_test_signer');

export function paymentSuites(name: string, start: (env: PaymentEnv) => Promise<PaymentProduct>) {
  describe(`payments: ${name}`, () => {
    let t: (PaymentTarget & { stop(): Promise<void> }) | null = null;
    beforeAll(async () => {
      const [mail, stripeMock] = await Promise.all([startMailpit({ chaos: true }), startStripeMock()]);
      const state = new ProviderState();
      let payments: Payments | null = null;
      const product = await start({
        smtpUrl: mail.smtpUrl,
        superadminEmail: SUPERADMIN_EMAIL,
        rateLimits: accountTestLimits(),
        payments: {
          stripe: { secretKey: STRIPE_MOCK_KEY, webhookSecret: WEBHOOK_SECRET, apiBase: stripeMock.url },
          stateReader: (provider) => state.reader(provider),
          expirySweepMs: 0,
          reminderSweepMs: 0,
          onCreated: (p) => {
            payments = p;
          },
        },
      });
      const sweeps = () => {
        if (!payments) throw new Error('payments not created');
        return payments as Payments;
      };
      const accounts = {
        url: product.url,
        mail,
        superadminEmail: '',
        advanceClock: product.advanceClock,
        stop: async () => {},
      } as unknown as AccountTarget;
      t = {
        url: product.url,
        siteUrl: product.siteUrl,
        mail,
        state,
        stripeMockUrl: stripeMock.url,
        superadminEmail: SUPERADMIN_EMAIL,
        accounts,
        advanceClock: product.advanceClock,
        sweepReminders: (at) => sweeps().reminders.sweep(at),
        receiptsSettled: () => sweeps().receipts.settled(),
        event(type, object, opts = {}) {
          return JSON.stringify({
            id: opts.id ?? `evt_${randomBytes(12).toString('hex')}`,
            object: 'event',
            api_version: '2025-10-29',
            type,
            livemode: false,
            created: opts.created ?? Math.floor(Date.now() / 1000),
            pending_webhooks: 1,
            request: { id: null, idempotency_key: null },
            data: { object },
          });
        },
        async deliver(body, opts = {}) {
          const header =
            opts.header !== undefined
              ? opts.header
              : signer.webhooks.generateTestHeaderString({
                  payload: body,
                  secret: opts.secret ?? WEBHOOK_SECRET,
                  timestamp: opts.timestamp,
                });
          const res = await fetch(product.url + PAYMENTS_API.webhook, {
            method: 'POST',
            body,
            headers: {
              'content-type': 'application/json; charset=utf-8',
              ...(header === null ? {} : { 'stripe-signature': header }),
            },
          });
          const text = await res.text();
          let json: unknown = text;
          try {
            json = JSON.parse(text);
          } catch {
            /* not JSON */
          }
          return { status: res.status, body: json };
        },
        async stop() {
          await product.stop();
          await stripeMock.stop();
          await mail.stop();
        },
      };
    });
    afterAll(async () => {
      await t?.stop();
    });
    const target = () => {
      if (!t) throw new Error('target not started');
      return t;
    };
    paymentsSuite(target);
    accountCallsSuite(target);
    noticesSuite(target);
    refundsSuite(target);
    autoRenewalSuite(target);
    graceSuite(target);
  });
}
