/**
 * Revenue read from admin.payments (one row per payment, failed payment and refund, by UTC day), which a revenue reset
 * empties up to its time. Periods end today (UTC, the service's clock) and include it: today, the last 7, 30 and 365
 * days. Amounts are kept in cents and answered in dollars. Revenue is gross: refunds are counted (revenue.refunds),
 * not subtracted.
 */
import type { AnalyticsReport, DailyRevenue, RevenueSplit } from '@ephemera/proto';
import type { Pool } from '@ephemera/platform';
import { daysBefore, dollars, eachDay, percent, round } from './days.ts';

/** the rows that are money received: revenue sums and payment counts take only these (not failed, not refund) */
export const PAID_KINDS = `kind IN ('subscription', 'extension')`;

type Revenue = AnalyticsReport['revenue'];
type TimeBased = AnalyticsReport['timeBasedRevenue'];

const split = (row: Record<string, string>, p: string): RevenueSplit => ({
  total: dollars(Number(row[`${p}_sub`]) + Number(row[`${p}_ext`])),
  subscription: dollars(row[`${p}_sub`]),
  extension: dollars(row[`${p}_ext`]),
});

/** The report's revenue and time-based revenue, in one pass over the payments. */
export async function revenueFigures(
  pool: Pool,
  today: string,
): Promise<{ revenue: Revenue; timeBasedRevenue: TimeBased }> {
  const periods: Array<[string, string, string]> = [
    // name, first day, last day
    ['today', today, today],
    ['week', daysBefore(today, 6), today],
    ['month', daysBefore(today, 29), today],
    ['prev', daysBefore(today, 59), daysBefore(today, 30)],
    ['year', daysBefore(today, 364), today],
  ];
  const params: string[] = [];
  const periodSums = periods.map(([name, from, to]) => {
    params.push(from, to);
    const inPeriod = `day BETWEEN $${params.length - 1} AND $${params.length}`;
    return `coalesce(sum(amount_cents) FILTER (WHERE kind = 'subscription' AND ${inPeriod}), 0) AS ${name}_sub,
            coalesce(sum(amount_cents) FILTER (WHERE kind = 'extension' AND ${inPeriod}), 0) AS ${name}_ext`;
  });
  const { rows } = await pool.query<Record<string, string>>(
    `SELECT ${periodSums.join(', ')},
       coalesce(sum(amount_cents) FILTER (WHERE kind = 'subscription'), 0) AS all_sub,
       coalesce(sum(amount_cents) FILTER (WHERE kind = 'extension'), 0) AS all_ext,
       coalesce(sum(amount_cents) FILTER (WHERE kind = 'subscription' AND plan = 'pro'), 0) AS pro,
       coalesce(sum(amount_cents) FILTER (WHERE kind = 'subscription' AND plan = 'business'), 0) AS business,
       coalesce(sum(amount_cents) FILTER (WHERE kind = 'extension' AND extension_days = 7), 0) AS seven_day,
       coalesce(sum(amount_cents) FILTER (WHERE kind = 'extension' AND extension_days = 30), 0) AS thirty_day,
       count(*) FILTER (WHERE kind = 'extension') AS extension_count,
       count(*) FILTER (WHERE kind = 'failed') AS failed,
       count(*) FILTER (WHERE kind = 'refund') AS refunds,
       count(*) FILTER (WHERE ${PAID_KINDS}) AS payment_count,
       count(DISTINCT account_id) FILTER (WHERE ${PAID_KINDS}) AS payers
     FROM admin.payments`,
    params,
  );
  const r = rows[0];
  const cents = (p: string) => Number(r[`${p}_sub`]) + Number(r[`${p}_ext`]);
  const allTime = cents('all');
  const revenue: Revenue = {
    monthlyRevenue: dollars(cents('month')),
    yearlyRevenue: dollars(cents('year')),
    // the last 30 days against the 30 before them; from nothing to something is +100 %
    monthlyGrowthRate:
      cents('prev') === 0 ? (cents('month') > 0 ? 100 : 0) : percent(cents('month') - cents('prev'), cents('prev')),
    revenueByPlan: { pro: dollars(r.pro), business: dollars(r.business) },
    averageLifetimeValue: Number(r.payers) ? round(allTime / Number(r.payers) / 100) : 0,
    subscriptionRevenue: dollars(r.all_sub),
    extensionRevenue: dollars(r.all_ext),
    extensionPaymentCount: Number(r.extension_count),
    extensionRevenueBreakdown: { sevenDay: dollars(r.seven_day), thirtyDay: dollars(r.thirty_day) },
    failedPayments: Number(r.failed),
    // like failedPayments: every refund since the last reset (each recorded refund, partial ones included)
    refunds: Number(r.refunds),
  };
  const timeBasedRevenue: TimeBased = {
    today: split(r, 'today'),
    weekly: split(r, 'week'),
    monthly: split(r, 'month'),
    allTime: { total: dollars(allTime), paymentCount: Number(r.payment_count) },
  };
  return { revenue, timeBasedRevenue };
}

/** Each day from start to end (both included, days without payments as zeros). */
export async function dailyRevenue(pool: Pool, start: string, end: string): Promise<DailyRevenue[]> {
  const { rows } = await pool.query<{ day: string; sub: string; ext: string; n: string }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day,
       coalesce(sum(amount_cents) FILTER (WHERE kind = 'subscription'), 0) AS sub,
       coalesce(sum(amount_cents) FILTER (WHERE kind = 'extension'), 0) AS ext,
       count(*) FILTER (WHERE ${PAID_KINDS}) AS n
     FROM admin.payments WHERE day BETWEEN $1 AND $2 GROUP BY day`,
    [start, end],
  );
  const byDay = new Map(rows.map((r) => [r.day, r]));
  return eachDay(start, end).map((date) => {
    const r = byDay.get(date);
    const sub = Number(r?.sub ?? 0);
    const ext = Number(r?.ext ?? 0);
    return {
      date,
      total: dollars(sub + ext),
      subscription: dollars(sub),
      extension: dollars(ext),
      paymentCount: Number(r?.n ?? 0),
    };
  });
}

/** How many payment records a reset at `before` deletes (every kind, failed payments and refunds included). */
export async function paymentsBefore(pool: Pool, before: string): Promise<number> {
  const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM admin.payments WHERE paid_at < $1', [
    before,
  ]);
  return Number(rows[0].n);
}

/** The money received on `day` (the Dashboard's revenue card), in cents. */
export async function paidCentsOn(pool: Pool, day: string): Promise<number> {
  const { rows } = await pool.query<{ cents: string }>(
    `SELECT coalesce(sum(amount_cents), 0) AS cents FROM admin.payments WHERE day = $1 AND ${PAID_KINDS}`,
    [day],
  );
  return Number(rows[0].cents);
}
