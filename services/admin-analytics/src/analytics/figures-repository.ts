/**
 * Traffic, activity, feature usage and account figures, each one aggregate query over a read model:
 *  - page views: admin.daily_counts (pages.viewed); unique visitors: admin.daily_visitors. The visitor id's salt
 *    changes every UTC day, so a person is one visitor per day: the week's unique visitors are visitor-days.
 *  - active users: admin.daily_active. An active user is a room member (its user id: one person in two rooms is two
 *    members) who did something in a room that day: created or joined it, sent, edited, deleted or reacted to a
 *    message, read, uploaded, changed a channel or a profile... (any room or messaging event with a user actor).
 *    Daily = today (UTC), weekly = the last 7 days, monthly = the last 30, today included: read from the totals the
 *    projector keeps beside daily_active (daily_activity per day, actor_last_active per member).
 *  - average session: time between a member's actions inside its sessions (a gap over 30 minutes ends one), per
 *    session, over the last 7 days, in minutes. Chat has no sign-out, so this is the span of activity, a lower bound.
 *  - accounts: admin.accounts (the directory's projection), the superadmin's own account left out as in the Users tab.
 */
import type { AnalyticsReport } from '@ephemera/proto';
import type { Pool } from '@ephemera/platform';
import type { AccountFields } from '../account-fields.ts';
import { daysBefore, dollars, percent, round } from './days.ts';
import { PAID_KINDS } from './revenue-repository.ts';

type Traffic = AnalyticsReport['pageViewAnalytics'];
type Users = AnalyticsReport['users'];
type Usage = Omit<AnalyticsReport['usage'], 'featureUsage'>;

export async function trafficFigures(pool: Pool, today: string): Promise<Traffic> {
  const [views, visitors] = await Promise.all([
    pool.query<{ today: string; week: string; month: string }>(
      `SELECT coalesce(sum(value) FILTER (WHERE day = $1), 0) AS today, coalesce(sum(value) FILTER (WHERE day >= $2), 0) AS week,
         coalesce(sum(value), 0) AS month
       FROM admin.daily_counts WHERE metric = 'pages.viewed' AND day >= $3 AND day <= $1`,
      [today, daysBefore(today, 6), daysBefore(today, 29)],
    ),
    pool.query<{ today: string; week: string }>(
      `SELECT count(*) FILTER (WHERE day = $1) AS today, count(*) AS week FROM admin.daily_visitors WHERE day >= $2 AND day <= $1`,
      [today, daysBefore(today, 6)],
    ),
  ]);
  const v = views.rows[0];
  return {
    today: { pageViews: Number(v.today), uniqueVisitors: Number(visitors.rows[0].today) },
    weekly: { pageViews: Number(v.week), uniqueVisitors: Number(visitors.rows[0].week) },
    monthly: { pageViews: Number(v.month) },
  };
}

export async function usageFigures(pool: Pool, today: string): Promise<Usage> {
  // weekly and monthly: members whose last active day is in the range (an index range of actor_last_active);
  // daily, sessions and active time: the per-day totals (daily_activity), both kept by the projector
  const { rows } = await pool.query<{
    dau: string;
    wau: string;
    mau: string;
    ms: string | null;
    sessions: string | null;
  }>(
    `SELECT (SELECT coalesce(sum(actors), 0) FROM admin.daily_activity WHERE day = $1) AS dau,
       (SELECT count(*) FROM admin.actor_last_active WHERE last_day BETWEEN $2 AND $1) AS wau,
       (SELECT count(*) FROM admin.actor_last_active WHERE last_day BETWEEN $3 AND $1) AS mau,
       (SELECT sum(active_ms) FROM admin.daily_activity WHERE day BETWEEN $2 AND $1) AS ms,
       (SELECT sum(sessions) FROM admin.daily_activity WHERE day BETWEEN $2 AND $1) AS sessions`,
    [today, daysBefore(today, 6), daysBefore(today, 29)],
  );
  const r = rows[0];
  const sessions = Number(r.sessions ?? 0);
  return {
    dailyActiveUsers: Number(r.dau),
    weeklyActiveUsers: Number(r.wau),
    monthlyActiveUsers: Number(r.mau),
    averageSessionDuration: sessions ? round(Number(r.ms ?? 0) / sessions / 60_000, 1) : 0,
  };
}

/** All-time totals. Video calls: answered video calls (call.connected, the one durable fact of a call: gateway calls.ts). */
export async function featureUsage(pool: Pool): Promise<AnalyticsReport['usage']['featureUsage']> {
  const { rows } = await pool.query<{ metric: string; dimension: string; n: string }>(
    `SELECT metric, dimension, sum(value) AS n FROM admin.daily_counts
      WHERE metric IN ('rooms.created', 'files.uploaded', 'messages.sent', 'calls.connected') GROUP BY metric, dimension`,
  );
  const of = (m: string, dimension?: string) =>
    rows
      .filter((r) => r.metric === m && (dimension === undefined || r.dimension === dimension))
      .reduce((n, r) => n + Number(r.n), 0);
  return {
    roomsCreated: of('rooms.created'),
    filesUploaded: of('files.uploaded'),
    videoCalls: of('calls.connected', 'video'),
    messagesExchanged: of('messages.sent'),
  };
}

/**
 * Accounts by tier and payment status, growth and retention. Retention: of the accounts older than 30 days, the
 * share active (signed in or acted: last_active_at) in the last 30 days, percent with one decimal. The superadmin's own
 * account is left out (by its address's keyed hash: the stored address is sealed), as the Users tab leaves it out.
 */
export async function userFigures(
  pool: Pool,
  now: Date,
  fields: AccountFields,
  superadminEmail: string | null,
): Promise<Users & { paid: number }> {
  const monthAgo = new Date(now.getTime() - 30 * 86_400_000);
  const { rows } = await pool.query<Record<string, string>>(
    `SELECT count(*) AS total,
       count(*) FILTER (WHERE tier = 'free') AS free, count(*) FILTER (WHERE tier = 'pro') AS pro, count(*) FILTER (WHERE tier = 'business') AS business,
       count(*) FILTER (WHERE payment_status = 'active') AS active, count(*) FILTER (WHERE payment_status = 'past_due') AS past_due,
       count(*) FILTER (WHERE payment_status = 'cancelled') AS cancelled,
       count(*) FILTER (WHERE created_at > $1) AS new30, count(*) FILTER (WHERE created_at <= $1) AS older,
       count(*) FILTER (WHERE created_at <= $1 AND last_active_at > $1) AS retained,
       count(*) FILTER (WHERE tier <> 'free' AND NOT upgraded_by_admin) AS paid
     FROM admin.accounts WHERE email_hash IS DISTINCT FROM $2`,
    [monthAgo, superadminEmail ? await fields.emailHash(superadminEmail) : null],
  );
  const r = rows[0];
  const n = (k: string) => Number(r[k]);
  return {
    byTier: { free: n('free'), pro: n('pro'), business: n('business') },
    byStatus: { active: n('active'), past_due: n('past_due'), cancelled: n('cancelled') },
    total: n('total'),
    newUsersLast30Days: n('new30'),
    retentionRate: percent(n('retained'), n('older')),
    paid: n('paid'),
  };
}

/** Members active in the last 24 hours (the Dashboard's Active Users card). */
export async function activeUsersLastDay(pool: Pool, now: Date): Promise<number> {
  const since = new Date(now.getTime() - 86_400_000);
  const { rows } = await pool.query<{ n: string }>(
    'SELECT count(DISTINCT actor) AS n FROM admin.daily_active WHERE day >= $1 AND last_at > $2',
    [since.toISOString().slice(0, 10), since],
  );
  return Number(rows[0].n);
}

/** Rooms not expired now (admin.rooms: the directory's projection; deleted rooms are gone from it). */
export async function activeRooms(pool: Pool, now: Date): Promise<number> {
  const { rows } = await pool.query<{ n: string }>(
    'SELECT count(*) AS n FROM admin.rooms WHERE expires_at IS NULL OR expires_at > $1',
    [now],
  );
  return Number(rows[0].n);
}

/** The page views of today (the Dashboard card). */
export async function pageViewsOn(pool: Pool, day: string): Promise<number> {
  const { rows } = await pool.query<{ n: string }>(
    `SELECT coalesce(sum(value), 0) AS n FROM admin.daily_counts WHERE metric = 'pages.viewed' AND day = $1`,
    [day],
  );
  return Number(rows[0].n);
}

/** The charts' series: the last 30 days, one row a day. */
export async function dailySeries(pool: Pool, today: string): Promise<AnalyticsReport['daily']> {
  const first = daysBefore(today, 29);
  const [counts, revenue, active] = await Promise.all([
    pool.query<{ metric: string; day: string; n: string }>(
      `SELECT metric, to_char(day, 'YYYY-MM-DD') AS day, sum(value) AS n FROM admin.daily_counts
       WHERE metric IN ('pages.viewed', 'messages.sent', 'rooms.created') AND day BETWEEN $1 AND $2 GROUP BY metric, day`,
      [first, today],
    ),
    pool.query<{ day: string; cents: string }>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(amount_cents) AS cents FROM admin.payments
       WHERE day BETWEEN $1 AND $2 AND ${PAID_KINDS} GROUP BY day`,
      [first, today],
    ),
    pool.query<{ day: string; n: string }>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, actors AS n FROM admin.daily_activity WHERE day BETWEEN $1 AND $2`,
      [first, today],
    ),
  ]);
  const count = (metric: string, day: string) =>
    Number(counts.rows.find((r) => r.metric === metric && r.day === day)?.n ?? 0);
  return Array.from({ length: 30 }, (_, i) => {
    const date = daysBefore(today, 29 - i);
    return {
      date,
      revenue: dollars(revenue.rows.find((r) => r.day === date)?.cents ?? 0),
      pageViews: count('pages.viewed', date),
      messages: count('messages.sent', date),
      activeUsers: Number(active.rows.find((r) => r.day === date)?.n ?? 0),
      roomsCreated: count('rooms.created', date),
    };
  });
}
