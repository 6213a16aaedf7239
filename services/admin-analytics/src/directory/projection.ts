/**
 * The directory's read models, projected from two topics (each applied through applyOnce, so a replay of the log
 * into empty tables gives the same rows):
 *   billing topic -> admin.accounts: account.registered adds the row; username, subscription (tier and payment status),
 *     suspension and admin-trial events change it; account.deleted removes it. last_active_at: the registration, then
 *     the time of each event the account's own user caused (a username change, a deletion request...); system
 *     events (payments, reminders, the superadmin's actions) are not the user's activity.
 *   room topic -> admin.rooms: workspace.created adds the row; workspace.claimed sets its owner account; members
 *     joined minus left and kicked give user_count; renamed, extended and tier-changed follow the room. A deleted or
 *     expired room is removed: its key is destroyed with it, so nothing of it is readable any more. The Rooms tab
 *     calls a room Expired when its expiry has passed but the room service's sweep (every minute) has not removed it.
 * Each row is fed by one topic only, and within a topic by one key (the account, the room), so the order of events
 * that touch a row is the log's order on every replay. Rows of both are joined only when read (the room's owner).
 * Sealed payloads are opened by the module's sealed event log before they get here. An account's e-mail and username
 * are sealed again under its key on the way into admin.accounts (account-fields.ts), beside the address's keyed hash
 * and the keyed hashes of both values' three-character runs (the superadmin's search);
 * an account whose key is gone was deleted, and nothing of it is stored again.
 */
import { TOPICS, TOPIC_OF, type AnyEventEnvelope } from '@ephemera/proto';
import type { PoolClient } from '@ephemera/platform';
import type { AccountFields } from '../account-fields.ts';

/** a verified subscription event ends an admin trial (billing's projection does the same) */
const TRIAL_OVER = 'upgraded_by_admin = false, trial_ends_at = NULL';

export async function projectDirectory(db: PoolClient, event: AnyEventEnvelope, fields: AccountFields): Promise<void> {
  const topic = TOPIC_OF[event.type];
  if (topic === TOPICS.billing) await projectAccountEvent(db, event, fields);
  else if (topic === TOPICS.room) await projectRoomEvent(db, event);
}

async function projectAccountEvent(db: PoolClient, event: AnyEventEnvelope, fields: AccountFields): Promise<void> {
  const set = (sql: string, accountId: string, values: unknown[] = []) =>
    db.query(`UPDATE admin.accounts SET ${sql} WHERE id = $1`, [accountId, ...values]);
  switch (event.type) {
    case 'account.registered': {
      const p = event.payload;
      const key = await fields.key(p.accountId);
      if (!key) return;
      await db.query(
        `INSERT INTO admin.accounts (id, email, email_hash, username, tier, created_at, last_active_at, email_grams, username_grams)
         VALUES ($1, $2, $3, $4, $5, $6, $6, $7, $8) ON CONFLICT (id) DO NOTHING`,
        [
          p.accountId,
          fields.seal(key, 'email', p.email.toLowerCase()),
          await fields.emailHash(p.email),
          fields.seal(key, 'username', p.username),
          p.tier,
          p.registeredAt,
          await fields.searchGrams('email', p.email),
          await fields.searchGrams('username', p.username),
        ],
      );
      break;
    }
    case 'account.username-changed': {
      const key = await fields.key(event.payload.accountId);
      if (!key) return;
      await set('username = $2, username_grams = $3', event.payload.accountId, [
        fields.seal(key, 'username', event.payload.username),
        await fields.searchGrams('username', event.payload.username),
      ]);
      break;
    }
    case 'account.subscription-activated':
      await set(`tier = $2, payment_status = 'active', ${TRIAL_OVER}`, event.payload.accountId, [event.payload.tier]);
      break;
    case 'account.subscription-past-due':
      await set(`tier = $2, payment_status = 'past_due', ${TRIAL_OVER}`, event.payload.accountId, [event.payload.tier]);
      break;
    case 'account.subscription-cancelled':
      await set(`tier = $2, payment_status = 'cancelled', ${TRIAL_OVER}`, event.payload.accountId, [
        event.payload.tier,
      ]);
      break;
    case 'account.subscription-expired':
      await set(`tier = 'free', payment_status = 'cancelled', ${TRIAL_OVER}`, event.payload.accountId);
      break;
    case 'account.suspended':
      await set('suspended = true, suspended_reason = $2', event.payload.accountId, [event.payload.reason]);
      break;
    case 'account.unsuspended':
      await set('suspended = false, suspended_reason = NULL', event.payload.accountId);
      break;
    case 'account.admin-trial-granted':
      await set('tier = $2, upgraded_by_admin = true, trial_ends_at = $3', event.payload.accountId, [
        event.payload.tier,
        event.payload.until,
      ]);
      break;
    case 'account.admin-trial-ended':
      await set(`tier = $2, ${TRIAL_OVER}`, event.payload.accountId, [event.payload.tier]);
      break;
    case 'account.deleted':
      await db.query('DELETE FROM admin.accounts WHERE id = $1', [event.payload.accountId]);
      return;
    default:
      break;
  }
  const accountId = (event.payload as { accountId?: unknown }).accountId;
  if (event.actor.kind === 'user' && typeof accountId === 'string') {
    await set('last_active_at = GREATEST(last_active_at, $2)', accountId, [event.occurredAt]);
  }
}

async function projectRoomEvent(db: PoolClient, event: AnyEventEnvelope): Promise<void> {
  switch (event.type) {
    case 'workspace.created': {
      const p = event.payload;
      await db.query(
        `INSERT INTO admin.rooms (id, name, tier, created_at, expires_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING`,
        [p.workspaceId, p.name, p.tier, p.createdAt, p.expiresAt],
      );
      return;
    }
    case 'workspace.claimed':
      await db.query('UPDATE admin.rooms SET owner_account_id = $2 WHERE id = $1', [
        event.payload.workspaceId,
        event.payload.accountId,
      ]);
      return;
    case 'member.joined':
      await db.query('UPDATE admin.rooms SET user_count = user_count + 1 WHERE id = $1', [event.payload.workspaceId]);
      return;
    case 'member.left':
    case 'member.kicked':
      await db.query('UPDATE admin.rooms SET user_count = GREATEST(user_count - 1, 0) WHERE id = $1', [
        event.payload.workspaceId,
      ]);
      return;
    case 'workspace.renamed':
      await db.query('UPDATE admin.rooms SET name = $2 WHERE id = $1', [event.payload.workspaceId, event.payload.name]);
      return;
    case 'workspace.extended':
      await db.query('UPDATE admin.rooms SET expires_at = $2 WHERE id = $1', [
        event.payload.workspaceId,
        event.payload.expiresAt,
      ]);
      return;
    case 'workspace.tier-changed':
      await db.query('UPDATE admin.rooms SET tier = $2, expires_at = $3 WHERE id = $1', [
        event.payload.workspaceId,
        event.payload.tier,
        event.payload.expiresAt,
      ]);
      return;
    case 'workspace.deleted':
    case 'workspace.expired':
      await db.query('DELETE FROM admin.rooms WHERE id = $1', [event.payload.workspaceId]);
      return;
    default:
      return;
  }
}
