/**
 * The analytics read models are projections: a scripted sequence of domain events (rooms, members,
 * messages, files, sign-ups, subscription payments and renewals, a failed payment, extensions, a refund, page views, a
 * revenue reset) applied through the service's real projector (applyOnce + projectAdmin, as the subscription does)
 * into a real PostgreSQL gives exactly the expected figures; emptying the read models and replaying the same events
 * (in log order, and with the topics interleaved differently, as Kafka may deliver them) gives identical tables.
 */
import { describe, expect, it } from 'vitest';
import {
  TOPIC_OF,
  TOPICS,
  parsePayload,
  type Actor,
  type AnyEventEnvelope,
  type DomainEventPayload,
  type DomainEventType,
} from '@ephemera/proto';
import { makeEvent, systemActor, userActor } from '@ephemera/platform';
import { revenueFigures } from '../src/analytics/revenue-repository.ts';
import { customRevenue } from '../src/analytics/revenue.ts';
import { dailySeries, featureUsage, trafficFigures, usageFigures } from '../src/analytics/figures-repository.ts';
import { useAdminTestDatabase } from './admin-test-database.ts';

const TODAY = '2025-03-10';
/** a time `days` days before TODAY at hh:mm UTC */
const at = (days: number, hhmm: string) =>
  new Date(Date.parse(`${TODAY}T${hhmm}:00Z`) - days * 86_400_000).toISOString();
const ANALYTICS_TABLES = [
  'daily_counts',
  'payments',
  'subscriptions',
  'revenue_resets',
  'daily_visitors',
  'daily_active',
];

let seq = 0;
function ev<T extends DomainEventType>(
  type: T,
  payload: DomainEventPayload<T>,
  time: string,
  actor: Actor = systemActor,
): AnyEventEnvelope {
  return {
    ...makeEvent(type, `agg-${type}`, ++seq, parsePayload(type, payload), actor),
    occurredAt: time,
  } as AnyEventEnvelope;
}
const created = (ws: string, tier: 'free' | 'pro', by: string, time: string) => [
  ev(
    'workspace.created',
    {
      workspaceId: ws,
      name: ws,
      nameKey: ws,
      tier,
      createdAt: time,
      expiresAt: null,
      passwordHash: null,
      createdBy: by,
    },
    time,
    userActor(by),
  ),
  ev(
    'member.joined',
    { workspaceId: ws, userId: by, username: by, isAdmin: true, tokenHash: 'h', joinedAt: time },
    time,
    userActor(by),
  ),
];
const joined = (ws: string, user: string, time: string) =>
  ev(
    'member.joined',
    { workspaceId: ws, userId: user, username: user, isAdmin: false, tokenHash: 'h', joinedAt: time },
    time,
    userActor(user),
  );
let m = 0;
const sent = (ws: string, author: string, time: string, type: 'text' | 'image' | 'system' = 'text') =>
  ev(
    'message.sent',
    {
      message: {
        id: `m${++m}`,
        clientMessageId: `c${m}`,
        workspaceId: ws,
        channelId: 'general',
        seq: m,
        authorId: author,
        authorName: author,
        profilePicture: null,
        timestamp: time,
        type,
        content: 'hello',
        isEdited: false,
        replyTo: null,
        reactions: {},
        linkPreview: null,
        editedAt: null,
        file: null,
      },
      audience: { kind: 'workspace' },
    },
    time,
    type === 'system' ? systemActor : userActor(author),
  );
const uploaded = (ws: string, by: string, time: string, purpose: 'message' | 'avatar') =>
  ev(
    'file.uploaded',
    {
      workspaceId: ws,
      fileId: `f${++m}`,
      channelId: purpose === 'avatar' ? null : 'general',
      uploaderId: by,
      purpose,
      kind: 'image',
      name: 'a.png',
      mime: 'image/png',
      size: 10,
      caption: null,
      durationMs: null,
      width: 1,
      height: 1,
      storageKey: 'k',
      thumbnailKey: null,
      thumbnailSize: null,
      fileKey: 'fk',
      uploadedAt: time,
      expiresAt: null,
    },
    time,
    userActor(by),
  );
const registered = (id: string, time: string) =>
  ev(
    'account.registered',
    {
      accountId: id,
      email: `${id}@example.test`,
      username: id,
      tier: 'free',
      googleId: null,
      picture: null,
      registeredAt: time,
    },
    time,
  );
const ref = { provider: 'stripe' as const, providerEventId: null };
const activated = (
  id: string,
  tier: 'pro' | 'business',
  sub: string,
  periodEnd: string,
  time: string,
  cancelAtPeriodEnd = false,
) =>
  ev(
    'account.subscription-activated',
    {
      accountId: id,
      tier,
      subscriptionId: sub,
      customerId: null,
      currentPeriodEnd: periodEnd,
      cancelAtPeriodEnd,
      ...ref,
    },
    time,
  );
const extension = (id: string, days: number, amountCents: number | null, time: string) =>
  ev('account.extension-paid', { accountId: id, roomId: 'ws1', days, orderId: `o${++m}`, amountCents, ...ref }, time);
const connected = (ws: string, by: string, time: string, callType: 'audio' | 'video') =>
  ev(
    'call.connected',
    { workspaceId: ws, channelId: 'dm', callId: `call${++m}`, callType, connectedAt: time },
    time,
    userActor(by),
  );
const viewed = (path: string, visitor: string, time: string) =>
  ev('analytics.page-viewed', { path, visitor, at: time }, time);
const refunded = (id: string, chargeId: string, amountCents: number, totalRefundedCents: number, time: string) =>
  ev(
    'account.payment-refunded',
    {
      accountId: id,
      chargeId,
      amountCents,
      totalRefundedCents,
      chargeAmountCents: 1900,
      currency: 'usd',
      refundedAt: time,
      ...ref,
    },
    time,
  );

/** the log: everything up to the reset (figures checked there), then the reset and what came after */
const beforeReset: AnyEventEnvelope[] = [
  // rooms: ws1 today (u1 creates, u2 joins), ws2 yesterday (u3), ws3 35 days ago (u4)
  ...created('ws1', 'free', 'u1', at(0, '09:00')),
  joined('ws1', 'u2', at(0, '09:05')),
  sent('ws1', 'u1', at(0, '09:10')),
  sent('ws1', 'u1', at(0, '09:20')),
  uploaded('ws1', 'u2', at(0, '09:30'), 'message'),
  uploaded('ws1', 'u2', at(0, '09:31'), 'avatar'),
  sent('ws1', 'u2', at(0, '10:00'), 'image'),
  sent('ws1', 'u1', at(0, '11:00')),
  // calls answered by u2 inside its session (one video, one voice: only video counts as a video call), before its
  // messaging events: the interleaving check below delivers the room topic first
  connected('ws1', 'u2', at(0, '09:10'), 'video'),
  connected('ws1', 'u2', at(0, '09:12'), 'audio'),
  sent('ws1', 'system', at(0, '11:01'), 'system'),
  ...created('ws2', 'pro', 'u3', at(1, '15:00')),
  sent('ws2', 'u3', at(1, '15:05')),
  ...created('ws3', 'free', 'u4', at(35, '08:00')),
  sent('ws3', 'u4', at(35, '08:01')),
  // accounts and payments
  registered('acc1', at(40, '08:00')),
  registered('acc2', at(2, '08:00')),
  registered('acc3', at(0, '08:00')),
  activated('acc1', 'pro', 'sub1', at(5, '00:00'), at(35, '10:00')), // pays pro: 9.00, 35 days ago
  activated('acc1', 'pro', 'sub1', at(5, '00:00'), at(34, '10:00'), true), // only cancel-at-period-end changed: no payment
  activated('acc1', 'pro', 'sub1', at(-25, '00:00'), at(5, '00:01')), // renewal, a later period: 9.00
  activated('acc2', 'business', 'sub2', at(-30, '00:00'), at(0, '08:30')), // 19.00 today
  ev(
    'account.subscription-past-due',
    { accountId: 'acc2', tier: 'business', subscriptionId: 'sub2', currentPeriodEnd: at(-30, '00:00'), ...ref },
    at(0, '08:40'),
  ),
  activated('acc2', 'business', 'sub2', at(-30, '00:00'), at(0, '08:50')), // paid after the failure: 19.00
  extension('acc3', 7, null, at(0, '09:00')), // 7 days at the list price: 2.99
  extension('acc3', 30, 899, at(1, '09:00')),
  extension('acc3', 14, 499, at(0, '09:30')),
  // page views: A twice and B today, A' yesterday (another day's salt: another id), C ten days ago
  viewed('/', 'A', at(0, '07:00')),
  viewed('/', 'A', at(0, '07:05')),
  viewed('/workspace/ws1', 'B', at(0, '07:10')),
  viewed('/features', 'A2', at(1, '07:00')),
  viewed('/about', 'C', at(10, '07:00')),
];
/** 7.00 of acc2's 19.00 payment refunded today, then the same refund recorded a second time (a billing retry) */
const refunds: AnyEventEnvelope[] = [
  refunded('acc2', 'ch_acc2', 700, 700, at(0, '10:30')),
  refunded('acc2', 'ch_acc2', 700, 700, at(0, '10:31')),
];
const afterReset: AnyEventEnvelope[] = [
  ev('admin.revenue-reset', { before: at(0, '00:00'), deletedRecords: 3 }, at(0, '12:00')),
  extension('acc3', 7, 299, at(1, '23:00')), // delivered after the reset but paid before it: never counted
  activated('acc1', 'business', 'sub1', at(-25, '00:00'), at(0, '12:30')), // an upgrade after the reset: 19.00
];

const db = useAdminTestDatabase();
const { apply } = db;
const tableHashes = async () =>
  Object.fromEntries(
    await Promise.all(
      ANALYTICS_TABLES.map(async (t) => [
        t,
        (
          await db.pool.query(
            `SELECT count(*) AS n, md5(coalesce(string_agg(r::text, '|' ORDER BY r::text), '')) AS h FROM admin.${t} r`,
          )
        ).rows[0],
      ]),
    ),
  );
const emptyReadModels = async () => {
  const { rows } = await db.pool.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'admin'`);
  await db.pool.query(`TRUNCATE ${rows.map((r) => `admin.${r.tablename}`).join(', ')}`);
};

describe('analytics projection', () => {
  it('a scripted sequence of events gives exactly the expected figures', async () => {
    const { pool } = db;
    await apply(beforeReset);
    const { revenue, timeBasedRevenue } = await revenueFigures(pool, TODAY);
    expect(revenue).toEqual({
      monthlyRevenue: 63.97,
      yearlyRevenue: 72.97,
      monthlyGrowthRate: 610.8,
      revenueByPlan: { pro: 18, business: 38 },
      averageLifetimeValue: 24.32,
      subscriptionRevenue: 56,
      extensionRevenue: 16.97,
      extensionPaymentCount: 3,
      extensionRevenueBreakdown: { sevenDay: 2.99, thirtyDay: 8.99 },
      failedPayments: 1,
      refunds: 0,
    });
    expect(timeBasedRevenue).toEqual({
      today: { total: 45.98, subscription: 38, extension: 7.98 },
      weekly: { total: 63.97, subscription: 47, extension: 16.97 },
      monthly: { total: 63.97, subscription: 47, extension: 16.97 },
      allTime: { total: 72.97, paymentCount: 7 },
    });
    expect(await trafficFigures(pool, TODAY)).toEqual({
      today: { pageViews: 3, uniqueVisitors: 2 },
      weekly: { pageViews: 4, uniqueVisitors: 3 },
      monthly: { pageViews: 5 },
    });
    // u1: 09:00-09:20 and 11:00 (two sessions, 20 min); u2: 09:05-10:00 (55 min); u3: 15:00-15:05 yesterday; u4 is 35 days old
    expect(await usageFigures(pool, TODAY)).toEqual({
      dailyActiveUsers: 2,
      weeklyActiveUsers: 3,
      monthlyActiveUsers: 3,
      averageSessionDuration: 20,
    });
    expect(await featureUsage(pool)).toEqual({
      roomsCreated: 3,
      filesUploaded: 1,
      videoCalls: 1,
      messagesExchanged: 6,
    });
    const daily = await dailySeries(pool, TODAY);
    expect(daily).toHaveLength(30);
    expect(daily.at(-1)).toEqual({
      date: TODAY,
      revenue: 45.98,
      pageViews: 3,
      messages: 4,
      activeUsers: 2,
      roomsCreated: 1,
    });
    expect(daily.at(-2)).toEqual({
      date: '2025-03-09',
      revenue: 8.99,
      pageViews: 1,
      messages: 1,
      activeUsers: 1,
      roomsCreated: 1,
    });
    const week = await customRevenue(pool, { startDate: '2025-03-04', endDate: TODAY });
    expect(week.period).toEqual({ startDate: '2025-03-04', endDate: TODAY, days: 7 });
    expect(week.summary).toEqual({
      total: 63.97,
      subscription: 47,
      extension: 16.97,
      averagePerDay: 9.14,
      paymentCount: 6,
    });
    expect(week.dailyBreakdown.map((d) => d.total)).toEqual([0, 9, 0, 0, 0, 8.99, 45.98]);
    const counts = (
      await pool.query(
        `SELECT metric, dimension, sum(value)::int AS n FROM admin.daily_counts GROUP BY 1, 2 ORDER BY 1, 2`,
      )
    ).rows;
    expect(counts).toEqual([
      { metric: 'accounts.registered', dimension: 'free', n: 3 },
      { metric: 'calls.connected', dimension: 'audio', n: 1 },
      { metric: 'calls.connected', dimension: 'video', n: 1 },
      { metric: 'files.uploaded', dimension: 'image', n: 1 },
      { metric: 'messages.sent', dimension: 'image', n: 1 },
      { metric: 'messages.sent', dimension: 'text', n: 5 },
      { metric: 'pages.viewed', dimension: '/', n: 2 },
      { metric: 'pages.viewed', dimension: '/about', n: 1 },
      { metric: 'pages.viewed', dimension: '/features', n: 1 },
      { metric: 'pages.viewed', dimension: '/workspace', n: 1 },
      { metric: 'rooms.created', dimension: 'free', n: 2 },
      { metric: 'rooms.created', dimension: 'pro', n: 1 },
    ]);
  });

  it('a refund counts once in refunds and leaves revenue gross (not subtracted, not a payment); the same refund twice is one', async () => {
    const { pool } = db;
    const before = await revenueFigures(pool, TODAY);
    const chartBefore = await dailySeries(pool, TODAY);
    const weekBefore = await customRevenue(pool, { startDate: '2025-03-04', endDate: TODAY });
    await apply(refunds);
    const after = await revenueFigures(pool, TODAY);
    expect(after.revenue).toEqual({ ...before.revenue, refunds: 1 });
    expect(after.timeBasedRevenue).toEqual(before.timeBasedRevenue); // today still 45.98, all time 72.97 in 7 payments
    expect(await dailySeries(pool, TODAY)).toEqual(chartBefore);
    expect(await customRevenue(pool, { startDate: '2025-03-04', endDate: TODAY })).toEqual(weekBefore);
    expect(
      (await pool.query(`SELECT kind, amount_cents, account_id FROM admin.payments WHERE kind = 'refund'`)).rows,
    ).toEqual([{ kind: 'refund', amount_cents: 700, account_id: 'acc2' }]);
  });

  it('a revenue reset removes the payments before it, also those delivered after it', async () => {
    const { pool } = db;
    await apply(afterReset);
    const { revenue, timeBasedRevenue } = await revenueFigures(pool, TODAY);
    expect(timeBasedRevenue.allTime).toEqual({ total: 64.98, paymentCount: 5 }); // today's 45.98 and the upgrade's 19.00
    expect(revenue.revenueByPlan).toEqual({ pro: 0, business: 57 });
    expect(revenue.failedPayments).toBe(1); // today's, after the reset's time
    expect(revenue.refunds).toBe(1); // today's too
    expect(revenue.extensionRevenueBreakdown).toEqual({ sevenDay: 2.99, thirtyDay: 0 });
    expect(timeBasedRevenue.today.total).toBe(64.98);
  });

  it('replaying the same events into emptied read models rebuilds identical tables, in any interleaving of topics', async () => {
    const log = [...beforeReset, ...refunds, ...afterReset];
    const live = await tableHashes();
    expect(Number(live.payments.n)).toBe(7);

    await emptyReadModels();
    await apply(log);
    expect(await tableHashes()).toEqual(live);

    // Kafka keeps order per key, not across topics: deliver the admin topic first, then billing, then the rooms'.
    await emptyReadModels();
    const topicOrder: string[] = [TOPICS.admin, TOPICS.pageviews, TOPICS.billing, TOPICS.room, TOPICS.messaging];
    await apply([...log].sort((a, b) => topicOrder.indexOf(TOPIC_OF[a.type]) - topicOrder.indexOf(TOPIC_OF[b.type])));
    expect(await tableHashes()).toEqual(live);

    // Each event counts once, however often it is delivered.
    await apply(log);
    expect(await tableHashes()).toEqual(live);
  });
});
