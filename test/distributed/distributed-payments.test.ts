/**
 * Payments (docs/product/payments.md) distributed: billing its own server (Kafka, Postgres) with Stripe's SDK against
 * stripe-mock, the room service changing tiers and extending rooms on billing's internal calls, requests and sockets
 * through a gateway replica (the path router sends /api/payments/ to billing, as the ingress does), and
 * admin-analytics for the superadmin's report.
 */
import { freePort } from '../../deploy/local/infra.ts';
import { paymentSuites } from '../payments/harness.ts';
import { startDistributedStack } from './stack.ts';

/** PUBLIC_URL: a distributed billing service takes return links from it only (never a request's headers) */
const SITE_URL = 'https://chat.example.test';

paymentSuites('distributed (Kafka, Postgres, Redis; billing its own server)', async (env) => {
  const stack = await startDistributedStack({
    accounts: {
      port: await freePort(),
      smtpUrl: env.smtpUrl,
      superadminEmail: env.superadminEmail,
      rateLimits: env.rateLimits,
      payments: { ...env.payments, publicUrl: SITE_URL },
    },
    admin: true, // the superadmin's report (the refunds suite)
  });
  return { url: stack.urlA, siteUrl: SITE_URL, advanceClock: stack.advanceClock, stop: stack.stop };
});
