/** Reads of the billing read model (billing.accounts); writes happen only in projection.ts. */
import { ENTITLEMENTS, PAYMENT_STATUSES, type AccountUser, type PaymentStatus, type Tier } from '@ephemera/proto';
import type { Pool } from '@ephemera/platform';

export interface AccountRow {
  id: string; email: string; username: string; tier: Tier; paymentStatus: PaymentStatus;
  subscriptionExpiresAt: Date | null; autoRenewal: boolean; googleId: string | null; picture: string | null;
  createdAt: Date; lastSeq: number;
}

const COLUMNS = `id, email, username, tier, payment_status AS "paymentStatus", subscription_expires_at AS "subscriptionExpiresAt",
  auto_renewal AS "autoRenewal", google_id AS "googleId", picture, created_at AS "createdAt", last_seq AS "lastSeq"`;

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
