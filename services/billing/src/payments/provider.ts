/**
 * The payment-provider port: what billing needs from a provider, in billing's own terms. One adapter today,
 * stripe-provider.ts (the official `stripe` SDK; stripe-mock in tests). Webhook events are only ever *hints*: each
 * handler reads the object's current state back through this port and decides from that, so a late or reordered
 * delivery cannot roll a subscription back (webhooks.ts).
 */
import type { PaidPlan } from '@ephemera/proto';

/** What the checkout pages need: where to send the browser and the session's id. */
export interface ProviderCheckout {
  id: string;
  url: string;
}

export interface CheckoutCommon {
  accountId: string;
  email: string;
  /** the account's provider customer, when it has one (a returning subscriber) */
  customerId: string | null;
  /** absolute addresses of this site; successUrl gets the session id appended by the provider */
  successUrl: string;
  cancelUrl: string;
}

/** A checkout session as the provider records it now. */
export interface CheckoutState {
  id: string;
  mode: 'subscription' | 'payment' | 'setup';
  /** the session finished (the customer went through the checkout) */
  complete: boolean;
  /** the money arrived (or none was due) */
  paid: boolean;
  /** ours, set when the session was created (metadata) */
  accountId: string | null;
  kind: 'subscription' | 'room_extension' | null;
  plan: PaidPlan | null;
  roomId: string | null;
  extensionDays: number | null;
  subscriptionId: string | null;
  customerId: string | null;
  amountTotalCents: number | null;
}

export type ProviderSubscriptionStatus =
  'active' | 'trialing' | 'past_due' | 'unpaid' | 'canceled' | 'incomplete' | 'incomplete_expired' | 'paused';

/** A subscription as the provider records it now. */
export interface SubscriptionState {
  id: string;
  status: ProviderSubscriptionStatus;
  customerId: string | null;
  /** ours (metadata set at checkout); null when the provider's record has none */
  accountId: string | null;
  plan: PaidPlan | null;
  /** the end of the paid period */
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
}

/** A charge as the provider records it now: what was paid and how much of it has been refunded so far. */
export interface ChargeState {
  id: string;
  customerId: string | null;
  /** ours (metadata of the charge or of its payment intent, set at checkout); null when neither has one */
  accountId: string | null;
  amountCents: number;
  /** the refunded total so far (partial refunds add up); 0 when nothing was refunded */
  amountRefundedCents: number;
  currency: string | null;
  /** when the latest refund that has not failed was made; null when the provider lists none */
  lastRefundAt: Date | null;
}

/** A verified webhook event, reduced to what the handlers need: which objects it is about. */
export interface ProviderEvent {
  id: string;
  type: string;
  /** seconds since the epoch, as the provider stamped it */
  created: number;
  checkoutSessionId: string | null;
  subscriptionId: string | null;
  customerId: string | null;
  /** the charge a charge.* event is about (a refund's charge for refund objects) */
  chargeId: string | null;
}

/** The signature did not verify (wrong secret, altered body, too old, missing header). */
export class WebhookSignatureError extends Error {}

export interface PaymentProvider {
  readonly name: 'stripe';
  createSubscriptionCheckout(input: CheckoutCommon & { plan: PaidPlan }): Promise<ProviderCheckout>;
  createExtensionCheckout(
    input: CheckoutCommon & { roomId: string; roomName: string; days: number },
  ): Promise<ProviderCheckout>;
  createPortalSession(input: { customerId: string; returnUrl: string }): Promise<{ url: string }>;
  /** Verifies the signature over the raw body (throws WebhookSignatureError) and reduces the event. */
  verifyWebhook(rawBody: Buffer, signature: string | null): ProviderEvent;
  /** The session's current state; null when the provider does not know it. */
  checkoutSession(id: string): Promise<CheckoutState | null>;
  /** The subscription's current state; null when the provider does not know it. */
  subscription(id: string): Promise<SubscriptionState | null>;
  /**
   * Auto-renewal at the provider: cancel at the period's end (true) or keep renewing (false). Answers the subscription
   * as the provider records it after the change; throws when the provider refused or could not be reached.
   */
  setCancelAtPeriodEnd(subscriptionId: string, cancelAtPeriodEnd: boolean): Promise<SubscriptionState>;
  /** The charge's current state, its refunds included; null when the provider does not know it. */
  charge(id: string): Promise<ChargeState | null>;
}

/**
 * Where the handlers read the provider's current state. The provider itself in production; a test can put a
 * recorded state in front (stripe-mock is stateless: it answers fixtures, whatever was paid), see
 * test/payments/provider-state.ts.
 */
export type ProviderStateReader = Pick<PaymentProvider, 'checkoutSession' | 'subscription' | 'charge'>;
