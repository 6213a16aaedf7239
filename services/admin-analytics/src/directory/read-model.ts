/**
 * Reads of the directory (admin.accounts, admin.rooms) as the Users and Rooms tabs show them, and the wait that
 * makes an action's answer current: the owning service has recorded its events when its command returns, and this
 * service's projection applies them from the log a moment later (in-process in embedded mode, from Kafka when
 * distributed). A route that changed something waits until its own read model shows the change, so the list the
 * dashboard reloads right after reflects it.
 */
import { EmailSchema, type AdminRoom, type AdminUser, type Tier } from '@ephemera/proto';
import type { Pool } from '@ephemera/platform';
import type { AdminContext } from '../context.ts';
import type { AccountFields } from '../account-fields.ts';

/** an account as the Users tab shows it: e-mail and username opened (stored sealed, account-fields.ts) */
export interface AccountRecord {
  id: string; email: string; username: string | null; tier: Tier; payment_status: string; created_at: Date;
  upgraded_by_admin: boolean; trial_ends_at: Date | null; suspended: boolean; suspended_reason: string | null; last_active_at: Date;
}
interface RoomRecord {
  id: string; name: string; owner_email: string | null; tier: Tier; user_count: number; created_at: Date; expires_at: Date | null;
}

const PAYMENT = ['active', 'past_due', 'cancelled'] as const;

export function presentUser(a: AccountRecord): AdminUser {
  return {
    email: a.email, username: a.username, subscriptionTier: a.tier, upgradedByAdmin: a.upgraded_by_admin,
    paymentStatus: (PAYMENT as readonly string[]).includes(a.payment_status) ? a.payment_status as AdminUser['paymentStatus'] : 'active',
    createdAt: a.created_at.toISOString(), suspended: a.suspended, suspendedReason: a.suspended_reason,
    trialEndsAt: a.trial_ends_at?.toISOString() ?? null,
  };
}

export function presentRoom(r: RoomRecord, now: Date): AdminRoom {
  return {
    id: r.id, name: r.name, owner: r.owner_email, userCount: r.user_count,
    isActive: r.expires_at === null || r.expires_at.getTime() > now.getTime(), expiresAt: r.expires_at?.toISOString() ?? null,
  };
}

/** a LIKE pattern that finds `text` anywhere, the user's % _ and \ taken literally */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
/** a search that is a whole address is looked up by its keyed hash */
const asEmail = (search: string): string | null => (search.includes('@') && EmailSchema.safeParse(search).success ? search : null);

/**
 * How many of the newest accounts a search that is not a whole address reads: e-mails and usernames are sealed, so
 * such a search opens them one by one (newest first) instead of asking an index. A whole address is exact and finds
 * any account, however old.
 */
export const ACCOUNT_SEARCH_SCAN = 2_000;
const SCAN_BATCH = 250;

/**
 * The stored rows, opened (their keys asked for together: distributed, a key this process has not held yet is one
 * call to billing each); an account deleted meanwhile (its key gone) is left out.
 */
async function opened(fields: AccountFields, rows: AccountRecord[]): Promise<AccountRecord[]> {
  const clear = await Promise.all(rows.map((row) => fields.open(row)));
  return rows.flatMap((row, i) => (clear[i] ? [{ ...row, ...clear[i] }] : []));
}

/**
 * Newest first; `search`: a whole e-mail address (exact, any case), or text found in the e-mail or the username of
 * one of the newest ACCOUNT_SEARCH_SCAN accounts; `hide`: the superadmin's address, never listed.
 */
export async function listAccounts(pool: Pool, fields: AccountFields, opts: { search: string; limit: number | null; hide: string | null }): Promise<AccountRecord[]> {
  const hidden = opts.hide ? await fields.emailHash(opts.hide) : null;
  const page = (where: string, values: unknown[], limit: number | null, offset = 0) => pool.query<AccountRecord>(
    `SELECT * FROM admin.accounts WHERE email_hash IS DISTINCT FROM $1 AND ${where}
     ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`, [hidden, limit, offset, ...values]);
  const email = asEmail(opts.search);
  if (email) return opened(fields, (await page('email_hash = $4', [await fields.emailHash(email)], opts.limit)).rows);
  if (opts.search === '') return opened(fields, (await page('true', [], opts.limit)).rows);
  const needle = opts.search.toLowerCase();
  const found: AccountRecord[] = [];
  for (let offset = 0; offset < ACCOUNT_SEARCH_SCAN; offset += SCAN_BATCH) {
    const { rows } = await page('true', [], SCAN_BATCH, offset);
    for (const a of await opened(fields, rows)) {
      if (!a.email.includes(needle) && !a.username?.toLowerCase().includes(needle)) continue;
      found.push(a);
      if (found.length === opts.limit) return found;
    }
    if (rows.length < SCAN_BATCH) break;
  }
  return found;
}

/** Newest first; `search` in the room's name, or its owner's whole e-mail address. */
export async function listRooms(pool: Pool, fields: AccountFields, opts: { search: string; limit: number }): Promise<RoomRecord[]> {
  const email = asEmail(opts.search);
  const { rows } = await pool.query<RoomRecord & { owner_account_id: string | null; owner_sealed: string | null }>(
    `SELECT r.id, r.name, r.owner_account_id, a.email AS owner_sealed, r.tier, r.user_count, r.created_at, r.expires_at
     FROM admin.rooms r LEFT JOIN admin.accounts a ON a.id = r.owner_account_id
     WHERE $1 = '' OR r.name ILIKE $2 OR a.email_hash = $4
     ORDER BY r.created_at DESC, r.id DESC LIMIT $3`,
    [opts.search, containing(opts.search), opts.limit, email ? await fields.emailHash(email) : null]);
  const out: RoomRecord[] = [];
  for (const { owner_account_id: ownerId, owner_sealed: sealed, ...room } of rows) {
    const owner = ownerId && sealed !== null ? await fields.open({ id: ownerId, email: sealed, username: null }) : null;
    out.push({ ...room, owner_email: owner?.email ?? null });
  }
  return out;
}

export async function roomExists(pool: Pool, id: string): Promise<boolean> {
  return (await pool.query('SELECT 1 FROM admin.rooms WHERE id = $1', [id])).rowCount === 1;
}

/** how long an action waits for its own read model at most (real time: the test clock may stand still) */
const PROJECTION_WAIT_MS = 10_000;

/**
 * Resolves once `shows` (a query of this service's read model) is true, polling with a short back-off. If the
 * projection does not get there in time (the log is far behind) the action has still happened: it is logged and the
 * route answers anyway; the list catches up when the projection does.
 */
export async function untilProjected(ctx: AdminContext, what: string, shows: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + PROJECTION_WAIT_MS;
  for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
    if (await shows()) return true;
    if (Date.now() > deadline) {
      ctx.logger.warn({ what }, 'the directory did not show an admin action in time; answering anyway');
      return false;
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/** one row matches: `SELECT 1 FROM ... WHERE ...` */
export const matches = async (pool: Pool, sql: string, values: unknown[]) => ((await pool.query(sql, values)).rowCount ?? 0) > 0;
