/**
 * Events -> the analytics read models (migrations/1734100000000_analytics.sql), inside applyOnce's transaction.
 * Each event costs one statement (a counted user action: two, sent together as one statement), an upsert into a
 * daily aggregate, so the projection keeps up with the message rate. Days are UTC days of the event's own time (the
 * payload's where it has one, else the envelope's), so a replay files every event under the same day.
 */
import { createHash } from 'node:crypto';
import {
  EXTENSION_PRICES,
  PLAN_PRICES,
  TOPIC_OF,
  TOPICS,
  type AnyEventEnvelope,
  type EventEnvelope,
  type Tier,
} from '@ephemera/proto';
import type { PoolClient } from '@ephemera/platform';
import { dayOf } from './days.ts';
import { routeGroup } from './route-groups.ts';

/** `with`: named parts (CTEs) the statement reads, placed before it; they share its parameters and the names are unique */
interface Statement {
  sql: string;
  params: unknown[];
  with?: string[];
}

/** a gap longer than this between two actions of a user starts a new session */
export const SESSION_GAP_MS = 30 * 60_000;

export async function projectAnalytics(client: PoolClient, event: AnyEventEnvelope): Promise<void> {
  const statements: Statement[] = [];
  const active = activity(event);
  if (active) statements.push(active);
  statements.push(...(await effects(client, event)));
  await run(client, statements);
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

/**
 * A user's action in a room (an event of the room or messaging topic whose actor is a member): the member is
 * active that day. Sessions: an action more than SESSION_GAP_MS after the previous one starts a new session; the
 * time between actions inside a session adds to active_ms. An action older than the last one seen changes nothing
 * but the presence (deliveries of one member's events are in order: one room, one partition).
 */
function activity(event: AnyEventEnvelope): Statement | null {
  const topic = TOPIC_OF[event.type];
  if ((topic !== TOPICS.room && topic !== TOPICS.messaging) || event.actor.kind !== 'user' || !event.actor.userId)
    return null;
  const at = timeOf(event);
  // One statement: the member's day (daily_active), and the totals kept beside it (migrations/…_activity_totals.sql):
  // the day's totals move by what this upsert changed (activity_before is the row as it was: every part of the statement
  // sees the same snapshot), and the member's last active day moves forward.
  return {
    with: [
      'activity_before AS (SELECT sessions, active_ms FROM admin.daily_active WHERE day = $1 AND actor = $2)',
      `activity_day AS (
        INSERT INTO admin.daily_active AS a (day, actor, last_at) VALUES ($1, $2, $3)
        ON CONFLICT (day, actor) DO UPDATE SET
          sessions = a.sessions + (EXCLUDED.last_at - a.last_at > $4::interval)::int,
          active_ms = a.active_ms + CASE WHEN EXCLUDED.last_at > a.last_at AND EXCLUDED.last_at - a.last_at <= $4::interval
            THEN (extract(epoch FROM EXCLUDED.last_at - a.last_at) * 1000)::bigint ELSE 0 END,
          last_at = GREATEST(a.last_at, EXCLUDED.last_at)
        RETURNING sessions, active_ms)`,
      `activity_last_day AS (
        INSERT INTO admin.actor_last_active AS l (actor, last_day) VALUES ($2, $1)
        ON CONFLICT (actor) DO UPDATE SET last_day = EXCLUDED.last_day WHERE l.last_day < EXCLUDED.last_day)`,
    ],
    sql: `INSERT INTO admin.daily_activity AS d (day, actors, sessions, active_ms)
            SELECT $1, (b.sessions IS NULL)::int, r.sessions - coalesce(b.sessions, 0), r.active_ms - coalesce(b.active_ms, 0)
            FROM activity_day r LEFT JOIN activity_before b ON true
          ON CONFLICT (day) DO UPDATE SET actors = d.actors + EXCLUDED.actors, sessions = d.sessions + EXCLUDED.sessions,
            active_ms = d.active_ms + EXCLUDED.active_ms`,
    params: [dayOf(at), event.actor.userId, at, `${SESSION_GAP_MS / 1000} seconds`],
  };
}

/** The event's own time: the payload's where it carries one, else the envelope's. */
function timeOf(event: AnyEventEnvelope): string {
  switch (event.type) {
    case 'workspace.created':
      return event.payload.createdAt;
    case 'member.joined':
      return event.payload.joinedAt;
    case 'message.sent':
      return event.payload.message.timestamp;
    case 'file.uploaded':
      return event.payload.uploadedAt;
    case 'member.left':
      return event.payload.leftAt;
    case 'member.kicked':
      return event.payload.kickedAt;
    default:
      return event.occurredAt;
  }
}

interface PaymentRow {
  kind: 'subscription' | 'extension' | 'failed' | 'refund';
  plan: string | null;
  days: number | null;
  cents: number;
  accountId: string;
}

/**
 * A payment at the event's time, unless a revenue reset already covers that time (replays may bring it late).
 * rowId: the row's key when the event's own id is not the fact's identity (a refund's, below).
 */
function payment(event: AnyEventEnvelope, row: PaymentRow, rowId: string = event.id): Statement {
  return {
    sql: `INSERT INTO admin.payments (event_id, paid_at, day, kind, plan, extension_days, amount_cents, account_id)
          SELECT $1::uuid, $2::timestamptz, $3::date, $4, $5, $6::int, $7::int, $8
          WHERE NOT EXISTS (SELECT 1 FROM admin.revenue_resets WHERE before > $2::timestamptz)
          ON CONFLICT (event_id) DO NOTHING`,
    params: [rowId, event.occurredAt, dayOf(event.occurredAt), row.kind, row.plan, row.days, row.cents, row.accountId],
  };
}

/**
 * A refund's row key, a uuid made from what identifies the refund in billing (the charge and its refunded total
 * after it), not from the event: should billing ever record one refund twice (a retry after a crash between the
 * append and its own projection), it is still one row, so one refund in the report.
 */
function refundRowId(chargeId: string, totalRefundedCents: number): string {
  const h = createHash('sha1').update(`refund:${chargeId}:${totalRefundedCents}`).digest('hex');
  // laid out as a name-based (version 5) uuid, so it can never equal an event's random (version 4) id
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function subscriptionState(
  accountId: string,
  subscriptionId: string | null,
  tier: Tier,
  status: string,
  periodEnd: string | null,
): Statement {
  return {
    sql: `INSERT INTO admin.subscriptions (account_id, subscription_id, tier, payment_status, period_end) VALUES ($1, $2, $3, $4, $5)
          ON CONFLICT (account_id) DO UPDATE SET subscription_id = COALESCE(EXCLUDED.subscription_id, admin.subscriptions.subscription_id),
            tier = EXCLUDED.tier, payment_status = EXCLUDED.payment_status,
            period_end = COALESCE(EXCLUDED.period_end, admin.subscriptions.period_end)`,
    params: [accountId, subscriptionId, tier, status, periodEnd],
  };
}

/**
 * An activation is a payment when it starts or renews a paid period: a new subscription, another tier, a payment
 * after a failed or cancelled one, or a later period end (billing's isNewPayment, from the same events). The
 * amount is the plan's price (proto PLAN_PRICES): the event carries no amount.
 */
async function subscriptionActivated(
  client: PoolClient,
  event: EventEnvelope<'account.subscription-activated'>,
): Promise<Statement[]> {
  const p = event.payload;
  const { rows } = await client.query<{
    subscription_id: string | null;
    tier: string;
    payment_status: string;
    period_end: Date | null;
  }>('SELECT subscription_id, tier, payment_status, period_end FROM admin.subscriptions WHERE account_id = $1', [
    p.accountId,
  ]);
  const previous = rows[0];
  const before = previous?.period_end?.getTime() ?? null;
  const after = p.currentPeriodEnd ? Date.parse(p.currentPeriodEnd) : null;
  const isNew =
    !previous ||
    previous.subscription_id !== p.subscriptionId ||
    previous.tier !== p.tier ||
    previous.payment_status !== 'active' ||
    (after !== null && (before === null || after > before));
  const out: Statement[] = [];
  if (isNew && p.tier !== 'free') {
    out.push(
      payment(event, {
        kind: 'subscription',
        plan: p.tier,
        days: null,
        cents: PLAN_PRICES[p.tier].amountCents,
        accountId: p.accountId,
      }),
    );
  }
  out.push(subscriptionState(p.accountId, p.subscriptionId, p.tier, 'active', p.currentPeriodEnd));
  return out;
}

/** One round trip: several statements become one, as data-modifying WITH parts (each touches its own table). */
async function run(client: PoolClient, statements: Statement[]): Promise<void> {
  if (statements.length === 0) return;
  if (statements.length === 1) {
    const [only] = statements;
    await client.query(prepared(only.with ? `WITH ${only.with.join(', ')} ${only.sql}` : only.sql, only.params));
    return;
  }
  const params: unknown[] = [];
  const parts = statements.flatMap((s, i) => {
    const offset = params.length;
    params.push(...s.params);
    const renumber = (sql: string) => sql.replace(/\$(\d+)/g, (_m, n: string) => `$${Number(n) + offset}`);
    return [...(s.with ?? []).map(renumber), `s${i} AS (${renumber(s.sql)})`];
  });
  await client.query(prepared(`WITH ${parts.join(', ')} SELECT 1`, params));
}

/**
 * A named (prepared) statement: each connection parses and plans it once instead of for every event. The texts are
 * a small fixed set (one per kind of event), so the names are few.
 */
const names = new Map<string, string>();
function prepared(text: string, values: unknown[]): { name: string; text: string; values: unknown[] } {
  let name = names.get(text);
  if (!name) {
    name = `admin-analytics-${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
    names.set(text, name);
  }
  return { name, text, values };
}
