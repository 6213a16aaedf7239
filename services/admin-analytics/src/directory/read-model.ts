/**
 * Reads of the directory (admin.accounts, admin.rooms) as the Users and Rooms tabs show them, and the wait that
 * makes an action's answer current: the owning service has recorded its events when its command returns, and this
 * service's projection applies them from the log a moment later (in-process in embedded mode, from Kafka when
 * distributed). A route that changed something waits until its own read model shows the change, so the list the
 * dashboard reloads right after reflects it.
 */
import type { Tier } from '@ephemera/proto';
import type { Pool } from '@ephemera/platform';
import type { AdminContext } from '../context.ts';
import type { AccountFields } from '../account-fields.ts';

/** an account as the Users tab shows it: e-mail and username opened (stored sealed, account-fields.ts) */
export interface AccountRecord {
  id: string;
  email: string;
  username: string | null;
  tier: Tier;
  payment_status: string;
  created_at: Date;
  upgraded_by_admin: boolean;
  trial_ends_at: Date | null;
  suspended: boolean;
  suspended_reason: string | null;
  last_active_at: Date;
}
export interface RoomRecord {
  id: string;
  name: string;
  owner_email: string | null;
  tier: Tier;
  user_count: number;
  created_at: Date;
  expires_at: Date | null;
}

/** the payment states an account's row may name (anything else reads as active) */
export const PAYMENT = ['active', 'past_due', 'cancelled'] as const;
type PaymentStatus = (typeof PAYMENT)[number];

/** a LIKE pattern that finds `text` anywhere, the user's % _ and \ taken literally */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
/** `$n` of a value added to a query's values */
const param = (values: unknown[], value: unknown) => `$${values.push(value)}`;

/**
 * The stored rows, opened (their keys asked for together: distributed, a key this process has not held yet is one
 * call to billing each); an account deleted meanwhile (its key gone) is left out.
 */
async function opened(fields: AccountFields, rows: AccountRecord[]): Promise<AccountRecord[]> {
  const clear = await Promise.all(rows.map((row) => fields.open(row)));
  return rows.flatMap((row, i) => (clear[i] ? [{ ...row, ...clear[i] }] : []));
}

/**
 * A search of sealed e-mails (and usernames) over every row (docs/administration.md, "Searching sealed accounts"):
 * the row's keyed hashes of its three-character runs include every run of the search. A search with no run (shorter
 * than ADMIN_LIMITS.accountSearchMin) matches nothing here.
 */
async function gramsMatch(
  fields: AccountFields,
  values: unknown[],
  search: string,
  columns: Array<['email' | 'username', string]>,
): Promise<string> {
  const parts: string[] = [];
  for (const [field, column] of columns) {
    const grams = await fields.searchGrams(field, search);
    if (grams.length > 0) parts.push(`${column} @> ${param(values, grams)}::text[]`);
  }
  return parts.length > 0 ? `(${parts.join(' OR ')})` : 'false';
}

export interface AccountsQuery {
  search: string;
  tier?: Tier | undefined;
  status?: PaymentStatus | undefined;
  page: number;
  pageSize: number;
  hide: string | null;
}
/** the payment statuses the tab shows; anything else stored reads as active (presentUser) */
const statusIs = (status: PaymentStatus) =>
  status === 'active' ? "payment_status NOT IN ('past_due', 'cancelled')" : `payment_status = '${status}'`;

/**
 * One page of the Users tab, newest first, over every account but the superadmin's (`hide`): the rows the search,
 * tier and status give (`total` of them), and the counts by tier and status of every row the search gives.
 */
export async function accountsPage(pool: Pool, fields: AccountFields, q: AccountsQuery) {
  const values: unknown[] = [];
  const where = [`email_hash IS DISTINCT FROM ${param(values, q.hide ? await fields.emailHash(q.hide) : null)}`];
  if (q.search !== '')
    where.push(
      await gramsMatch(fields, values, q.search, [
        ['email', 'email_grams'],
        ['username', 'username_grams'],
      ]),
    );
  const filter = [q.tier ? `tier = ${param(values, q.tier)}` : 'true', q.status ? statusIs(q.status) : 'true'].join(
    ' AND ',
  );
  const counted = await pool.query<{
    total: number;
    matching: number;
    free: number;
    pro: number;
    business: number;
    past_due: number;
    cancelled: number;
  }>(
    `SELECT count(*)::int AS total, (count(*) FILTER (WHERE ${filter}))::int AS matching,
       (count(*) FILTER (WHERE tier = 'free'))::int AS free, (count(*) FILTER (WHERE tier = 'pro'))::int AS pro,
       (count(*) FILTER (WHERE tier = 'business'))::int AS business,
       (count(*) FILTER (WHERE ${statusIs('past_due')}))::int AS past_due, (count(*) FILTER (WHERE ${statusIs('cancelled')}))::int AS cancelled
     FROM admin.accounts WHERE ${where.join(' AND ')}`,
    [...values],
  );
  const { rows } = await pool.query<AccountRecord>(
    `SELECT * FROM admin.accounts WHERE ${where.join(' AND ')} AND ${filter} ORDER BY created_at DESC, id DESC
     LIMIT ${param(values, q.pageSize)} OFFSET ${param(values, (q.page - 1) * q.pageSize)}`,
    values,
  );
  const c = counted.rows[0]!;
  return {
    rows: await opened(fields, rows),
    total: c.matching,
    totals: {
      total: c.total,
      byTier: { free: c.free, pro: c.pro, business: c.business },
      byStatus: { active: c.total - c.past_due - c.cancelled, past_due: c.past_due, cancelled: c.cancelled },
    },
  };
}

/** every account but the superadmin's, newest first, opened (the users CSV) */
export async function allAccounts(pool: Pool, fields: AccountFields, hide: string | null): Promise<AccountRecord[]> {
  const { rows } = await pool.query<AccountRecord>(
    'SELECT * FROM admin.accounts WHERE email_hash IS DISTINCT FROM $1 ORDER BY created_at DESC, id DESC',
    [hide ? await fields.emailHash(hide) : null],
  );
  return opened(fields, rows);
}

export interface RoomsQuery {
  search: string;
  status?: 'active' | 'expired' | undefined;
  page: number;
  pageSize: number;
  now: Date;
}

/**
 * One page of the Rooms tab, newest first: the rooms whose name holds the search, or whose owner's e-mail does (from
 * ADMIN_LIMITS.accountSearchMin characters: it is sealed), and the status (`total` of them); and the totals of every
 * room the search gives: rooms, active, expired (past its expiry, not yet swept), members.
 */
export async function roomsPage(pool: Pool, fields: AccountFields, q: RoomsQuery) {
  /** the conditions, their values in `values` (one list a query: PostgreSQL refuses a value a query does not use) */
  const conditions = async (values: unknown[]) => {
    const active = () => `(r.expires_at IS NULL OR r.expires_at > ${param(values, q.now)})`;
    const match =
      q.search === ''
        ? 'true'
        : `(r.name ILIKE ${param(values, containing(q.search))} OR ${await gramsMatch(fields, values, q.search, [['email', 'a.email_grams']])})`;
    const filter = q.status === 'active' ? active() : q.status === 'expired' ? `NOT ${active()}` : 'true';
    return { active, match, filter };
  };
  const from = 'FROM admin.rooms r LEFT JOIN admin.accounts a ON a.id = r.owner_account_id';
  const countValues: unknown[] = [];
  const all = await conditions(countValues);
  const counted = await pool.query<{ total: number; matching: number; active: number; users: number }>(
    `SELECT count(*)::int AS total, (count(*) FILTER (WHERE ${all.filter}))::int AS matching, (count(*) FILTER (WHERE ${all.active()}))::int AS active,
       coalesce(sum(r.user_count), 0)::int AS users ${from} WHERE ${all.match}`,
    countValues,
  );
  const values: unknown[] = [];
  const page = await conditions(values);
  const { rows } = await pool.query<RoomRecord & { owner_account_id: string | null; owner_sealed: string | null }>(
    `SELECT r.id, r.name, r.owner_account_id, a.email AS owner_sealed, r.tier, r.user_count, r.created_at, r.expires_at
     ${from} WHERE ${page.match} AND ${page.filter} ORDER BY r.created_at DESC, r.id DESC
     LIMIT ${param(values, q.pageSize)} OFFSET ${param(values, (q.page - 1) * q.pageSize)}`,
    values,
  );
  const owners = await Promise.all(
    rows.map(({ owner_account_id: id, owner_sealed: sealed }) =>
      id && sealed !== null ? fields.open({ id, email: sealed, username: null }) : Promise.resolve(null),
    ),
  );
  const c = counted.rows[0]!;
  return {
    rows: rows.map(({ owner_account_id: _id, owner_sealed: _sealed, ...room }, i): RoomRecord => ({
      ...room,
      owner_email: owners[i]?.email ?? null,
    })),
    total: c.matching,
    totals: { total: c.total, active: c.active, expired: c.total - c.active, users: c.users },
  };
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
const matches = async (pool: Pool, sql: string, values: unknown[]) =>
  ((await pool.query(sql, values)).rowCount ?? 0) > 0;

/** What the directory shows once each superadmin action has been applied: the routes wait for it (untilProjected). */
export const directoryShows = {
  /** the account and the rooms its deletion took with it are gone */
  accountDeleted: (pool: Pool, accountId: string, roomIds: string[]) =>
    matches(
      pool,
      'SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM admin.accounts WHERE id = $1) AND NOT EXISTS (SELECT 1 FROM admin.rooms WHERE id = ANY ($2))',
      [accountId, roomIds],
    ),
  suspension: (pool: Pool, accountId: string, suspended: boolean) =>
    matches(pool, 'SELECT 1 FROM admin.accounts WHERE id = $1 AND suspended = $2', [accountId, suspended]),
  /** the account and its live rooms show the trial's tier */
  adminTrial: (pool: Pool, accountId: string, tier: Tier, until: string, now: Date) =>
    matches(
      pool,
      `SELECT 1 FROM admin.accounts WHERE id = $1 AND tier = $2 AND upgraded_by_admin AND trial_ends_at = $3
      AND NOT EXISTS (SELECT 1 FROM admin.rooms WHERE owner_account_id = $1 AND tier <> $2 AND (expires_at IS NULL OR expires_at > $4))`,
      [accountId, tier, until, now],
    ),
  adminTrialEnded: (pool: Pool, accountId: string) =>
    matches(pool, 'SELECT 1 FROM admin.accounts WHERE id = $1 AND NOT upgraded_by_admin', [accountId]),
  roomDeleted: (pool: Pool, roomId: string) =>
    matches(pool, 'SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM admin.rooms WHERE id = $1)', [roomId]),
  roomExpiry: (pool: Pool, roomId: string, expiresAt: string | null) =>
    matches(pool, 'SELECT 1 FROM admin.rooms WHERE id = $1 AND expires_at IS NOT DISTINCT FROM $2', [
      roomId,
      expiresAt,
    ]),
};
