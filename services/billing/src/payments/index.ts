/**
 * Payments wired together: the Stripe adapter (when STRIPE_SECRET_KEY is set), the outcomes of verified provider
 * events, the HTTP use cases, the expiry sweep of cancelled subscriptions, receipts, and the renewal-reminder sweep.
 * Without a secret key nothing talks to a provider: the routes answer PAYMENTS_NOT_CONFIGURED (503) and the start-up
 * log says so. The reminder sweep runs either way: it needs only the accounts and the mailer.
 */
import type { AccountRoomsApi } from '@ephemera/proto';
import type { Logger, Pool } from '@ephemera/platform';
import type { BillingService } from '../billing-service.ts';
import type { Mailer } from '../mailer.ts';
import { StripeProvider, type StripeConfig } from './stripe-provider.ts';
import { PaymentsService } from './service.ts';
import { PaymentOutcomes } from './webhooks.ts';
import type { PaymentProvider, ProviderStateReader } from './provider.ts';
import { Receipts } from './receipts.ts';
import { RenewalReminders } from './reminders.ts';

export { StripeProvider, type StripeConfig } from './stripe-provider.ts';
export { PaymentsService } from './service.ts';
export { PaymentOutcomes } from './webhooks.ts';
export { Receipts } from './receipts.ts';
export { RenewalReminders, reminderDue, type SweepResult } from './reminders.ts';
export { heldSubscriptionOf } from './auto-renewal.ts';
export { paymentsRouter, paymentWebhookRouter } from './http.ts';
export type {
  PaymentProvider,
  ProviderStateReader,
  CheckoutState,
  SubscriptionState,
  ChargeState,
} from './provider.ts';

export interface PaymentsOptions {
  /** null: payments are off (no STRIPE_SECRET_KEY) */
  stripe: StripeConfig | null;
  /** PUBLIC_URL: the site's address, for the provider's return links and the subscription page's address in mails */
  publicUrl?: string | null;
  /**
   * Without PUBLIC_URL, embedded mode's own configured address (http://{HOST}:{PORT}) for return links; a
   * distributed billing service has none, and refuses checkouts and portal sessions until PUBLIC_URL is set.
   */
  serverAddress?: () => string | null;
  /**
   * Where the provider's current state is read (default: the provider). Tests put recorded state in front of
   * stripe-mock, which is stateless (test/payments/provider-state.ts).
   */
  stateReader?: (provider: PaymentProvider) => ProviderStateReader;
  /** how often cancelled subscriptions past their grace are expired (default 10 minutes; 0: never) */
  expirySweepMs?: number;
  /** RENEWAL_REMINDER_INTERVAL_MS: how often renewal reminders are mailed and failed receipts retried (default 1 hour; 0: never) */
  reminderSweepMs?: number;
  /** called once everything is made: tests reach the sweeps through it (a reminder sweep at an injected time) */
  onCreated?: (payments: Payments) => void;
}

export const DEFAULT_REMINDER_SWEEP_MS = 3_600_000;

export interface Payments {
  service: PaymentsService;
  provider: PaymentProvider | null;
  outcomes: PaymentOutcomes | null;
  receipts: Receipts;
  reminders: RenewalReminders;
  /** stops the sweeps and waits for receipts being mailed */
  stop(): Promise<void>;
}

export function createPayments(
  opts: PaymentsOptions & {
    billing: BillingService;
    pool: Pool;
    rooms: AccountRoomsApi;
    logger: Logger;
    mailer: Mailer;
    now: () => Date;
  },
): Payments {
  const provider = opts.stripe ? new StripeProvider(opts.stripe) : null;
  if (!provider)
    opts.logger.warn(
      'STRIPE_SECRET_KEY is not set: payments are off (the payment routes answer 503 "Payments are not configured")',
    );
  else if (!opts.stripe?.webhookSecret)
    opts.logger.warn(
      'STRIPE_WEBHOOK_SECRET is not set: payment webhooks are refused (503); tiers change only when the success page verifies a payment',
    );
  else opts.logger.info({ apiBase: opts.stripe.apiBase ?? 'api.stripe.com' }, 'payments: Stripe');
  const state = provider ? (opts.stateReader ? opts.stateReader(provider) : provider) : null;
  const publicUrl = opts.publicUrl ?? null;
  const receipts = new Receipts({
    pool: opts.pool,
    billing: opts.billing,
    mailer: opts.mailer,
    logger: opts.logger,
    now: opts.now,
    publicUrl,
  });
  const reminders = new RenewalReminders({
    pool: opts.pool,
    billing: opts.billing,
    mailer: opts.mailer,
    receipts,
    logger: opts.logger,
    now: opts.now,
    publicUrl,
  });
  const outcomes = state
    ? new PaymentOutcomes({
        billing: opts.billing,
        pool: opts.pool,
        rooms: opts.rooms,
        state,
        logger: opts.logger,
        now: opts.now,
        receipts,
      })
    : null;
  if (provider && !publicUrl && !opts.serverAddress)
    opts.logger.warn(
      'PUBLIC_URL is not set: checkouts and portal sessions are refused (return links are never taken from a request)',
    );
  const siteUrl = () => publicUrl ?? opts.serverAddress?.() ?? null;
  const service = new PaymentsService({
    provider,
    state,
    outcomes,
    billing: opts.billing,
    rooms: opts.rooms,
    logger: opts.logger,
    now: opts.now,
    siteUrl,
  });
  const every = opts.expirySweepMs ?? 600_000;
  const timer =
    outcomes && every > 0
      ? setInterval(() => {
          outcomes.expireLapsed().catch((err) => opts.logger.warn({ err }, 'subscription expiry sweep failed'));
        }, every)
      : null;
  timer?.unref();
  // Like the room service's sweeper (an unref'd interval), plus a first run soon after the start: with an hourly
  // interval, a service restarted more often than hourly (deploys) would otherwise never sweep.
  const remindEvery = opts.reminderSweepMs ?? DEFAULT_REMINDER_SWEEP_MS;
  const first = remindEvery > 0 ? setTimeout(() => reminders.tick(), Math.min(remindEvery, 60_000)) : null;
  const reminderTimer = remindEvery > 0 ? setInterval(() => reminders.tick(), remindEvery) : null;
  first?.unref();
  reminderTimer?.unref();
  const payments: Payments = {
    service,
    provider,
    outcomes,
    receipts,
    reminders,
    async stop() {
      if (timer) clearInterval(timer);
      if (first) clearTimeout(first);
      if (reminderTimer) clearInterval(reminderTimer);
      await reminders.idle();
      await receipts.settled();
    },
  };
  opts.onCreated?.(payments);
  return payments;
}
