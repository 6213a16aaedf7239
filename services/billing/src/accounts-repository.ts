/** Reads of the billing read model (billing.accounts); writes happen only in projection.ts. */
import { ENTITLEMENTS, PAYMENT_STATUSES, type AccountUser, type PaymentStatus, type Tier } from '@ephemera/proto';
import type { Pool } from '@ephemera/platform';

export interface AccountRow {
  id: string; email: string; username: string; tier: Tier; paymentStatus: PaymentStatus;
  subscriptionExpiresAt: Date | null; autoRenewal: boolean; googleId: string | null; picture: string | null;
  createdAt: Date; lastSeq: number;
  /** payments: the provider's customer and subscription, and whether it ends at the period's end */
  customerId: string | null; subscriptionId: string | null; cancelAtPeriodEnd: boolean;
  /** the superadmin's actions (issue 10): a suspension with its reason; an admin trial until trialEndsAt */
  suspended: boolean; suspendedReason: string | null; upgradedByAdmin: boolean; trialEndsAt: Date | null;
}

const COLUMNS = `id, email, username, tier, payment_status AS "paymentStatus", subscription_expires_at AS "subscriptionExpiresAt",
  auto_renewal AS "autoRenewal", google_id AS "googleId", picture, created_at AS "createdAt", last_seq AS "lastSeq",
  customer_id AS "customerId", subscription_id AS "subscriptionId", cancel_at_period_end AS "cancelAtPeriodEnd",
  suspended, suspended_reason AS "suspendedReason", upgraded_by_admin AS "upgradedByAdmin", trial_ends_at AS "trialEndsAt"`;

export class AccountsRepository {
  constructor(private readonly pool: Pool) {}

  async byId(id: string): Promise<AccountRow | null> {
    const { rows } = await this.pool.query(`SELECT ${COLUMNS} FROM billing.accounts WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }
  async byEmail(email: string): Promise<AccountRow | null> {
    const { rows } = await this.pool.query(`SELECT ${COLUMNS} FROM billing.accounts WHERE email = $1`, [email]);
    return rows[0] ?? null;
  }
  async bySubscriptionId(id: string): Promise<AccountRow | null> {
    const { rows } = await this.pool.query(`SELECT ${COLUMNS} FROM billing.accounts WHERE subscription_id = $1`, [id]);
    return rows[0] ?? null;
  }
  async byCustomerId(id: string): Promise<AccountRow | null> {
    const { rows } = await this.pool.query(`SELECT ${COLUMNS} FROM billing.accounts WHERE customer_id = $1`, [id]);
    return rows[0] ?? null;
  }
  /**
   * cancelled subscriptions whose paid time and grace are over but whose tier is still paid (expiry sweep); an admin
   * trial's tier is not the subscription's, so it is left to the trial's own end
   */
  async lapsed(before: Date): Promise<AccountRow[]> {
    const { rows } = await this.pool.query(
      `SELECT ${COLUMNS} FROM billing.accounts
       WHERE tier <> 'free' AND payment_status = 'cancelled' AND subscription_expires_at < $1 AND NOT upgraded_by_admin`, [before]);
    return rows;
  }
  /** admin trials whose time is over (admin-accounts.ts: back to free) */
  async trialsEndedBy(now: Date): Promise<AccountRow[]> {
    const { rows } = await this.pool.query(
      `SELECT ${COLUMNS} FROM billing.accounts WHERE upgraded_by_admin AND trial_ends_at <= $1 ORDER BY trial_ends_at`, [now]);
    return rows;
  }
  /**
   * Renewal reminders (payments/reminders.ts): paid accounts whose expiry lies between `since` and `until`, paid ones
   * without an expiry whose payment is not active, and cancelled ones that went back to free since `since`. An
   * account on an admin trial is not renewing anything: it is left out.
   */
  async renewalCandidates(until: Date, since: Date): Promise<AccountRow[]> {
    const { rows } = await this.pool.query(
      `SELECT ${COLUMNS} FROM billing.accounts
       WHERE NOT upgraded_by_admin AND (
             (tier <> 'free' AND subscription_expires_at IS NULL AND payment_status <> 'active')
          OR (subscription_expires_at BETWEEN $2 AND $1 AND (tier <> 'free' OR (payment_status = 'cancelled' AND subscription_id IS NOT NULL))))
       ORDER BY id`, [until, since]);
    return rows;
  }
  async byGoogleId(googleId: string): Promise<AccountRow | null> {
    const { rows } = await this.pool.query(`SELECT ${COLUMNS} FROM billing.accounts WHERE google_id = $1`, [googleId]);
    return rows[0] ?? null;
  }
}

/** The spec's account user (section 3); payment fields stay at their defaults until payments exist. */
export function presentAccount(row: AccountRow, superadminEmail: string | null): AccountUser {
  return {
    id: row.id, email: row.email, username: row.username, subscriptionTier: row.tier,
    paymentStatus: (PAYMENT_STATUSES as readonly string[]).includes(row.paymentStatus) ? row.paymentStatus : 'trial',
    subscriptionExpiresAt: row.subscriptionExpiresAt?.toISOString() ?? null, autoRenewal: row.autoRenewal,
    googleId: row.googleId, picture: row.picture, createdAt: row.createdAt.toISOString(),
    isSuperadmin: superadminEmail !== null && row.email === superadminEmail,
  };
}

export const entitlementsOf = (row: AccountRow) => ENTITLEMENTS[row.tier] ?? ENTITLEMENTS.free;
