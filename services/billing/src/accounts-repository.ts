/**
 * Reads of the billing read model (billing.accounts); writes happen only in projection.ts. The e-mail and username
 * are stored sealed under the account's key (docs/crypto.md, "Accounts") and opened here, so every caller gets an
 * AccountRow in the clear; an account whose key is destroyed is gone, and its row is not answered. Lookups by e-mail
 * compare the address's keyed hash (email_hash).
 */
import {
  ENTITLEMENTS,
  PAYMENT_STATUSES,
  accountStanding,
  type AccountStanding,
  type AccountUser,
  type PaymentStatus,
  type Tier,
} from '@ephemera/proto';
import { openAccountField, type EmailLookup, type Pool, type RoomKeyring } from '@ephemera/platform';

/** What seals and opens accounts: each account's key (a keyring over billing's key store) and the lookup key. */
export interface AccountSealing {
  keyring: RoomKeyring;
  lookup: EmailLookup;
}

export interface AccountRow {
  id: string;
  email: string;
  username: string;
  tier: Tier;
  paymentStatus: PaymentStatus;
  subscriptionExpiresAt: Date | null;
  autoRenewal: boolean;
  googleId: string | null;
  picture: string | null;
  createdAt: Date;
  lastSeq: number;
  /** payments: the provider's customer and subscription, and whether it ends at the period's end */
  customerId: string | null;
  subscriptionId: string | null;
  cancelAtPeriodEnd: boolean;
  /** the superadmin's actions: a suspension with its reason; an admin trial until trialEndsAt */
  suspended: boolean;
  suspendedReason: string | null;
  upgradedByAdmin: boolean;
  trialEndsAt: Date | null;
}

const COLUMNS = `id, email, username, tier, payment_status AS "paymentStatus", subscription_expires_at AS "subscriptionExpiresAt",
  auto_renewal AS "autoRenewal", google_id AS "googleId", picture, created_at AS "createdAt", last_seq AS "lastSeq",
  customer_id AS "customerId", subscription_id AS "subscriptionId", cancel_at_period_end AS "cancelAtPeriodEnd",
  suspended, suspended_reason AS "suspendedReason", upgraded_by_admin AS "upgradedByAdmin", trial_ends_at AS "trialEndsAt"`;

export class AccountsRepository {
  constructor(
    private readonly pool: Pool,
    private readonly sealing: AccountSealing,
  ) {}

  /** the keyed hash that stands for an address in every lookup (and in rate-limit keys) */
  emailHash(email: string): string {
    return this.sealing.lookup.hash(email);
  }

  /** the rows with their e-mail and username opened; rows of accounts whose key is gone are left out */
  private async opened<T extends AccountRow>(rows: T[]): Promise<T[]> {
    const out: T[] = [];
    for (const row of rows) {
      const key = await this.sealing.keyring.key(row.id);
      if (!key) continue; // deleted: nothing of it can be read, its tombstone removes the row
      out.push({
        ...row,
        email: openAccountField(key, 'email', row.email),
        username: openAccountField(key, 'username', row.username),
      });
    }
    return out;
  }
  private async one(sql: string, values: unknown[]): Promise<AccountRow | null> {
    const { rows } = await this.pool.query<AccountRow>(`SELECT ${COLUMNS} FROM billing.accounts WHERE ${sql}`, values);
    return (await this.opened(rows))[0] ?? null;
  }

  byId(id: string): Promise<AccountRow | null> {
    return this.one('id = $1', [id]);
  }
  byEmail(email: string): Promise<AccountRow | null> {
    return this.one('email_hash = $1', [this.emailHash(email)]);
  }
  bySubscriptionId(id: string): Promise<AccountRow | null> {
    return this.one('subscription_id = $1', [id]);
  }
  byCustomerId(id: string): Promise<AccountRow | null> {
    return this.one('customer_id = $1', [id]);
  }
  byGoogleId(googleId: string): Promise<AccountRow | null> {
    return this.one('google_id = $1', [googleId]);
  }

  /** Accounts last active (signed up, signed in or used a session) before `cutoff`, oldest first (auto-delete). */
  async inactiveSince(cutoff: Date): Promise<Array<AccountRow & { lastActive: Date }>> {
    const { rows } = await this.pool.query<AccountRow & { lastActive: Date }>(
      `SELECT ${COLUMNS}, last_active AS "lastActive" FROM (
         SELECT a.*, greatest(a.created_at, act.last_active_at) AS last_active
         FROM billing.accounts a LEFT JOIN billing.account_activity act ON act.account_id = a.id) x
       WHERE last_active < $1 ORDER BY last_active, id`,
      [cutoff],
    );
    return this.opened(rows);
  }
  /**
   * cancelled subscriptions whose paid time and grace are over but whose tier is still paid (expiry sweep); an admin
   * trial's tier is not the subscription's, so it is left to the trial's own end
   */
  async lapsed(before: Date): Promise<AccountRow[]> {
    const { rows } = await this.pool.query(
      `SELECT ${COLUMNS} FROM billing.accounts
       WHERE tier <> 'free' AND payment_status = 'cancelled' AND subscription_expires_at < $1 AND NOT upgraded_by_admin`,
      [before],
    );
    return this.opened(rows);
  }
  /** admin trials whose time is over (admin-accounts.ts: back to free) */
  async trialsEndedBy(now: Date): Promise<AccountRow[]> {
    const { rows } = await this.pool.query(
      `SELECT ${COLUMNS} FROM billing.accounts WHERE upgraded_by_admin AND trial_ends_at <= $1 ORDER BY trial_ends_at`,
      [now],
    );
    return this.opened(rows);
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
       ORDER BY id`,
      [until, since],
    );
    return this.opened(rows);
  }
}

/** The account user (docs/product/accounts.md A7); payment fields stay at their defaults until payments exist. */
export function presentAccount(row: AccountRow, superadminEmail: string | null): AccountUser {
  return {
    id: row.id,
    email: row.email,
    username: row.username,
    subscriptionTier: row.tier,
    paymentStatus: (PAYMENT_STATUSES as readonly string[]).includes(row.paymentStatus) ? row.paymentStatus : 'trial',
    subscriptionExpiresAt: row.subscriptionExpiresAt?.toISOString() ?? null,
    autoRenewal: row.autoRenewal,
    googleId: row.googleId,
    picture: row.picture,
    createdAt: row.createdAt.toISOString(),
    isSuperadmin: superadminEmail !== null && row.email === superadminEmail,
  };
}

export const entitlementsOf = (row: AccountRow) => ENTITLEMENTS[row.tier] ?? ENTITLEMENTS.free;

/** What the account's subscription still allows (docs/product/payments.md PAY12; the rule: proto's accountStanding). */
export const standingOf = (row: AccountRow, now: Date): AccountStanding =>
  accountStanding(
    {
      tier: row.tier,
      paymentStatus: row.paymentStatus,
      expiresAt: row.subscriptionExpiresAt,
      subscribed: row.subscriptionId !== null,
      adminTrial: row.upgradedByAdmin,
    },
    now,
  );
