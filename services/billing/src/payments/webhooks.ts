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
 * Receipts: where an outcome that is a payment is newly recorded (a subscription period paid, an extension applied),
 * its receipt is issued (receipts.ts: queued and mailed without the handling waiting for the SMTP server).
 */
import { DomainError, PLAN_PRICES, RENEWAL, type AccountRoomsApi, type Tier } from '@ephemera/proto';
import type { Logger, Pool } from '@ephemera/platform';
import type { BillingService } from '../billing-service.ts';
import type { AccountRow } from '../accounts-repository.ts';
import type { Receipts } from './receipts.ts';
import { recordRefund } from './refunds.ts';
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
/** docs/product/payments.md PAY5, PAY12: the grace after a paid period's end (RENEWAL, proto/src/payments.ts) */
const GRACE_MS = RENEWAL.graceDays * 86_400_000;

export type ExtensionResult = { workspaceId: string; roomName: string; newExpiryDate: string | null; days: number };

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
    const claimed = await this.deps.pool.query(
      'INSERT INTO billing.provider_events (event_id, type) VALUES ($1, $2) ON CONFLICT (event_id) DO NOTHING RETURNING event_id',
      [event.id, event.type],
    );
    if (claimed.rowCount === 0) return { received: true, duplicate: true, outcome: 'duplicate' };
    try {
      const outcome = await this.handle(event);
      await this.deps.pool.query(
        'UPDATE billing.provider_events SET handled_at = now(), outcome = $2 WHERE event_id = $1',
        [event.id, outcome],
      );
      return { received: true, duplicate: false, outcome };
    } catch (err) {
      // Not handled: forget the delivery so the provider's retry (it sees a 5xx) is handled.
      await this.deps.pool.query('DELETE FROM billing.provider_events WHERE event_id = $1', [event.id]).catch(() => {});
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
      const decided = this.decide(current, sub, hint.providerEventId);
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

  /** The account event the subscription's state calls for (null when the row already says it) and the rooms' tier. */
  private decide(
    current: AccountRow,
    sub: SubscriptionState,
    providerEventId: string | null,
  ): {
    event: {
      type:
        | 'account.subscription-activated'
        | 'account.subscription-past-due'
        | 'account.subscription-cancelled'
        | 'account.subscription-expired';
      payload: unknown;
    } | null;
    roomTier: Tier | null;
  } {
    const ref = { provider: 'stripe' as const, providerEventId };
    const periodEnd = sub.currentPeriodEnd?.toISOString() ?? null;
    const sameSub = current.subscriptionId === sub.id;
    // A state of a subscription the account has since replaced (e.g. an old one ending) changes nothing.
    const replaced = current.subscriptionId !== null && !sameSub && current.paymentStatus !== 'cancelled';
    const tier: Tier = sub.plan ?? (current.tier !== 'free' ? current.tier : 'pro');
    switch (sub.status) {
      case 'active':
      case 'trialing': {
        const same =
          sameSub &&
          current.tier === tier &&
          current.paymentStatus === 'active' &&
          current.cancelAtPeriodEnd === sub.cancelAtPeriodEnd &&
          (current.subscriptionExpiresAt?.toISOString() ?? null) === periodEnd;
        return {
          roomTier: tier,
          event: same
            ? null
            : {
                type: 'account.subscription-activated',
                payload: {
                  accountId: current.id,
                  tier,
                  subscriptionId: sub.id,
                  customerId: sub.customerId,
                  currentPeriodEnd: periodEnd,
                  cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
                  ...ref,
                },
              },
        };
      }
      case 'past_due':
      case 'unpaid': {
        if (replaced) return { event: null, roomTier: null };
        const same = sameSub && current.paymentStatus === 'past_due' && current.tier === tier;
        return {
          roomTier: tier,
          event: same
            ? null
            : {
                type: 'account.subscription-past-due',
                payload: {
                  accountId: current.id,
                  tier,
                  subscriptionId: sub.id,
                  currentPeriodEnd: periodEnd,
                  ...ref,
                },
              },
        };
      }
      case 'canceled': {
        if (replaced || (current.subscriptionId === null && current.tier === 'free'))
          return { event: null, roomTier: null };
        const now = this.deps.now().getTime();
        // the provider's end of the paid period wins; our row's only when the provider's record has none
        const end = sub.currentPeriodEnd ?? current.subscriptionExpiresAt;
        if (end && end.getTime() + GRACE_MS > now && current.tier !== 'free') {
          const same =
            current.paymentStatus === 'cancelled' && current.subscriptionExpiresAt?.getTime() === end.getTime();
          return {
            roomTier: current.tier,
            event: same
              ? null
              : {
                  type: 'account.subscription-cancelled',
                  payload: {
                    accountId: current.id,
                    tier: current.tier,
                    subscriptionId: sub.id,
                    accessUntil: end.toISOString(),
                    ...ref,
                  },
                },
          };
        }
        return {
          roomTier: 'free',
          event:
            current.tier === 'free'
              ? null
              : {
                  type: 'account.subscription-expired',
                  payload: {
                    accountId: current.id,
                    previousTier: current.tier,
                    subscriptionId: sub.id,
                    expiredAt: new Date(now).toISOString(),
                    ...ref,
                  },
                },
        };
      }
      default:
        return { event: null, roomTier: null }; // incomplete, paused: nothing paid yet
    }
  }

  /**
   * A paid extension, applied once per checkout session (the webhook and the success page may both get here): the
   * order row is locked while the room is extended. Null when the session names no account or room.
   */
  async applyExtension(session: CheckoutState, providerEventId: string | null): Promise<ExtensionResult | null> {
    if (!session.accountId || !session.roomId || !session.extensionDays) return null;
    const { accountId, roomId, extensionDays: days } = session;
    const client = await this.deps.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO billing.extension_orders (checkout_session_id, account_id, room_id, days) VALUES ($1, $2, $3, $4)
         ON CONFLICT (checkout_session_id) DO NOTHING`,
        [session.id, accountId, roomId, days],
      );
      const { rows } = await client.query(
        'SELECT * FROM billing.extension_orders WHERE checkout_session_id = $1 FOR UPDATE',
        [session.id],
      );
      const order = rows[0];
      if (order.applied_at) {
        await client.query('COMMIT');
        return {
          workspaceId: order.room_id,
          roomName: order.room_name,
          newExpiryDate: order.new_expiry?.toISOString() ?? null,
          days: order.days,
        };
      }
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
      await client.query(
        'UPDATE billing.extension_orders SET applied_at = now(), room_name = $2, new_expiry = $3 WHERE checkout_session_id = $1',
        [session.id, extended.roomName, extended.expiresAt],
      );
      await client.query('COMMIT');
      this.deps.receipts?.issue({
        id: `rcpt_ext_${session.id}`,
        accountId,
        kind: 'room_extension',
        amountCents: session.amountTotalCents,
        paidAt: this.deps.now().toISOString(),
        roomName: extended.roomName,
        days,
        newExpiry: extended.expiresAt,
      });
      return {
        workspaceId: extended.workspaceId,
        roomName: extended.roomName,
        newExpiryDate: extended.expiresAt,
        days,
      };
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
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

/**
 * The expiry sweep's rule (AccountsRepository.lapsed): a cancelled subscription whose paid time and 7-day grace are
 * over. Such an account's rooms are free, whatever its row's tier still says until the sweep records the expiry.
 */
export function isLapsed(
  account: Pick<AccountRow, 'tier' | 'paymentStatus' | 'subscriptionExpiresAt'>,
  now: Date,
): boolean {
  return (
    account.tier !== 'free' &&
    account.paymentStatus === 'cancelled' &&
    account.subscriptionExpiresAt !== null &&
    account.subscriptionExpiresAt.getTime() < now.getTime() - GRACE_MS
  );
}

/**
 * Whether an activation is money paid (a receipt): a new subscription, another tier, a later period (a renewal), or
 * a payment after a failed one. Not one: the same period of the same subscription changing only cancel-at-period-end.
 */
function isNewPayment(previous: AccountRow, sub: SubscriptionState, tier: Tier): boolean {
  if (previous.subscriptionId !== sub.id || previous.tier !== tier || previous.paymentStatus !== 'active') return true;
  const before = previous.subscriptionExpiresAt?.getTime() ?? null;
  const after = sub.currentPeriodEnd?.getTime() ?? null;
  return after !== null && (before === null || after > before);
}
