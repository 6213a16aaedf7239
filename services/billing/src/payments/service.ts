/**
 * The payment calls (docs/product/payments.md; docs/protocol.md "Payments (billing)"), for the account of a verified
 * session (the caller resolved it; e-mails in bodies and paths name nobody). Checkout sessions and the billing
 * portal are the provider's pages; what a payment changes is decided only from the provider's own record
 * (webhooks.ts), read back by id here too when the success page asks (verify, complete-room-extension).
 */
import {
  CheckoutSessionIdSchema,
  CreateCheckoutBodySchema,
  CreateExtensionPaymentBodySchema,
  CreatePaidAccountBodySchema,
  DomainError,
  EXTENSION_PRICES,
  PLAN_PRICES,
  PortalBodySchema,
  RenewSubscriptionBodySchema,
  assertMayCreateOrExtend,
  type AccountRoomsApi,
  type CheckoutAnswer,
  type CompleteExtensionAnswer,
  type PaymentVerificationAnswer,
  type PortalAnswer,
  type RenewAnswer,
  type SubscriptionStatusAnswer,
  type UpgradeRoomsAnswer,
} from '@ephemera/proto';
import { parseOrThrow, type Logger } from '@ephemera/platform';
import { standingOf, type AccountRow } from '../accounts-repository.ts';
import type { PaymentProvider, ProviderStateReader } from './provider.ts';
import type { PaymentOutcomes } from './webhooks.ts';
import { isLapsed, subscriptionStatusOf } from './subscription-decision.ts';
import { returnUrlOn, siteOrigin, withSessionId } from './return-urls.ts';
import { changeAutoRenewal } from './auto-renewal.ts';
import type { BillingService } from '../billing-service.ts';

export interface PaymentsDeps {
  /** null: STRIPE_SECRET_KEY is not set; every payment call answers PAYMENTS_NOT_CONFIGURED (503) */
  provider: PaymentProvider | null;
  state: ProviderStateReader | null;
  outcomes: PaymentOutcomes | null;
  billing: BillingService;
  rooms: AccountRoomsApi;
  logger: Logger;
  now: () => Date;
  /**
   * The site's address for the provider's return links: PUBLIC_URL, or in embedded mode the server's own configured
   * address; never a request's Origin or Host (a forged header would send the payer to another site). null: the
   * calls that need return links answer PAYMENTS_NOT_CONFIGURED.
   */
  siteUrl: () => string | null;
}

export class PaymentsService {
  constructor(private readonly deps: PaymentsDeps) {}

  get configured(): boolean {
    return this.deps.provider !== null;
  }

  /** Subscription states in which the provider still holds (bills or retries) the subscription: renewing is the portal's. */
  private static readonly HELD = new Set(['active', 'trialing', 'past_due', 'unpaid']);

  private need(): { provider: PaymentProvider; state: ProviderStateReader; outcomes: PaymentOutcomes } {
    const { provider, state, outcomes } = this.deps;
    if (!provider || !state || !outcomes) throw new DomainError('PAYMENTS_NOT_CONFIGURED');
    return { provider, state, outcomes };
  }

  async createCheckout(account: AccountRow, body: unknown): Promise<CheckoutAnswer> {
    const { provider } = this.need();
    if (!body || typeof body !== 'object' || !(body as { plan?: unknown }).plan) throw new DomainError('PLAN_REQUIRED');
    const input = parseOrThrow(CreateCheckoutBodySchema, body);
    const base = siteOrigin(this.deps.siteUrl());
    const success = withSessionId(returnUrlOn(input.successUrl, `/payment/success?plan=${input.plan}`, base));
    const cancel = returnUrlOn(input.cancelUrl, '/payment/cancelled', base);
    const checkout = await this.provider('PAYMENT_SESSION_FAILED', () =>
      provider.createSubscriptionCheckout({
        accountId: account.id,
        email: account.email,
        customerId: account.customerId,
        plan: input.plan,
        successUrl: success,
        cancelUrl: cancel,
      }),
    );
    return { success: true, url: checkout.url, sessionId: checkout.id };
  }

  async createExtensionPayment(account: AccountRow, body: unknown): Promise<CheckoutAnswer> {
    const { provider } = this.need();
    const input = parseOrThrow(CreateExtensionPaymentBodySchema, body);
    assertMayCreateOrExtend(standingOf(account, this.deps.now())); // docs/product/payments.md PAY12
    const room = (await this.deps.rooms.roomsOfAccount({ accountId: account.id })).find(
      (r) => r.workspaceId === input.workspaceId,
    );
    if (!room) throw new DomainError('NOT_ROOM_OWNER');
    if (room.tier !== 'free') throw new DomainError('EXTENSION_FREE_FOR_TIER');
    if (room.expiresAt === null) throw new DomainError('NEVER_EXPIRES');
    const days = input.extensionType;
    const base = siteOrigin(this.deps.siteUrl());
    const query = `type=room_extension&workspaceId=${encodeURIComponent(room.workspaceId)}&extensionType=${days}`;
    const success = withSessionId(returnUrlOn(input.successUrl, `/payment/success?${query}`, base));
    const cancel = returnUrlOn(input.cancelUrl, `/${encodeURIComponent(room.roomId)}`, base);
    const checkout = await this.provider('EXTENSION_PAYMENT_FAILED', () =>
      provider.createExtensionCheckout({
        accountId: account.id,
        email: account.email,
        customerId: account.customerId,
        roomId: room.workspaceId,
        roomName: room.roomId,
        days,
        successUrl: success,
        cancelUrl: cancel,
      }),
    );
    return { success: true, url: checkout.url, sessionId: checkout.id };
  }

  /** The success page of an extension: the provider's record of the session must say paid, for this account. */
  async completeExtension(account: AccountRow, orderId: string): Promise<CompleteExtensionAnswer> {
    const { state, outcomes } = this.need();
    const id = parseOrThrow(CheckoutSessionIdSchema, orderId);
    const session = await this.provider('EXTENSION_NOT_COMPLETED', () => state.checkoutSession(id));
    if (
      !session ||
      session.kind !== 'room_extension' ||
      session.accountId !== account.id ||
      !session.complete ||
      !session.paid
    ) {
      throw new DomainError('PAYMENT_NOT_VERIFIED');
    }
    const result = await outcomes.applyExtension(session, null);
    if (!result) throw new DomainError('EXTENSION_NOT_COMPLETED');
    return {
      success: true,
      newExpiryDate: result.newExpiryDate,
      roomName: result.roomName,
      workspaceId: result.workspaceId,
      extensionDays: result.days,
    };
  }

  /** The success page: what the provider says about the session (never the query string), for this account. */
  async verify(account: AccountRow, sessionId: string): Promise<PaymentVerificationAnswer> {
    const { state, outcomes } = this.need();
    const id = parseOrThrow(CheckoutSessionIdSchema, sessionId);
    const session = await this.provider('UNAVAILABLE', () => state.checkoutSession(id));
    if (!session || session.accountId !== account.id || !session.complete || !session.paid)
      throw new DomainError('PAYMENT_NOT_VERIFIED');
    const who = { email: account.email, username: account.username };
    if (session.kind === 'room_extension') {
      const result = await outcomes.applyExtension(session, null);
      if (!result) throw new DomainError('PAYMENT_NOT_VERIFIED');
      return {
        success: true,
        type: 'room_extension',
        plan: null,
        amount: (session.amountTotalCents ?? EXTENSION_PRICES[result.days] ?? 0) / 100,
        ...who,
        subscriptionId: null,
        extensionDays: result.days,
        newExpiryDate: result.newExpiryDate,
        roomName: result.roomName,
        workspaceId: result.workspaceId,
      };
    }
    if (session.mode !== 'subscription' || !session.subscriptionId) throw new DomainError('PAYMENT_NOT_VERIFIED');
    // The webhook may not have arrived yet: the same sync, from the provider's record of the subscription.
    await outcomes.syncSubscription(session.subscriptionId, { accountId: account.id, providerEventId: null });
    const plan = session.plan ?? 'pro';
    return {
      success: true,
      type: 'subscription',
      plan,
      amount: PLAN_PRICES[plan].amountCents / 100,
      ...who,
      subscriptionId: session.subscriptionId,
      extensionDays: null,
      newExpiryDate: null,
      roomName: null,
      workspaceId: null,
    };
  }

  /** The subscription status and the renewal status (docs/product/payments.md PAY5-PAY7), from billing's read model. */
  subscriptionStatus(account: AccountRow): SubscriptionStatusAnswer {
    return subscriptionStatusOf(account, this.deps.now());
  }

  /** The dashboard's auto-renewal switch: the provider's subscription first, then the account (auto-renewal.ts). */
  setAutoRenewal(account: AccountRow, body: unknown): Promise<{ success: true; autoRenewal: boolean }> {
    return changeAutoRenewal(
      { billing: this.deps.billing, provider: this.deps.provider, logger: this.deps.logger },
      account,
      body,
    );
  }

  async portal(account: AccountRow, body: unknown): Promise<PortalAnswer> {
    const { provider } = this.need();
    const input = parseOrThrow(PortalBodySchema, body ?? {});
    if (!account.customerId) throw new DomainError('NO_BILLING_ACCOUNT');
    const returnUrl = returnUrlOn(input.returnUrl, '/subscription', siteOrigin(this.deps.siteUrl()));
    const portal = await this.provider('PORTAL_FAILED', () =>
      provider.createPortalSession({ customerId: account.customerId!, returnUrl }),
    );
    return { success: true, url: portal.url };
  }

  /**
   * The spec's upgrade-rooms: the account's live rooms take its current tier through the room service's
   * change-tier-of-account (as a verified payment does). A subscription lapsed past grace (the expiry sweep's rule)
   * gives free rooms, and its expiry is recorded now rather than at the next sweep. No provider is needed.
   */
  async upgradeRooms(account: AccountRow): Promise<UpgradeRoomsAnswer> {
    let tier = account.tier;
    if (isLapsed(account, this.deps.now())) {
      tier = 'free';
      await this.deps.outcomes?.recordExpiry(account.id);
    }
    const { changed } = await this.deps.rooms.changeTierOfAccount({
      accountId: account.id,
      tier,
      reason: 'upgrade-rooms',
    });
    return { success: true, tier, changed };
  }

  /**
   * The spec's renew-subscription. The body's tier never becomes the account's: it only picks the plan of a new
   * checkout (the tier follows when the provider says it was paid). A subscription the provider still holds for the
   * account is renewed, re-activated or changed in the billing portal instead.
   */
  async renew(account: AccountRow, body: unknown): Promise<RenewAnswer> {
    if (!body || typeof body !== 'object' || !(body as { tier?: unknown }).tier) throw new DomainError('PLAN_REQUIRED');
    const input = parseOrThrow(RenewSubscriptionBodySchema, body);
    const { state } = this.need();
    if (account.subscriptionId && account.customerId) {
      const subscriptionId = account.subscriptionId;
      const sub = await this.provider('PORTAL_FAILED', () => state.subscription(subscriptionId));
      if (
        sub &&
        PaymentsService.HELD.has(sub.status) &&
        (sub.customerId === account.customerId || sub.accountId === account.id)
      ) {
        const portal = await this.portal(account, { returnUrl: input.returnUrl ?? '/dashboard' });
        return { success: true, url: portal.url, kind: 'portal', sessionId: null };
      }
    }
    const checkout = await this.createCheckout(account, {
      plan: input.tier,
      successUrl: input.successUrl,
      cancelUrl: input.cancelUrl,
    });
    return { success: true, url: checkout.url, kind: 'checkout', sessionId: checkout.sessionId };
  }

  /**
   * The spec's create-paid-account, made safe: accounts are created only by the sign-in flows; here the signed-in
   * account's paymentId (a checkout session) is verified exactly as verify-session does and what the provider's
   * record says is applied. The body's e-mail, username, tier, Google id and picture are ignored.
   */
  async verifyPaymentId(account: AccountRow, body: unknown): Promise<PaymentVerificationAnswer> {
    const { paymentId } = parseOrThrow(CreatePaidAccountBodySchema, body ?? {});
    return this.verify(account, paymentId);
  }

  /** A provider failure is a 502 with the spec's text, never a 500; the detail goes to the log. */
  private async provider<T>(
    code:
      | 'PAYMENT_SESSION_FAILED'
      | 'EXTENSION_PAYMENT_FAILED'
      | 'PORTAL_FAILED'
      | 'EXTENSION_NOT_COMPLETED'
      | 'UNAVAILABLE',
    fn: () => Promise<T>,
  ): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof DomainError) throw err;
      this.deps.logger.warn({ err }, 'payment provider call failed');
      throw new DomainError(code);
    }
  }
}
