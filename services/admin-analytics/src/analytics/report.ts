/**
 * The Dashboard tab's figures and the Analytics report (proto AnalyticsReport): every part read in parallel from
 * the pre-aggregated read models, plus this process's own metrics for the system figures.
 */
import type { AnalyticsReport, DashboardAnalytics } from '@ephemera/proto';
import type { AdminContext } from '../context.ts';
import { dayOf, dollars, percent } from './days.ts';
import {
  activeRooms,
  activeUsersLastDay,
  dailySeries,
  featureUsage,
  pageViewsOn,
  trafficFigures,
  usageFigures,
  userFigures,
} from './figures-repository.ts';
import { paidCentsOn, revenueFigures } from './revenue-repository.ts';
import {
  averageResponseMsOf,
  blockedAddresses,
  databaseQueryMs,
  errorRateOf,
  type ReadinessSamples,
} from './system-metrics.ts';

/** failed sign-ins are counted over this window */
const FAILED_SIGN_IN_WINDOW_MS = 24 * 3600_000;

export async function dashboardAnalytics(ctx: AdminContext, readiness: ReadinessSamples): Promise<DashboardAnalytics> {
  const now = ctx.now();
  const today = dayOf(now);
  const [users, rooms, accounts, revenue, views, http] = await Promise.all([
    activeUsersLastDay(ctx.pool, now),
    activeRooms(ctx.pool, now),
    userFigures(ctx.pool, now, ctx.accountFields, ctx.superadminEmail),
    paidCentsOn(ctx.pool, today),
    pageViewsOn(ctx.pool, today),
    readiness.httpTotals(),
  ]);
  return {
    activeUsers: users,
    activeRooms: rooms,
    // accounts on a paid tier they pay for (admin trials are not conversions) / all accounts, one decimal
    conversionRate: percent(accounts.paid, accounts.total),
    todayRevenue: dollars(revenue),
    pageViewsToday: views,
    uptime: readiness.uptime(),
    errorRate: errorRateOf(http),
  };
}

export async function analyticsReport(ctx: AdminContext, readiness: ReadinessSamples): Promise<AnalyticsReport> {
  const now = ctx.now();
  const today = dayOf(now);
  const [
    money,
    pageViewAnalytics,
    { paid: _paid, ...users },
    usage,
    features,
    daily,
    http,
    databaseQueryTime,
    failedLoginAttempts,
    blockedIPs,
  ] = await Promise.all([
    revenueFigures(ctx.pool, today),
    trafficFigures(ctx.pool, today),
    userFigures(ctx.pool, now, ctx.accountFields, ctx.superadminEmail),
    usageFigures(ctx.pool, today),
    featureUsage(ctx.pool),
    dailySeries(ctx.pool, today),
    readiness.httpTotals(),
    databaseQueryMs(ctx.pool),
    failedSignIns(ctx, now),
    blockedAddresses(ctx.limits),
  ]);
  return {
    ...money,
    pageViewAnalytics,
    users,
    usage: { ...usage, featureUsage: features },
    system: {
      performance: { averageResponseTime: averageResponseMsOf(http), databaseQueryTime },
      security: { failedLoginAttempts, blockedIPs },
    },
    daily,
  };
}

/** Wrong sign-in codes in the last 24 hours, from billing; 0 (and a warning) while billing cannot answer. */
async function failedSignIns(ctx: AdminContext, now: Date): Promise<number> {
  try {
    const { count } = await ctx.billingSystem.failedSignIns({
      since: new Date(now.getTime() - FAILED_SIGN_IN_WINDOW_MS).toISOString(),
    });
    return count;
  } catch (err) {
    ctx.logger.warn({ err: { message: (err as Error).message } }, 'failed sign-ins unavailable; reported as 0');
    return 0;
  }
}
