/**
 * The custom revenue period (the Revenue tab's historical filter): the dates checked, then each day's revenue
 * (revenue-repository.ts) and the period's summary.
 */
import {
  CUSTOM_REVENUE_MAX_DAYS,
  CustomRevenueQuerySchema,
  DomainError,
  SERVICE_TEXTS,
  type CustomRevenue,
  type DailyRevenue,
} from '@ephemera/proto';
import { parseOrThrow, type Pool } from '@ephemera/platform';
import { daysBetween, dollars, isCalendarDay, round } from './days.ts';
import { dailyRevenue } from './revenue-repository.ts';

/** GET /api/admin/analytics/revenue/custom?startDate&endDate: the historical filter's results. */
export async function customRevenue(pool: Pool, query: unknown): Promise<CustomRevenue> {
  const { startDate, endDate } = parseOrThrow(CustomRevenueQuerySchema, query);
  if (!isCalendarDay(startDate) || !isCalendarDay(endDate))
    throw new DomainError('VALIDATION', SERVICE_TEXTS.notCalendarDays);
  const days = daysBetween(startDate, endDate);
  if (days > CUSTOM_REVENUE_MAX_DAYS) throw new DomainError('VALIDATION', SERVICE_TEXTS.revenuePeriodTooLong);
  const dailyBreakdown = await dailyRevenue(pool, startDate, endDate);
  const sum = (f: (d: DailyRevenue) => number) => dailyBreakdown.reduce((s, d) => s + Math.round(f(d) * 100), 0);
  const total = sum((d) => d.total);
  return {
    period: { startDate, endDate, days },
    summary: {
      total: dollars(total),
      subscription: dollars(sum((d) => d.subscription)),
      extension: dollars(sum((d) => d.extension)),
      averagePerDay: round(total / days / 100),
      paymentCount: dailyBreakdown.reduce((s, d) => s + d.paymentCount, 0),
    },
    dailyBreakdown,
  };
}
