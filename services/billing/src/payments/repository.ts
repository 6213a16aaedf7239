/**
 * The payments' own tables (billing.provider_events, billing.extension_orders, billing.receipt_outbox,
 * billing.charge_refunds): each provider event id handled once, each paid extension applied once, each receipt queued
 * until it is mailed, each charge's refunds recorded. The SQL of the payment handling (webhooks.ts, refunds.ts) and of
 * the receipts (receipts.ts); and what was mailed (billing.mailed_notices, kept by notice-projection.ts), which the
 * senders read before mailing.
 */
import type { Pool, PoolClient } from '@ephemera/platform';
import type { Receipt } from './mail-texts.ts';

/** A paid extension as applied: the room, its name and new expiry. */
export type ExtensionResult = { workspaceId: string; roomName: string; newExpiryDate: string | null; days: number };

/** Claims a provider event id: false when it was claimed before (a duplicate delivery). */
export async function claimProviderEvent(pool: Pool, eventId: string, type: string): Promise<boolean> {
  const claimed = await pool.query(
    'INSERT INTO billing.provider_events (event_id, type) VALUES ($1, $2) ON CONFLICT (event_id) DO NOTHING RETURNING event_id',
    [eventId, type],
  );
  return (claimed.rowCount ?? 0) > 0;
}

export async function markProviderEventHandled(pool: Pool, eventId: string, outcome: string): Promise<void> {
  await pool.query('UPDATE billing.provider_events SET handled_at = now(), outcome = $2 WHERE event_id = $1', [
    eventId,
    outcome,
  ]);
}

/** Not handled: the claim is dropped so that the provider's retry is handled. */
export async function forgetProviderEvent(pool: Pool, eventId: string): Promise<void> {
  await pool.query('DELETE FROM billing.provider_events WHERE event_id = $1', [eventId]);
}

/**
 * In the caller's transaction: the checkout session's order row, created if new and locked until the transaction
 * ends. Answers what was applied when the order was applied before, null when it is still to apply.
 */
export async function lockExtensionOrder(
  client: PoolClient,
  order: { checkoutSessionId: string; accountId: string; roomId: string; days: number },
): Promise<ExtensionResult | null> {
  await client.query(
    `INSERT INTO billing.extension_orders (checkout_session_id, account_id, room_id, days) VALUES ($1, $2, $3, $4)
     ON CONFLICT (checkout_session_id) DO NOTHING`,
    [order.checkoutSessionId, order.accountId, order.roomId, order.days],
  );
  const { rows } = await client.query(
    'SELECT * FROM billing.extension_orders WHERE checkout_session_id = $1 FOR UPDATE',
    [order.checkoutSessionId],
  );
  const row = rows[0];
  if (!row.applied_at) return null;
  return {
    workspaceId: row.room_id,
    roomName: row.room_name,
    newExpiryDate: row.new_expiry?.toISOString() ?? null,
    days: row.days,
  };
}

export async function markExtensionApplied(
  client: PoolClient,
  checkoutSessionId: string,
  roomName: string,
  newExpiry: string | null,
): Promise<void> {
  await client.query(
    'UPDATE billing.extension_orders SET applied_at = now(), room_name = $2, new_expiry = $3 WHERE checkout_session_id = $1',
    [checkoutSessionId, roomName, newExpiry],
  );
}

/** Queues a receipt: true when queued now (false: already queued, or already mailed). */
export async function queueReceipt(pool: Pool, r: Receipt, at: Date): Promise<boolean> {
  const { rowCount } = await pool.query(
    `INSERT INTO billing.receipt_outbox (receipt_id, account_id, receipt, created_at, next_attempt_at)
     SELECT $1, $2, $3, $4, $4
     WHERE NOT EXISTS (SELECT 1 FROM billing.mailed_notices WHERE account_id = $2 AND kind = 'receipt' AND notice_key = $1)
     ON CONFLICT (receipt_id) DO NOTHING`,
    [r.id, r.accountId, JSON.stringify(r), at],
  );
  return rowCount === 1;
}

/** A queued receipt leased until `until` when it is due and nobody holds it (null otherwise); mailed: it was already. */
export async function leaseReceipt(
  pool: Pool,
  receiptId: string,
  now: Date,
  until: Date,
): Promise<{ receipt: Receipt; created_at: Date; attempts: number; mailed: boolean } | null> {
  const leased = await pool.query<{ receipt: Receipt; created_at: Date; attempts: number; mailed: boolean }>(
    `UPDATE billing.receipt_outbox o SET leased_until = $3, attempts = attempts + 1
     WHERE receipt_id = $1 AND next_attempt_at <= $2 AND (leased_until IS NULL OR leased_until <= $2)
     RETURNING receipt, created_at, attempts, EXISTS (SELECT 1 FROM billing.mailed_notices n
       WHERE n.account_id = o.account_id AND n.kind = 'receipt' AND n.notice_key = o.receipt_id) AS mailed`,
    [receiptId, now, until],
  );
  return leased.rows[0] ?? null;
}

export async function dropReceipt(pool: Pool, receiptId: string): Promise<void> {
  await pool.query('DELETE FROM billing.receipt_outbox WHERE receipt_id = $1', [receiptId]);
}

/** A failed send: the lease released, the next attempt at `next`. */
export async function deferReceipt(pool: Pool, receiptId: string, next: Date, error: string): Promise<void> {
  await pool.query(
    'UPDATE billing.receipt_outbox SET leased_until = NULL, next_attempt_at = $2, last_error = $3 WHERE receipt_id = $1',
    [receiptId, next, error],
  );
}

/** The queued receipts that are due and not leased, oldest due first (at most 500). */
export async function dueReceipts(pool: Pool, now: Date): Promise<string[]> {
  const { rows } = await pool.query<{ receipt_id: string }>(
    `SELECT receipt_id FROM billing.receipt_outbox WHERE next_attempt_at <= $1 AND (leased_until IS NULL OR leased_until <= $1)
     ORDER BY next_attempt_at LIMIT 500`,
    [now],
  );
  return rows.map((r) => r.receipt_id);
}

/**
 * One statement: the charge's recorded refunded total as of the account's last sequence (both are projected
 * together); null when the account is gone.
 */
export async function refundedSoFar(
  pool: Pool,
  accountId: string,
  chargeId: string,
): Promise<{ lastSeq: number; refundedCents: number } | null> {
  const { rows } = await pool.query<{ last_seq: number; refunded_cents: string | null }>(
    `SELECT a.last_seq, r.refunded_cents FROM billing.accounts a LEFT JOIN billing.charge_refunds r ON r.charge_id = $2 WHERE a.id = $1`,
    [accountId, chargeId],
  );
  const row = rows[0];
  return row ? { lastSeq: row.last_seq, refundedCents: Number(row.refunded_cents ?? 0) } : null;
}

type NoticeKind = 'receipt' | 'renewal-reminder';

export async function wasMailed(pool: Pool, accountId: string, kind: NoticeKind, key: string): Promise<boolean> {
  const { rowCount } = await pool.query(
    'SELECT 1 FROM billing.mailed_notices WHERE account_id = $1 AND kind = $2 AND notice_key = $3',
    [accountId, kind, key],
  );
  return (rowCount ?? 0) > 0;
}
