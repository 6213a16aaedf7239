/**
 * Payments wired together: the Stripe adapter (when STRIPE_SECRET_KEY is set), the outcomes of verified provider
 * events, the HTTP use cases, and the expiry sweep of cancelled subscriptions. Without a secret key nothing talks
 * to a provider: the routes answer PAYMENTS_NOT_CONFIGURED (503) and the start-up log says so.
 */
import type { AccountRoomsApi } from '@ephemera/proto';
import type { Logger, Pool } from '@ephemera/platform';
import type { BillingService } from '../billing-service.ts';
import { StripeProvider, type StripeConfig } from './stripe-provider.ts';
import { PaymentsService } from './service.ts';
import { PaymentOutcomes } from './webhooks.ts';
import type { PaymentProvider, ProviderStateReader } from './provider.ts';

export { StripeProvider, type StripeConfig } from './stripe-provider.ts';
export { PaymentsService } from './service.ts';
export { PaymentOutcomes } from './webhooks.ts';
export { paymentsRouter, paymentWebhookRouter } from './http.ts';
export type { PaymentProvider, ProviderStateReader, CheckoutState, SubscriptionState } from './provider.ts';

export interface PaymentsOptions {
  /** null: payments are off (no STRIPE_SECRET_KEY) */
  stripe: StripeConfig | null;
  /** PUBLIC_URL: the site's address for the provider's return links; absent: the request's origin */
  publicUrl?: string | null;
  /**
   * Where the provider's current state is read (default: the provider). Tests put recorded state in front of
   * stripe-mock, which is stateless (test/payments/provider-state.ts).
   */
  stateReader?: (provider: PaymentProvider) => ProviderStateReader;
  /** how often cancelled subscriptions past their grace are expired (default 10 minutes; 0: never) */
  expirySweepMs?: number;
}

/** STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_API_BASE, STRIPE_PRICE_PRO, STRIPE_PRICE_BUSINESS, PUBLIC_URL */
export function paymentsFromEnv(env: NodeJS.ProcessEnv = process.env): PaymentsOptions {
  const stripe = env.STRIPE_SECRET_KEY ? {
    secretKey: env.STRIPE_SECRET_KEY, webhookSecret: env.STRIPE_WEBHOOK_SECRET || null, apiBase: env.STRIPE_API_BASE || null,
    priceIds: { ...(env.STRIPE_PRICE_PRO ? { pro: env.STRIPE_PRICE_PRO } : {}), ...(env.STRIPE_PRICE_BUSINESS ? { business: env.STRIPE_PRICE_BUSINESS } : {}) },
  } : null;
  return { stripe, publicUrl: env.PUBLIC_URL || null };
}

export interface Payments { service: PaymentsService; provider: PaymentProvider | null; outcomes: PaymentOutcomes | null; stop(): void }

export function createPayments(opts: PaymentsOptions & { billing: BillingService; pool: Pool; rooms: AccountRoomsApi; logger: Logger; now: () => Date }): Payments {
  const provider = opts.stripe ? new StripeProvider(opts.stripe) : null;
  if (!provider) opts.logger.warn('STRIPE_SECRET_KEY is not set: payments are off (the payment routes answer 503 "Payments are not configured")');
  else if (!opts.stripe?.webhookSecret) opts.logger.warn('STRIPE_WEBHOOK_SECRET is not set: payment webhooks are refused (503); tiers change only when the success page verifies a payment');
  else opts.logger.info({ apiBase: opts.stripe.apiBase ?? 'api.stripe.com' }, 'payments: Stripe');
  const state = provider ? (opts.stateReader ? opts.stateReader(provider) : provider) : null;
  const outcomes = state ? new PaymentOutcomes({ billing: opts.billing, pool: opts.pool, rooms: opts.rooms, state, logger: opts.logger, now: opts.now }) : null;
  const service = new PaymentsService({ provider, state, outcomes, rooms: opts.rooms, logger: opts.logger, now: opts.now, publicUrl: opts.publicUrl ?? null });
  const every = opts.expirySweepMs ?? 600_000;
  const timer = outcomes && every > 0 ? setInterval(() => {
    outcomes.expireLapsed().catch((err) => opts.logger.warn({ err }, 'subscription expiry sweep failed'));
  }, every) : null;
  timer?.unref();
  return { service, provider, outcomes, stop() { if (timer) clearInterval(timer); } };
}
