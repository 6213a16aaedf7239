/**
 * Accounts (docs/product/accounts.md) distributed: billing as its own server on Kafka and Postgres, the room service
 * asking it for
 * sessions over HTTP, requests through two gateway replicas (sessions hold on both). Admin-analytics and the file
 * routes (S3) run too, so the walk of the authorization table's HTTP rows reaches every route's own service.
 */
import { accountSuites } from '../accounts/harness.ts';
import { startVersitygw } from '../helpers/versitygw.ts';
import { startDistributedStack } from './stack.ts';

accountSuites('distributed (Kafka, Postgres, Redis; billing its own server)', async (env, port) => {
  const s3 = await startVersitygw();
  const stack = await startDistributedStack({
    s3,
    admin: true,
    accounts: {
      port,
      smtpUrl: env.smtpUrl,
      superadminEmail: env.superadminEmail,
      google: env.google,
      rateLimits: env.rateLimits,
    },
  });
  return {
    url: stack.urlA,
    urlB: stack.urlB,
    contact: stack.billing!.contact,
    advanceClock: stack.advanceClock,
    stop: async () => {
      await stack.stop();
      await s3.stop();
    },
  };
});
