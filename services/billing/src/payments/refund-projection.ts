/**
 * The refunded total of each charge (billing.charge_refunds), kept from account.payment-refunded by projection.ts, so
 * a replay rebuilds it; refunds.ts reads it to decide the next refund's increase. A file of its own, so the projection
 * does not import the command side (refunds.ts reaches billing-service.ts, which starts the projection).
 */
import type { EventEnvelope } from '@ephemera/proto';
import type { PoolClient } from '@ephemera/platform';

/** account.payment-refunded -> billing.charge_refunds (called from projection.ts). */
export async function projectRefund(
  client: PoolClient,
  event: EventEnvelope<'account.payment-refunded'>,
): Promise<void> {
  const p = event.payload;
  // The account row may be gone (deleted, and this is a replay of an older record): then nothing is kept of it.
  await client.query(
    `INSERT INTO billing.charge_refunds (charge_id, account_id, refunded_cents)
     SELECT $1, $2, $3 WHERE EXISTS (SELECT 1 FROM billing.accounts WHERE id = $2)
     ON CONFLICT (charge_id) DO UPDATE SET refunded_cents = GREATEST(billing.charge_refunds.refunded_cents, EXCLUDED.refunded_cents)`,
    [p.chargeId, p.accountId, p.totalRefundedCents],
  );
  await client.query('UPDATE billing.accounts SET last_seq = $2 WHERE id = $1', [p.accountId, event.sequence]);
}
