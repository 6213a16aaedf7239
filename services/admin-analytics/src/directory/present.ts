/**
 * The directory's rows as the Users and Rooms tabs show them (the read model's records, read-model.ts, turned into the
 * answers' shapes); the routes and the CSV export present rows through these.
 */
import type { AdminRoom, AdminUser } from '@ephemera/proto';
import { PAYMENT, type AccountRecord, type RoomRecord } from './read-model.ts';

export function presentUser(a: AccountRecord): AdminUser {
  return {
    email: a.email,
    username: a.username,
    subscriptionTier: a.tier,
    upgradedByAdmin: a.upgraded_by_admin,
    paymentStatus: (PAYMENT as readonly string[]).includes(a.payment_status)
      ? (a.payment_status as AdminUser['paymentStatus'])
      : 'active',
    createdAt: a.created_at.toISOString(),
    suspended: a.suspended,
    suspendedReason: a.suspended_reason,
    trialEndsAt: a.trial_ends_at?.toISOString() ?? null,
  };
}

export function presentRoom(r: RoomRecord, now: Date): AdminRoom {
  return {
    id: r.id,
    name: r.name,
    owner: r.owner_email,
    userCount: r.user_count,
    isActive: r.expires_at === null || r.expires_at.getTime() > now.getTime(),
    expiresAt: r.expires_at?.toISOString() ?? null,
  };
}
