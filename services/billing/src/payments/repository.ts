/**
 * The payments' own tables (billing.provider_events, billing.extension_orders): each provider event id handled once,
 * and each paid extension applied once. The only SQL of the payment handling (webhooks.ts calls these).
 */
import type { Pool, PoolClient } from '@ephemera/platform';

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
