/**
 * Events -> the analytics read models (migrations/1734100000000_analytics.sql), inside applyOnce's transaction.
 * Each event costs one statement (a counted user action: two, sent together as one statement), an upsert into a
 * daily aggregate, so the projection keeps up with the message rate. Days are UTC days of the event's own time (the
 * payload's where it has one, else the envelope's), so a replay files every event under the same day.
 * The statements' SQL beyond a counter: the activity figures in activity-statement.ts, payments and subscriptions in
 * payment-statements.ts; statements.ts sends an event's statements as one round trip.
 */
import { EXTENSION_PRICES, type AnyEventEnvelope, type EventEnvelope } from '@ephemera/proto';
import type { PoolClient } from '@ephemera/platform';
import { dayOf } from './days.ts';
import { routeGroup } from './route-groups.ts';
import { activity } from './activity-statement.ts';
import { payment, refundRowId, subscriptionActivated, subscriptionState } from './payment-statements.ts';
import { runStatements, type Statement } from './statements.ts';

export async function projectAnalytics(client: PoolClient, event: AnyEventEnvelope): Promise<void> {
  const statements: Statement[] = [];
  const active = activity(event);
  if (active) statements.push(active);
  statements.push(...(await effects(client, event)));
  await runStatements(client, statements);
}

/** The statements an event calls for (the subscription events read the account's last state first). */
async function effects(client: PoolClient, event: AnyEventEnvelope): Promise<Statement[]> {
  switch (event.type) {
    case 'workspace.created':
      return [count('rooms.created', event.payload.createdAt, event.payload.tier)];
    case 'message.sent': {
      const m = event.payload.message;
      return m.type === 'system' ? [] : [count('messages.sent', m.timestamp, m.type)];
    }
    case 'file.uploaded':
      return event.payload.purpose === 'avatar'
        ? []
        : [count('files.uploaded', event.payload.uploadedAt, event.payload.kind)];
    case 'account.registered':
      return [count('accounts.registered', event.payload.registeredAt, event.payload.tier)];
    case 'call.connected':
      return [count('calls.connected', event.payload.connectedAt, event.payload.callType)];
    case 'analytics.page-viewed':
      return pageViewed(event);
    case 'account.subscription-activated':
      return subscriptionActivated(client, event);
    case 'account.subscription-past-due': {
      const p = event.payload;
      return [
        payment(event, { kind: 'failed', plan: p.tier, days: null, cents: 0, accountId: p.accountId }),
        subscriptionState(p.accountId, p.subscriptionId, p.tier, 'past_due', p.currentPeriodEnd),
      ];
    }
    case 'account.subscription-cancelled': {
      const p = event.payload;
      return [subscriptionState(p.accountId, p.subscriptionId, p.tier, 'cancelled', p.accessUntil)];
    }
    case 'account.subscription-expired': {
      const p = event.payload;
      return [subscriptionState(p.accountId, p.subscriptionId, 'free', 'cancelled', null)];
    }
    case 'account.extension-paid': {
      const p = event.payload;
      const cents = p.amountCents ?? EXTENSION_PRICES[p.days] ?? 0;
      return [payment(event, { kind: 'extension', plan: null, days: p.days, cents, accountId: p.accountId })];
    }
    case 'account.payment-refunded': {
      // Gross revenue: the refund is a row of its own (kind 'refund', the refunded cents), never subtracted from the
      // payment it refunds; the report counts these rows (revenue.refunds).
      const p = event.payload;
      return [
        payment(
          event,
          { kind: 'refund', plan: null, days: null, cents: p.amountCents, accountId: p.accountId },
          refundRowId(p.chargeId, p.totalRefundedCents),
        ),
      ];
    }
    case 'account.deleted':
      return [{ sql: 'DELETE FROM admin.subscriptions WHERE account_id = $1', params: [event.payload.accountId] }];
    case 'admin.revenue-reset': {
      const p = event.payload;
      return [
        {
          sql: 'INSERT INTO admin.revenue_resets (event_id, before, deleted_records) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
          params: [event.id, p.before, p.deletedRecords],
        },
        { sql: 'DELETE FROM admin.payments WHERE paid_at < $1', params: [p.before] },
      ];
    }
    default:
      return [];
  }
}

/** One counter of the day up by one. */
function count(metric: string, at: string, dimension: string): Statement {
  return {
    sql: `INSERT INTO admin.daily_counts AS c (metric, day, dimension, value) VALUES ($1, $2, $3, 1)
          ON CONFLICT (metric, day, dimension) DO UPDATE SET value = c.value + 1`,
    params: [metric, dayOf(at), dimension],
  };
}

function pageViewed(event: EventEnvelope<'analytics.page-viewed'>): Statement[] {
  const p = event.payload;
  return [
    count('pages.viewed', p.at, routeGroup(p.path)),
    {
      sql: `INSERT INTO admin.daily_visitors AS v (day, visitor) VALUES ($1, $2)
            ON CONFLICT (day, visitor) DO UPDATE SET views = v.views + 1`,
      params: [dayOf(p.at), p.visitor],
    },
  ];
}
