/**
 * The payment and subscription statements of the billing events (admin.payments, admin.subscriptions): what is a
 * payment, at what amount, under which row key. Apart from projector.ts because these carry the revenue rules (a
 * reset covers earlier payments, a refund is its own row, an activation is a payment only when it starts or renews a
 * paid period).
 */
import { createHash } from 'node:crypto';
import { PLAN_PRICES, type AnyEventEnvelope, type EventEnvelope, type Tier } from '@ephemera/proto';
import type { PoolClient } from '@ephemera/platform';
import { dayOf } from './days.ts';
import type { Statement } from './statements.ts';

interface PaymentRow {
  kind: 'subscription' | 'extension' | 'failed' | 'refund';
  plan: string | null;
  days: number | null;
  cents: number;
  accountId: string;
}

/**
 * A payment at the event's time, unless a revenue reset already covers that time (replays may bring it late).
 * rowId: the row's key when the event's own id is not the fact's identity (a refund's, below).
 */
export function payment(event: AnyEventEnvelope, row: PaymentRow, rowId: string = event.id): Statement {
  return {
    sql: `INSERT INTO admin.payments (event_id, paid_at, day, kind, plan, extension_days, amount_cents, account_id)
          SELECT $1::uuid, $2::timestamptz, $3::date, $4, $5, $6::int, $7::int, $8
          WHERE NOT EXISTS (SELECT 1 FROM admin.revenue_resets WHERE before > $2::timestamptz)
          ON CONFLICT (event_id) DO NOTHING`,
    params: [rowId, event.occurredAt, dayOf(event.occurredAt), row.kind, row.plan, row.days, row.cents, row.accountId],
  };
}

/**
 * A refund's row key, a uuid made from what identifies the refund in billing (the charge and its refunded total
 * after it), not from the event: should billing ever record one refund twice (a retry after a crash between the
 * append and its own projection), it is still one row, so one refund in the report.
 */
export function refundRowId(chargeId: string, totalRefundedCents: number): string {
  const h = createHash('sha1').update(`refund:${chargeId}:${totalRefundedCents}`).digest('hex');
  // laid out as a name-based (version 5) uuid, so it can never equal an event's random (version 4) id
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function subscriptionState(
  accountId: string,
  subscriptionId: string | null,
  tier: Tier,
  status: string,
  periodEnd: string | null,
): Statement {
  return {
    sql: `INSERT INTO admin.subscriptions (account_id, subscription_id, tier, payment_status, period_end) VALUES ($1, $2, $3, $4, $5)
          ON CONFLICT (account_id) DO UPDATE SET subscription_id = COALESCE(EXCLUDED.subscription_id, admin.subscriptions.subscription_id),
            tier = EXCLUDED.tier, payment_status = EXCLUDED.payment_status,
            period_end = COALESCE(EXCLUDED.period_end, admin.subscriptions.period_end)`,
    params: [accountId, subscriptionId, tier, status, periodEnd],
  };
}

/**
 * An activation is a payment when it starts or renews a paid period: a new subscription, another tier, a payment
 * after a failed or cancelled one, or a later period end (billing's isNewPayment, from the same events). The
 * amount is the plan's price (proto PLAN_PRICES): the event carries no amount.
 */
export async function subscriptionActivated(
  client: PoolClient,
  event: EventEnvelope<'account.subscription-activated'>,
): Promise<Statement[]> {
  const p = event.payload;
  const { rows } = await client.query<{
    subscription_id: string | null;
    tier: string;
    payment_status: string;
    period_end: Date | null;
  }>('SELECT subscription_id, tier, payment_status, period_end FROM admin.subscriptions WHERE account_id = $1', [
    p.accountId,
  ]);
  const previous = rows[0];
  const before = previous?.period_end?.getTime() ?? null;
  const after = p.currentPeriodEnd ? Date.parse(p.currentPeriodEnd) : null;
  const isNew =
    !previous ||
    previous.subscription_id !== p.subscriptionId ||
    previous.tier !== p.tier ||
    previous.payment_status !== 'active' ||
    (after !== null && (before === null || after > before));
  const out: Statement[] = [];
  if (isNew && p.tier !== 'free') {
    out.push(
      payment(event, {
        kind: 'subscription',
        plan: p.tier,
        days: null,
        cents: PLAN_PRICES[p.tier].amountCents,
        accountId: p.accountId,
      }),
    );
  }
  out.push(subscriptionState(p.accountId, p.subscriptionId, p.tier, 'active', p.currentPeriodEnd));
  return out;
}
