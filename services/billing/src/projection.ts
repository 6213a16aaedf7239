/**
 * Billing's events -> its read model (applied through applyOnce, so a replay rebuilds the same tables): account events
 * -> billing.accounts; contact messages -> billing.contact_messages (contact-repository.ts). An account's e-mail and
 * username are sealed under its key on the way in, beside the address's keyed hash (docs/crypto.md, "Accounts"); an account
 * whose key is gone was deleted, and nothing of it is stored again.
 */
import type { AnyEventEnvelope } from '@ephemera/proto';
import { sealAccountField, type Logger, type Pool, type PoolClient, type Projector } from '@ephemera/platform';
import type { AccountSealing } from './accounts-repository.ts';
import { projectContact } from './contact-repository.ts';
import { projectNotice } from './payments/notice-projection.ts';
import { projectRefund } from './payments/refund-projection.ts';

/** A verified subscription event ends an admin trial: from then on the provider's data decides the tier. */
const TRIAL_OVER = 'upgraded_by_admin = false, trial_ends_at = NULL';

export const accountProjector =
  (sealing: AccountSealing): Projector =>
  (client, event) =>
    projectAccount(client, event, sealing);

async function projectAccount(client: PoolClient, event: AnyEventEnvelope, sealing: AccountSealing): Promise<void> {
  switch (event.type) {
    case 'account.registered': {
      const p = event.payload;
      const key = await sealing.keyring.key(p.accountId);
      if (!key) return;
      await client.query(
        `INSERT INTO billing.accounts (id, email, email_hash, username, tier, google_id, picture, created_at, last_seq)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING`,
        [
          p.accountId,
          sealAccountField(key, 'email', p.email),
          sealing.lookup.hash(p.email),
          sealAccountField(key, 'username', p.username),
          p.tier,
          p.googleId,
          p.picture,
          p.registeredAt,
          event.sequence,
        ],
      );
      return;
    }
    case 'account.username-changed': {
      const key = await sealing.keyring.key(event.payload.accountId);
      if (!key) return;
      await client.query('UPDATE billing.accounts SET username = $2, last_seq = $3 WHERE id = $1', [
        event.payload.accountId,
        sealAccountField(key, 'username', event.payload.username),
        event.sequence,
      ]);
      return;
    }
    case 'account.google-linked':
      await client.query(
        'UPDATE billing.accounts SET google_id = $2, picture = COALESCE($3, picture), last_seq = $4 WHERE id = $1',
        [event.payload.accountId, event.payload.googleId, event.payload.picture, event.sequence],
      );
      return;
    case 'account.auto-renewal-changed': {
      // With the provider's answer (payments/auto-renewal.ts) the subscription's cancel-at-period-end follows, for
      // that subscription only; without one the choice is only kept.
      const p = event.payload;
      await client.query(
        `UPDATE billing.accounts SET auto_renewal = $2, last_seq = $3,
           cancel_at_period_end = CASE WHEN $4::text IS NOT NULL AND subscription_id = $4::text THEN $5::boolean ELSE cancel_at_period_end END WHERE id = $1`,
        [p.accountId, p.autoRenewal, event.sequence, p.subscriptionId ?? null, p.cancelAtPeriodEnd ?? null],
      );
      return;
    }
    // payments (payments/webhooks.ts decides them from the provider's verified state); auto_renewal follows the
    // provider's subscription: it renews unless it cancels at the period's end, and an ended one renews nothing
    case 'account.subscription-activated': {
      const p = event.payload;
      await client.query(
        `UPDATE billing.accounts SET tier = $2, payment_status = 'active', subscription_expires_at = $3, subscription_id = $4,
           customer_id = COALESCE($5, customer_id), cancel_at_period_end = $6, auto_renewal = NOT $6, ${TRIAL_OVER}, last_seq = $7 WHERE id = $1`,
        [p.accountId, p.tier, p.currentPeriodEnd, p.subscriptionId, p.customerId, p.cancelAtPeriodEnd, event.sequence],
      );
      return;
    }
    case 'account.subscription-past-due': {
      const p = event.payload;
      await client.query(
        `UPDATE billing.accounts SET tier = $2, payment_status = 'past_due', subscription_expires_at = COALESCE($3, subscription_expires_at),
           subscription_id = $4, ${TRIAL_OVER}, last_seq = $5 WHERE id = $1`,
        [p.accountId, p.tier, p.currentPeriodEnd, p.subscriptionId, event.sequence],
      );
      return;
    }
    case 'account.subscription-cancelled': {
      const p = event.payload;
      await client.query(
        `UPDATE billing.accounts SET tier = $2, payment_status = 'cancelled', subscription_expires_at = $3, subscription_id = $4,
           cancel_at_period_end = false, auto_renewal = false, ${TRIAL_OVER}, last_seq = $5 WHERE id = $1`,
        [p.accountId, p.tier, p.accessUntil, p.subscriptionId, event.sequence],
      );
      return;
    }
    case 'account.subscription-expired':
      // The paid time ended no later than the expiry: a stored end still ahead (a subscription ended at once, past
      // its grace) becomes the expiry's time, so the account reads expired (PAY12) rather than free and paid up.
      await client.query(
        `UPDATE billing.accounts SET tier = 'free', payment_status = 'cancelled', cancel_at_period_end = false, auto_renewal = false,
           subscription_expires_at = LEAST(COALESCE(subscription_expires_at, $3::timestamptz), $3::timestamptz), ${TRIAL_OVER}, last_seq = $2 WHERE id = $1`,
        [event.payload.accountId, event.sequence, event.payload.expiredAt],
      );
      return;
    // the superadmin's actions (admin-accounts.ts)
    case 'account.suspended':
      await client.query(
        'UPDATE billing.accounts SET suspended = true, suspended_reason = $2, last_seq = $3 WHERE id = $1',
        [event.payload.accountId, event.payload.reason, event.sequence],
      );
      return;
    case 'account.unsuspended':
      await client.query(
        'UPDATE billing.accounts SET suspended = false, suspended_reason = NULL, last_seq = $2 WHERE id = $1',
        [event.payload.accountId, event.sequence],
      );
      return;
    case 'account.admin-trial-granted':
      await client.query(
        'UPDATE billing.accounts SET tier = $2, upgraded_by_admin = true, trial_ends_at = $3, last_seq = $4 WHERE id = $1',
        [event.payload.accountId, event.payload.tier, event.payload.until, event.sequence],
      );
      return;
    case 'account.admin-trial-ended':
      await client.query(`UPDATE billing.accounts SET tier = $2, ${TRIAL_OVER}, last_seq = $3 WHERE id = $1`, [
        event.payload.accountId,
        event.payload.tier,
        event.sequence,
      ]);
      return;
    case 'account.extension-paid':
      await client.query('UPDATE billing.accounts SET last_seq = $2 WHERE id = $1', [
        event.payload.accountId,
        event.sequence,
      ]);
      return;
    case 'account.payment-refunded': // how much of each charge is refunded (payments/refund-projection.ts: billing.charge_refunds)
      await projectRefund(client, event);
      return;
    // receipts and renewal reminders mailed (payments/notice-projection.ts: billing.mailed_notices)
    case 'account.receipt-mailed':
    case 'account.renewal-reminder-mailed':
      await projectNotice(client, event);
      return;
    case 'account.deleted':
      await client.query('INSERT INTO billing.deleted_accounts (id) VALUES ($1) ON CONFLICT DO NOTHING', [
        event.payload.accountId,
      ]);
      await dropDeletedAccounts(client, [event.payload.accountId]);
      return;
    default:
      await projectContact(client, event);
      return;
  }
}

/**
 * The rows of deleted accounts go: personal data with the account's row (its payments' refunds and mailed notices
 * with it), and its sessions (every device is signed out at once). At the event, and after a restore for every
 * tombstone (backup-part.ts), so an account deleted after the backup was taken does not come back.
 */
export async function dropDeletedAccounts(client: PoolClient, ids: string[]): Promise<void> {
  await client.query('DELETE FROM billing.sessions WHERE account_id = ANY($1::text[])', [ids]);
  await client.query('DELETE FROM billing.oidc_handoffs WHERE account_id = ANY($1::text[])', [ids]);
  await client.query('DELETE FROM billing.accounts WHERE id = ANY($1::text[])', [ids]);
}

/**
 * Accounts stored before e-mails and usernames were sealed (email_hash null) are sealed at start, before requests
 * are taken: their values under the account's key, the address's keyed hash beside them. Several replicas may run
 * it at once (the update only touches rows still unsealed).
 */
export async function sealLegacyAccounts(pool: Pool, sealing: AccountSealing, logger: Logger): Promise<number> {
  const { rows } = await pool.query<{ id: string; email: string; username: string }>(
    'SELECT id, email, username FROM billing.accounts WHERE email_hash IS NULL',
  );
  let sealed = 0;
  for (const row of rows) {
    const key = await sealing.keyring.key(row.id);
    if (!key) {
      logger.warn({ accountId: row.id }, 'an account without a key was not sealed');
      continue;
    }
    await pool.query(
      'UPDATE billing.accounts SET email = $2, email_hash = $3, username = $4 WHERE id = $1 AND email_hash IS NULL',
      [
        row.id,
        sealAccountField(key, 'email', row.email),
        sealing.lookup.hash(row.email),
        sealAccountField(key, 'username', row.username),
      ],
    );
    sealed++;
  }
  return sealed;
}
