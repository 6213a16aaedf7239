/**
 * The analytics part of the superadmin dashboard (docs/product/admin.md ADM3, ADM8), run in both modes by harness.ts:
 * real traffic through
 * the product (rooms created, a member joining, messages over the socket, a sign-up, page views from browsers, a
 * bot and a reload) moves the Dashboard and Analytics figures by exactly what happened. Figures are compared as
 * differences from before the traffic (the suites share one product), and polled: the projection follows the log.
 */
import { randomUUID } from 'node:crypto';
import { describe, it, expect } from 'vitest';
import {
  ADMIN_API,
  AUTH_API,
  C,
  type AnalyticsReport,
  type CustomRevenue,
  type DashboardAnalytics,
} from '@ephemera/proto';
import { clientId, createRoom, http, joinRoom, request, socketJoin, uniqueName } from '../helpers/clients.ts';
import { bearer } from '../accounts/account-clients.ts';
import { settledRead } from '../helpers/settled.ts';
import type { AdminTarget } from './target.ts';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const POLL = { timeout: 15_000, interval: 200 };

export function analyticsSuite(target: () => AdminTarget) {
  const admin = () => bearer(target().adminToken);
  const report = async () => (await http<AnalyticsReport>(target().url, ADMIN_API.report, { headers: admin() })).body;
  const dashboard = async () =>
    (await http<DashboardAnalytics>(target().url, ADMIN_API.dashboard, { headers: admin() })).body;
  const pageview = (body: unknown, agent: string) =>
    http(target().url, ADMIN_API.pageview, { body, headers: { 'user-agent': agent } });
  const custom = (startDate: string, endDate: string) =>
    http<CustomRevenue>(target().url, ADMIN_API.customRevenue(startDate, endDate), { headers: admin() });
  const auditActions = async (): Promise<Array<{ action: string; admin: string; target: string | null }>> => {
    const res = await http(target().url, ADMIN_API.audit, { headers: admin() });
    if (res.status !== 200) return [];
    return Array.isArray(res.body) ? res.body : (res.body.entries ?? res.body.audit ?? []);
  };

  /**
   * The figures before a test's traffic, once the projection has caught up with the earlier suites': in distributed
   * mode admin-analytics lets records gather for up to ~2 s (services/admin-analytics/src/index.ts), so figures read
   * right after other traffic may still move. Read until two reads a gather window apart agree on every projected
   * figure (the system figures, uptime and error rate, move by themselves).
   */
  const settledBaseline = () =>
    settledRead(
      async (): Promise<[AnalyticsReport, DashboardAnalytics]> => [await report(), await dashboard()],
      ([r, d]) =>
        JSON.stringify([
          r.usage,
          r.users,
          r.daily,
          r.pageViewAnalytics,
          d.activeUsers,
          d.activeRooms,
          d.pageViewsToday,
        ]),
      { windowMs: 2_500, tries: 8, what: 'the admin figures' },
    );

  describe('analytics', () => {
    it('rooms, members, messages and a sign-up move the activity, usage and account figures by exactly that much', async () => {
      const t = target();
      const [r0, d0] = await settledBaseline();
      const first = await createRoom(t.url, uniqueName('stats'), 'alice');
      const second = await createRoom(t.url, uniqueName('stats'), 'carol');
      const bob = await joinRoom(t.url, first.workspaceId, 'bob');
      const { socket } = await socketJoin(t.url, first.workspaceId, 'alice', first.userToken);
      const { socket: bobSocket } = await socketJoin(t.url, first.workspaceId, 'bob', bob.userToken);
      try {
        const channel = await request(socket, C.createChannel, {
          workspaceId: first.workspaceId,
          name: 'general',
          type: 'topic',
          isPrivate: false,
        });
        if (!channel.success) throw new Error(channel.message);
        for (const [s, content] of [
          [socket, 'one'],
          [socket, 'two'],
          [bobSocket, 'three'],
        ] as const) {
          const ack = await request(s, C.sendMessage, {
            clientMessageId: clientId(),
            channelId: channel.channel.id,
            content,
            type: 'text',
          });
          expect(ack.success).toBe(true);
        }
      } finally {
        socket.disconnect();
        bobSocket.disconnect();
      }
      await t.signIn(undefined, 'newcomer');
      expect(second.workspaceId).toBeTruthy();

      await expect
        .poll(async () => {
          const r = await report();
          return {
            rooms: r.usage.featureUsage.roomsCreated - r0.usage.featureUsage.roomsCreated,
            messages: r.usage.featureUsage.messagesExchanged - r0.usage.featureUsage.messagesExchanged,
            dau: r.usage.dailyActiveUsers - r0.usage.dailyActiveUsers, // alice, bob (room 1) and carol (room 2)
            todayMessages: r.daily.at(-1)!.messages - r0.daily.at(-1)!.messages,
            todayRooms: r.daily.at(-1)!.roomsCreated - r0.daily.at(-1)!.roomsCreated,
            accounts: r.users.total - r0.users.total,
            newAccounts: r.users.newUsersLast30Days - r0.users.newUsersLast30Days,
            free: r.users.byTier.free - r0.users.byTier.free,
          };
        }, POLL)
        .toEqual({
          rooms: 2,
          messages: 3,
          dau: 3,
          todayMessages: 3,
          todayRooms: 2,
          accounts: 1,
          newAccounts: 1,
          free: 1,
        });
      await expect
        .poll(async () => {
          const d = await dashboard();
          return { activeUsers: d.activeUsers - d0.activeUsers, activeRooms: d.activeRooms - d0.activeRooms };
        }, POLL)
        .toEqual({ activeUsers: 3, activeRooms: 2 });
      const r = await report();
      expect(r.usage.featureUsage.videoCalls).toBe(0); // calls are never events: none counted
      expect(r.daily).toHaveLength(30);
      expect(r.users.retentionRate).toBeGreaterThanOrEqual(0);
    });

    it('page views: browsers count, a reload within the minute and bots do not, bad bodies are refused', async () => {
      const runAgent = `${BROWSER} run/${randomUUID().slice(0, 8)}`; // a visitor not seen today
      const otherAgent = `${BROWSER} other/${randomUUID().slice(0, 8)}`;
      const [r0, d0] = await settledBaseline();
      const sent = [
        await pageview({ path: '/', userAgent: runAgent }, runAgent),
        await pageview({ path: '/', userAgent: runAgent }, runAgent), // a reload: not counted again
        await pageview({ path: '/features?ref=mail', userAgent: runAgent }, runAgent),
        await pageview({ path: '/', userAgent: otherAgent }, otherAgent), // another visitor, same page
        await pageview({ path: '/', userAgent: BOT }, BOT),
        await pageview({ path: '/about', userAgent: runAgent }, 'curl/8.5.0'), // the header gives the bot away
      ];
      expect(sent.map((s) => s.status)).toEqual([204, 204, 204, 204, 204, 204]);
      for (const bad of [
        {},
        { path: 'no-slash' },
        { path: '/' + 'x'.repeat(600) },
        { path: 7 },
        { path: '/', userAgent: 'x'.repeat(600) },
      ]) {
        const res = await pageview(bad, runAgent);
        expect(res.status, JSON.stringify(bad).slice(0, 40)).toBe(400);
        expect(res.body.code).toBe('VALIDATION');
      }
      await expect
        .poll(async () => {
          const [r, d] = [await report(), await dashboard()];
          return {
            today: r.pageViewAnalytics.today.pageViews - r0.pageViewAnalytics.today.pageViews,
            visitors: r.pageViewAnalytics.today.uniqueVisitors - r0.pageViewAnalytics.today.uniqueVisitors,
            weekly: r.pageViewAnalytics.weekly.pageViews - r0.pageViewAnalytics.weekly.pageViews,
            monthly: r.pageViewAnalytics.monthly.pageViews - r0.pageViewAnalytics.monthly.pageViews,
            dashboard: d.pageViewsToday - d0.pageViewsToday,
            chart: r.daily.at(-1)!.pageViews - r0.daily.at(-1)!.pageViews,
          };
        }, POLL)
        .toEqual({ today: 3, visitors: 2, weekly: 3, monthly: 3, dashboard: 3, chart: 3 });
    });

    it('the dashboard and the report answer every figure of the spec, system figures from the real metrics', async () => {
      const t = target();
      // a wrong sign-in code for a code that was mailed: a failed login for the security figures (billing counts them)
      await http(t.url, AUTH_API.requestCode, { body: { email: t.user.email } });
      const wrong = await http(t.url, AUTH_API.login, { body: { email: t.user.email, code: '000000' } });
      expect(wrong.status).toBeGreaterThanOrEqual(400);
      const d = await dashboard();
      expect(Object.keys(d).sort()).toEqual([
        'activeRooms',
        'activeUsers',
        'conversionRate',
        'errorRate',
        'pageViewsToday',
        'todayRevenue',
        'uptime',
      ]);
      expect(d.uptime).toBeGreaterThan(0);
      expect(d.uptime).toBeLessThanOrEqual(100);
      expect(d.errorRate).toBeGreaterThanOrEqual(0);
      expect(d.errorRate).toBeLessThan(100);
      expect(Number.isInteger(d.conversionRate * 10)).toBe(true); // one decimal
      const r = await report();
      expect(Object.keys(r.revenue).sort()).toEqual([
        'averageLifetimeValue',
        'extensionPaymentCount',
        'extensionRevenue',
        'extensionRevenueBreakdown',
        'failedPayments',
        'monthlyGrowthRate',
        'monthlyRevenue',
        'refunds',
        'revenueByPlan',
        'subscriptionRevenue',
        'yearlyRevenue',
      ]);
      expect(r.revenue.refunds).toBe(0);
      expect(Object.keys(r.timeBasedRevenue).sort()).toEqual(['allTime', 'monthly', 'today', 'weekly']);
      expect(r.system.performance.averageResponseTime).toBeGreaterThan(0);
      expect(r.system.performance.databaseQueryTime).toBeGreaterThan(0);
      expect(r.system.security.failedLoginAttempts).toBeGreaterThanOrEqual(1);
      expect(Array.isArray(r.system.security.blockedIPs)).toBe(true);
    });

    it('custom revenue: a daily breakdown of the period; bad periods are refused with 400', async () => {
      const good = await custom('2025-01-01', '2025-01-31');
      expect(good.status).toBe(200);
      expect(good.body.period).toEqual({ startDate: '2025-01-01', endDate: '2025-01-31', days: 31 });
      expect(good.body.dailyBreakdown).toHaveLength(31);
      expect(good.body.dailyBreakdown[0]).toEqual({
        date: '2025-01-01',
        total: 0,
        subscription: 0,
        extension: 0,
        paymentCount: 0,
      });
      expect(good.body.summary).toEqual({ total: 0, subscription: 0, extension: 0, averagePerDay: 0, paymentCount: 0 });
      const t = target();
      const bad = [
        ADMIN_API.customRevenue('2025-1-1', '2025-01-31'),
        ADMIN_API.customRevenue('2025-02-01', '2025-01-01'),
        ADMIN_API.customRevenue('2025-02-30', '2025-03-01'),
        ADMIN_API.customRevenue('2023-01-01', '2025-01-01'),
        '/api/admin/analytics/revenue/custom',
        '/api/admin/analytics/revenue/custom?startDate=2025-01-01',
        '/api/admin/analytics/revenue/custom?startDate=2025-01-01&startDate=2025-01-02&endDate=2025-01-03',
      ];
      for (const path of bad) {
        const res = await http(t.url, path, { headers: admin() });
        expect(res.status, path).toBe(400);
        expect(res.body.code, path).toBe('VALIDATION');
      }
    });

    it('reset revenue answers the deleted count, leaves revenue at 0 and is audited; the analytics export downloads', async () => {
      const t = target();
      const reset = await http(t.url, ADMIN_API.resetRevenue, { method: 'POST', headers: admin() });
      expect(reset.status).toBe(200);
      expect(reset.body).toEqual({ success: true, deletedRecords: expect.any(Number) });
      const r = await report();
      expect(r.timeBasedRevenue.allTime).toEqual({ total: 0, paymentCount: 0 });
      expect(r.revenue.failedPayments).toBe(0);

      const res = await fetch(t.url + ADMIN_API.export('analytics'), { headers: admin() });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('content-disposition')).toMatch(
        /^attachment; filename="analytics-export-\d{4}-\d{2}-\d{2}\.json"$/,
      );
      const exported = (await res.json()) as AnalyticsReport;
      expect(exported.pageViewAnalytics.monthly.pageViews).toBeGreaterThanOrEqual(3);
      const unknown = await http(t.url, '/api/admin/export/everything', { headers: admin() });
      expect(unknown.status).toBe(400);

      await expect
        .poll(
          async () =>
            (await auditActions())
              .filter((e) => e.action === 'revenue.reset' || e.action === 'export.downloaded')
              .map((e) => `${e.action} by ${e.admin}`)
              .sort(),
          POLL,
        )
        .toEqual([`export.downloaded by ${t.superadminEmail}`, `revenue.reset by ${t.superadminEmail}`]);
    });

    it('page views are rate-limited per address (429 with Retry-After); the address shows as blocked', async () => {
      let refused: Awaited<ReturnType<typeof pageview>> | null = null;
      for (let i = 0; i < 2_000 && !refused; i++) {
        // bots: counted against the limit, never as views
        const res = await pageview({ path: '/flood', userAgent: BOT }, BOT);
        if (res.status === 429) refused = res;
        else expect(res.status).toBe(204);
      }
      expect(refused?.body.code).toBe('RATE_LIMITED');
      expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
      const r = await report();
      expect(r.system.security.blockedIPs.length).toBeGreaterThanOrEqual(1);
    });
  });
}
