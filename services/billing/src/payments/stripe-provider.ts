/**
 * The PaymentProvider adapter on the official `stripe` SDK. Prices come from proto/src/payments.ts (inline price
 * data: pro $9/month, business $19/month, extensions 3/7/14/30 days $1.99-$8.99), or from price ids of the Stripe
 * account (STRIPE_PRICE_PRO, STRIPE_PRICE_BUSINESS) when given. STRIPE_API_BASE points the SDK at another server
 * (stripe-mock in tests: http://127.0.0.1:12111); empty: Stripe itself.
 * Our ids travel as metadata (accountId, plan, kind, roomId, days) on the checkout session and on the subscription,
 * so a webhook about either can be matched to the account from the provider's own record.
 */
import Stripe from 'stripe';
import { DomainError, EXTENSION_PRICES, PAID_PLANS, PLAN_PRICES, type PaidPlan } from '@ephemera/proto';
import {
  WebhookSignatureError,
  type ChargeState,
  type CheckoutCommon,
  type CheckoutState,
  type PaymentProvider,
  type ProviderCheckout,
  type ProviderEvent,
  type ProviderSubscriptionStatus,
  type SubscriptionState,
} from './provider.ts';

export interface StripeConfig {
  secretKey: string;
  /** whsec_...: without it every webhook is refused (PAYMENTS_NOT_CONFIGURED) */
  webhookSecret: string | null;
  /** e.g. http://127.0.0.1:12111 (stripe-mock); null: api.stripe.com */
  apiBase: string | null;
  /** Stripe price ids of the account's own products; absent: inline prices from PLAN_PRICES */
  priceIds?: Partial<Record<PaidPlan, string>>;
  /** the webhook signature's tolerance in seconds (Stripe's default: 300) */
  toleranceSec?: number;
}

type Obj = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);
/** an expandable field: the id, or the expanded object's id */
const idOf = (v: unknown): string | null => str(v) ?? (v && typeof v === 'object' ? str((v as Obj).id) : null);
const planOf = (v: unknown): PaidPlan | null =>
  (PAID_PLANS as readonly unknown[]).includes(v) ? (v as PaidPlan) : null;
/** an amount in the currency's smallest unit; anything else counts as none */
const centsOf = (v: unknown): number => (typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : 0);

export class StripeProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  private readonly stripe: Stripe;

  constructor(private readonly config: StripeConfig) {
    const base = config.apiBase ? new URL(config.apiBase) : null;
    this.stripe = new Stripe(config.secretKey, {
      maxNetworkRetries: 1,
      timeout: 15_000,
      telemetry: false,
      ...(base
        ? {
            host: base.hostname,
            port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)),
            protocol: base.protocol.replace(':', '') as 'http' | 'https',
          }
        : {}),
    });
  }

  async createSubscriptionCheckout(input: CheckoutCommon & { plan: PaidPlan }): Promise<ProviderCheckout> {
    const price = this.config.priceIds?.[input.plan];
    const metadata = { accountId: input.accountId, plan: input.plan, kind: 'subscription' };
    const session = await this.stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [
        price
          ? { price, quantity: 1 }
          : {
              quantity: 1,
              price_data: {
                currency: 'usd',
                unit_amount: PLAN_PRICES[input.plan].amountCents,
                recurring: { interval: 'month' },
                product_data: { name: `Ephemera ${PLAN_PRICES[input.plan].name}` },
              },
            },
      ],
      client_reference_id: input.accountId,
      ...(input.customerId ? { customer: input.customerId } : { customer_email: input.email }),
      metadata,
      subscription_data: { metadata },
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
    });
    return { id: session.id, url: this.urlOf(session) };
  }

  async createExtensionCheckout(
    input: CheckoutCommon & { roomId: string; roomName: string; days: number },
  ): Promise<ProviderCheckout> {
    const amount = EXTENSION_PRICES[input.days];
    if (amount === undefined) throw new Error(`no price for ${input.days} days`);
    const metadata = {
      accountId: input.accountId,
      kind: 'room_extension',
      roomId: input.roomId,
      days: String(input.days),
    };
    const session = await this.stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: 'usd',
            unit_amount: amount,
            product_data: { name: `${input.days}-Day Room Extension (${input.roomName})` },
          },
        },
      ],
      client_reference_id: input.accountId,
      ...(input.customerId ? { customer: input.customerId } : { customer_email: input.email }),
      metadata,
      payment_intent_data: { metadata },
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
    });
    return { id: session.id, url: this.urlOf(session) };
  }

  async createPortalSession(input: { customerId: string; returnUrl: string }): Promise<{ url: string }> {
    const portal = await this.stripe.billingPortal.sessions.create({
      customer: input.customerId,
      return_url: input.returnUrl,
    });
    return { url: portal.url };
  }

  verifyWebhook(rawBody: Buffer, signature: string | null): ProviderEvent {
    if (!this.config.webhookSecret)
      throw new DomainError('PAYMENTS_NOT_CONFIGURED', 'Payment webhooks are not configured (STRIPE_WEBHOOK_SECRET)');
    if (!signature) throw new WebhookSignatureError('no Stripe-Signature header');
    let event: { id: string; type: string; created: number; data: { object: unknown } };
    try {
      event = this.stripe.webhooks.constructEvent(
        rawBody,
        signature,
        this.config.webhookSecret,
        this.config.toleranceSec ?? 300,
      ) as typeof event;
    } catch (err) {
      throw new WebhookSignatureError(err instanceof Error ? err.message : 'signature check failed');
    }
    const o = (event.data?.object ?? {}) as Obj;
    const object = str(o.object);
    const parent = (o.parent as Obj | null | undefined)?.subscription_details as Obj | undefined;
    return {
      id: event.id,
      type: event.type,
      created: event.created,
      checkoutSessionId: object === 'checkout.session' ? str(o.id) : null,
      subscriptionId: object === 'subscription' ? str(o.id) : (idOf(o.subscription) ?? idOf(parent?.subscription)),
      customerId: idOf(o.customer),
      chargeId: object === 'charge' ? str(o.id) : object === 'refund' ? idOf(o.charge) : null,
    };
  }

  async checkoutSession(id: string): Promise<CheckoutState | null> {
    const s = (await this.retrieve(() => this.stripe.checkout.sessions.retrieve(id))) as unknown as Obj | null;
    if (!s) return null;
    const metadata = (s.metadata ?? {}) as Record<string, string>;
    const kind =
      metadata.kind === 'room_extension' ? 'room_extension' : metadata.kind === 'subscription' ? 'subscription' : null;
    const days = Number(metadata.days);
    return {
      id: String(s.id),
      mode: s.mode as CheckoutState['mode'],
      complete: s.status === 'complete',
      paid: s.payment_status === 'paid' || s.payment_status === 'no_payment_required',
      accountId: str(metadata.accountId) ?? str(s.client_reference_id),
      kind,
      plan: planOf(metadata.plan),
      roomId: str(metadata.roomId),
      extensionDays: Number.isInteger(days) && days > 0 ? days : null,
      subscriptionId: idOf(s.subscription),
      customerId: idOf(s.customer),
      amountTotalCents: typeof s.amount_total === 'number' ? s.amount_total : null,
    };
  }

  async subscription(id: string): Promise<SubscriptionState | null> {
    const s = (await this.retrieve(() => this.stripe.subscriptions.retrieve(id))) as unknown as Obj | null;
    return s ? this.subscriptionOf(s) : null;
  }

  async setCancelAtPeriodEnd(subscriptionId: string, cancelAtPeriodEnd: boolean): Promise<SubscriptionState> {
    const s = await this.stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: cancelAtPeriodEnd });
    return this.subscriptionOf(s as unknown as Obj);
  }

  private subscriptionOf(s: Obj): SubscriptionState {
    const metadata = (s.metadata ?? {}) as Record<string, string>;
    const items = ((s.items as Obj | undefined)?.data ?? []) as Obj[];
    // current_period_end: on the items since API 2025-03; on the subscription before.
    const ends = [s.current_period_end, ...items.map((i) => i.current_period_end)].filter(
      (v): v is number => typeof v === 'number',
    );
    const priceIds = items.map((i) => idOf(i.price)).filter(Boolean);
    const byPrice =
      (Object.entries(this.config.priceIds ?? {}) as [PaidPlan, string][]).find(([, p]) => priceIds.includes(p))?.[0] ??
      null;
    const byAmount =
      items
        .map((i) => (i.price as Obj | undefined)?.unit_amount)
        .map(
          (a) =>
            (Object.entries(PLAN_PRICES) as [PaidPlan, { amountCents: number }][]).find(
              ([, p]) => p.amountCents === a,
            )?.[0] ?? null,
        )
        .find(Boolean) ?? null;
    return {
      id: String(s.id),
      status: s.status as ProviderSubscriptionStatus,
      customerId: idOf(s.customer),
      accountId: str(metadata.accountId),
      plan: planOf(metadata.plan) ?? byPrice ?? byAmount,
      currentPeriodEnd: ends.length ? new Date(Math.max(...ends) * 1000) : null,
      cancelAtPeriodEnd: s.cancel_at_period_end === true,
    };
  }

  async charge(id: string): Promise<ChargeState | null> {
    // Expanded: a charge has carried no refunds list by default since API 2022-11-15, and a one-time checkout's
    // charge may have no customer; our accountId is then in the payment intent's metadata (payment_intent_data).
    const c = (await this.retrieve(() =>
      this.stripe.charges.retrieve(id, { expand: ['refunds', 'payment_intent'] }),
    )) as unknown as Obj | null;
    if (!c) return null;
    const metadata = (c.metadata ?? {}) as Record<string, string>;
    const intent = c.payment_intent && typeof c.payment_intent === 'object' ? (c.payment_intent as Obj) : null;
    const intentMetadata = (intent?.metadata ?? {}) as Record<string, string>;
    const refundTimes = (((c.refunds as Obj | null | undefined)?.data ?? []) as Obj[])
      .filter((r) => r.status !== 'failed' && r.status !== 'canceled')
      .map((r) => r.created)
      .filter((t): t is number => typeof t === 'number');
    return {
      id: String(c.id),
      customerId: idOf(c.customer),
      accountId: str(metadata.accountId) ?? str(intentMetadata.accountId),
      amountCents: centsOf(c.amount),
      amountRefundedCents: centsOf(c.amount_refunded),
      currency: str(c.currency),
      lastRefundAt: refundTimes.length ? new Date(Math.max(...refundTimes) * 1000) : null,
    };
  }

  /** null for the provider's "no such object" (404); other failures propagate (the caller answers 502/503). */
  private async retrieve<T>(fn: () => Promise<T>): Promise<T | null> {
    try {
      return await fn();
    } catch (err) {
      if ((err as { statusCode?: number }).statusCode === 404) return null;
      throw err;
    }
  }

  private urlOf(session: { url?: string | null; id: string }): string {
    if (!session.url) throw new Error(`checkout session ${session.id} has no url`);
    return session.url;
  }
}
