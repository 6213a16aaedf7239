/**
 * What a verified provider event changes (docs/product/payments.md PAY4; docs/product/security.md S19). The
 * webhook body is only a hint of *which* object changed: the handlers read that object's current state back from the provider (ProviderStateReader) and bring
 * the account to it, so deliveries in any order, twice, or late converge on the provider's truth.
 *   checkout.session.completed (+ async_payment_succeeded)  subscription: sync it; room extension: apply it once
 *   invoice.paid, invoice.payment_failed, customer.subscription.created/.updated/.deleted  sync the subscription
 *   charge.refunded  read the charge; record its refunded total's increase, once (refunds.ts)
 * Syncing records at most one account event (subscription-activated / -past-due / -cancelled / -expired, decided
 * under the account's lock from its current row), then sets the tier of the account's rooms through the room
 * service's RoomTierChanged path (a no-op for rooms already on it), so a retry after a crash still gets there.
 * Each provider event id is handled once (billing.provider_events, primary key).
 * The decisions are subscription-decision.ts's; the tables of handled events and extension orders: repository.ts.
 * Receipts: where an outcome that is a payment is newly recorded (a subscription period paid, an extension applied),
 * its receipt is issued (receipts.ts: queued and mailed without the handling waiting for the SMTP server).
 */
import { DomainError, PLAN_PRICES, type AccountRoomsApi, type Tier } from '@ephemera/proto';
import { inTransaction, type Logger, type Pool } from '@ephemera/platform';
import type { BillingService } from '../billing-service.ts';
import type { AccountRow } from '../accounts-repository.ts';
import type { Receipts } from './receipts.ts';
import { recordRefund } from './refunds.ts';
import { decideSubscription, GRACE_MS, isLapsed, isNewPayment } from './subscription-decision.ts';
import {
  claimProviderEvent,
  forgetProviderEvent,
  lockExtensionOrder,
  markExtensionApplied,
  markProviderEventHandled,
  type ExtensionResult,
} from './repository.ts';
import {
  WebhookSignatureError,
  type CheckoutState,
  type PaymentProvider,
  type ProviderEvent,
  type ProviderStateReader,
  type SubscriptionState,
} from './provider.ts';

export interface OutcomeDeps {
  billing: BillingService;
  pool: Pool;
  rooms: AccountRoomsApi;
  state: ProviderStateReader;
  logger: Logger;
  now: () => Date;
  /** absent: no receipts are mailed */
  receipts?: Receipts;
}

const SUBSCRIPTION_EVENTS = new Set([
  'invoice.paid',
  'invoice.payment_succeeded',
  'invoice.payment_failed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
]);
const CHECKOUT_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);
const REFUND_EVENTS = new Set(['charge.refunded']);

export class PaymentOutcomes {
  constructor(private readonly deps: OutcomeDeps) {}

  /** The webhook: signature first (400, nothing changes), then each event id once. */
  async receive(
    provider: PaymentProvider,
    rawBody: Buffer,
    signature: string | null,
  ): Promise<{ received: true; duplicate: boolean; outcome: string }> {
    let event: ProviderEvent;
    try {
      event = provider.verifyWebhook(rawBody, signature);
    } catch (err) {
      if (err instanceof WebhookSignatureError) throw new DomainError('WEBHOOK_SIGNATURE_INVALID');
      throw err;
    }
    if (!(await claimProviderEvent(this.deps.pool, event.id, event.type)))
      return { received: true, duplicate: true, outcome: 'duplicate' };
    try {
      const outcome = await this.handle(event);
      await markProviderEventHandled(this.deps.pool, event.id, outcome);
      return { received: true, duplicate: false, outcome };
    } catch (err) {
      // Not handled: forget the delivery so the provider's retry (it sees a 5xx) is handled.
      await forgetProviderEvent(this.deps.pool, event.id).catch(() => {});
      this.deps.logger.warn(
        { err, eventId: event.id, type: event.type },
        'payment webhook not handled; the provider will retry',
      );
      throw err instanceof DomainError ? err : new DomainError('UNAVAILABLE');
    }
  }

  private async handle(event: ProviderEvent): Promise<string> {
    if (CHECKOUT_EVENTS.has(event.type) && event.checkoutSessionId) {
      const session = await this.deps.state.checkoutSession(event.checkoutSessionId);
      if (!session) return 'ignored: unknown checkout session';
      if (session.kind === 'room_extension') {
        if (!session.complete || !session.paid) return 'ignored: extension not paid';
        const result = await this.applyExtension(session, event.id);
        return result ? `extended ${result.workspaceId}` : 'ignored: extension without account or room';
      }
      if (session.mode === 'subscription' && session.subscriptionId) {
        return this.syncSubscription(session.subscriptionId, {
          accountId: session.accountId,
          providerEventId: event.id,
          amountCents: session.amountTotalCents,
        });
      }
      return 'ignored: checkout without subscription';
    }
    if (SUBSCRIPTION_EVENTS.has(event.type) && event.subscriptionId) {
      return this.syncSubscription(event.subscriptionId, { accountId: null, providerEventId: event.id });
    }
    if (REFUND_EVENTS.has(event.type) && event.chargeId) {
      return recordRefund(this.deps, event.chargeId, event.id);
    }
    return `ignored: ${event.type}`;
  }

  /**
   * Brings the account to the subscription's current state at the provider. hint.accountId: the checkout session's
   * account (trusted: read back from the provider), used when the subscription's own record names none;
   * hint.amountCents: what the checkout charged (the receipt's amount; otherwise the plan's price).
   */
  async syncSubscription(
    subscriptionId: string,
    hint: { accountId: string | null; providerEventId: string | null; amountCents?: number | null },
  ): Promise<string> {
    const sub = await this.deps.state.subscription(subscriptionId);
    if (!sub) return 'ignored: unknown subscription';
    const account = await this.accountFor(sub, hint.accountId);
    if (!account) return 'ignored: no account for the subscription';
    let roomTier: Tier | null = null;
    let outcome = 'unchanged';
    let paidTier: Tier | null = null;
    const recorded = await this.deps.billing.recordSystemFor(account.id, (current) => {
      const decided = decideSubscription(current, sub, hint.providerEventId, this.deps.now());
      roomTier = decided.roomTier;
      outcome = decided.event ? decided.event.type : `unchanged (${sub.status})`;
      paidTier =
        decided.event?.type === 'account.subscription-activated' && isNewPayment(current, sub, decided.roomTier!)
          ? decided.roomTier
          : null;
      return decided.event;
    });
    // Before the rooms' tier: a retry after a failure there finds the outcome recorded and issues nothing again.
    const receiptTier = paidTier as Tier | null; // set in the callback above (which TypeScript's narrowing does not see)
    if (recorded && receiptTier && receiptTier !== 'free' && this.deps.receipts) {
      const periodEnd = sub.currentPeriodEnd?.toISOString() ?? null;
      this.deps.receipts.issue({
        id: `rcpt_sub_${sub.id}_${receiptTier}_${sub.currentPeriodEnd?.getTime() ?? 'open'}`,
        accountId: account.id,
        kind: 'subscription',
        amountCents: hint.amountCents ?? PLAN_PRICES[receiptTier].amountCents,
        paidAt: this.deps.now().toISOString(),
        plan: receiptTier,
        periodEnd,
        renews: !sub.cancelAtPeriodEnd,
      });
    }
    if (roomTier) {
      await this.deps.rooms.changeTierOfAccount({
        accountId: account.id,
        tier: roomTier,
        reason: `subscription ${sub.id}: ${sub.status}`,
      });
    }
    return outcome;
  }

  private async accountFor(sub: SubscriptionState, hinted: string | null): Promise<AccountRow | null> {
    const repo = this.deps.billing.accounts;
    for (const id of [sub.accountId, hinted]) {
      if (id) {
        const a = await repo.byId(id);
        if (a) return a;
      }
    }
    return (await repo.bySubscriptionId(sub.id)) ?? (sub.customerId ? repo.byCustomerId(sub.customerId) : null);
  }

  /**
   * A paid extension, applied once per checkout session (the webhook and the success page may both get here): the
   * order row is locked while the room is extended. Null when the session names no account or room.
   */
  async applyExtension(session: CheckoutState, providerEventId: string | null): Promise<ExtensionResult | null> {
    if (!session.accountId || !session.roomId || !session.extensionDays) return null;
    const { accountId, roomId, extensionDays: days } = session;
    const applied = await inTransaction(this.deps.pool, async (client) => {
      // The order row is locked while the room is extended: the webhook and the success page may both get here.
      const done = await lockExtensionOrder(client, { checkoutSessionId: session.id, accountId, roomId, days });
      if (done) return { result: done, newly: false };
      await this.deps.billing.recordSystemFor(accountId, () => ({
        type: 'account.extension-paid',
        payload: {
          accountId,
          roomId,
          days,
          orderId: session.id,
          amountCents: session.amountTotalCents,
          provider: 'stripe',
          providerEventId,
        },
      }));
      const extended = await this.deps.rooms.extendPaid({
        roomId,
        additionalHours: days * 24,
        reason: `paid extension ${session.id}`,
      });
      await markExtensionApplied(client, session.id, extended.roomName, extended.expiresAt);
      const result = {
        workspaceId: extended.workspaceId,
        roomName: extended.roomName,
        newExpiryDate: extended.expiresAt,
        days,
      };
      return { result, newly: true };
    });
    if (applied.newly)
      this.deps.receipts?.issue({
        id: `rcpt_ext_${session.id}`,
        accountId,
        kind: 'room_extension',
        amountCents: session.amountTotalCents,
        paidAt: this.deps.now().toISOString(),
        roomName: applied.result.roomName,
        days,
        newExpiry: applied.result.newExpiryDate,
      });
    return applied.result;
  }

  /** Cancelled subscriptions whose paid time and 7-day grace are over: the account and its rooms become free. */
  async expireLapsed(): Promise<number> {
    const lapsed = await this.deps.billing.accounts.lapsed(new Date(this.deps.now().getTime() - GRACE_MS));
    for (const account of lapsed) {
      const recorded = await this.recordExpiry(account.id);
      if (recorded)
        await this.deps.rooms.changeTierOfAccount({
          accountId: account.id,
          tier: 'free',
          reason: 'subscription expired',
        });
    }
    return lapsed.length;
  }

  /** The account of a lapsed subscription (isLapsed) becomes free: true when that was recorded now. Rooms: the caller's. */
  recordExpiry(accountId: string): Promise<boolean> {
    return this.deps.billing.recordSystemFor(accountId, (current) =>
      current.tier === 'free' || !isLapsed(current, this.deps.now())
        ? null
        : {
            type: 'account.subscription-expired',
            payload: {
              accountId: current.id,
              previousTier: current.tier,
              subscriptionId: current.subscriptionId,
              expiredAt: this.deps.now().toISOString(),
              provider: 'stripe',
              providerEventId: null,
            },
          },
    );
  }
}
