/**
 * Accounts (issue 9) distributed: billing as its own server on Kafka and Postgres, the room service asking it for
 * sessions over HTTP, requests through two gateway replicas (sessions hold on both).
 */
import { accountSuites } from '../accounts/harness.ts';
import { startDistributedStack } from './stack.ts';

accountSuites('distributed (Kafka, Postgres, Redis; billing its own server)', async (env, port) => {
  const stack = await startDistributedStack({ accounts: { port, smtpUrl: env.smtpUrl, superadminEmail: env.superadminEmail, google: env.google, rateLimits: env.rateLimits } });
  return { url: stack.urlA, urlB: stack.urlB, contact: stack.billing!.contact, advanceClock: stack.advanceClock, stop: stack.stop };
});
