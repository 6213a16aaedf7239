/**
 * The activity totals the projector keeps beside admin.daily_active (migrations/1734400000000_activity_totals.sql):
 * after random members' actions over several days, in any order within a day and repeated, daily_activity and
 * actor_last_active equal what grouping daily_active gives, and the report's active-user figures equal the grouping
 * queries they replaced.
 */
import { describe, it, expect } from 'vitest';
import { randomUUID } from 'node:crypto';
import { makeEvent, userActor } from '@ephemera/platform';
import type { AnyEventEnvelope } from '@ephemera/proto';
import { usageFigures } from '../src/analytics/figures-repository.ts';
import { useAdminTestDatabase } from './admin-test-database.ts';

const db = useAdminTestDatabase();
const TODAY = '2025-03-20';
const day = (back: number) => new Date(Date.parse(`${TODAY}T00:00:00.000Z`) - back * 86_400_000);

let seq = 0;
function sent(workspaceId: string, authorId: string, at: Date): AnyEventEnvelope {
  return makeEvent(
    'message.sent',
    workspaceId,
    ++seq,
    {
      message: {
        id: randomUUID(),
        clientMessageId: randomUUID(),
        workspaceId,
        channelId: 'general',
        seq,
        authorId,
        authorName: authorId,
        profilePicture: null,
        timestamp: at.toISOString(),
        type: 'text',
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
    userActor(authorId),
  ) as AnyEventEnvelope;
}

describe('activity totals', () => {
  it('equal the grouping of daily_active, whatever the order of the actions', async () => {
    const room = randomUUID();
    const actors = Array.from({ length: 12 }, (_, i) => `member-${i}`);
    const events: AnyEventEnvelope[] = [];
    let rnd = 7;
    const next = () => {
      rnd = (rnd * 1103515245 + 12345) % 2 ** 31;
      return rnd / 2 ** 31;
    };
    for (let i = 0; i < 400; i++) {
      const at = new Date(day(Math.floor(next() * 40)).getTime() + Math.floor(next() * 86_400_000)); // 40 days, any time
      events.push(sent(room, actors[Math.floor(next() * actors.length)]!, at));
    }
    events.push(sent(room, 'member-20-days-ago', new Date(day(20).getTime() + 3_600_000))); // in the month, not the week
    await db.apply(events);
    await db.apply(events.slice(0, 50)); // delivered again: applyOnce changes nothing

    const { rows: totals } = await db.pool.query(
      'SELECT day::text, actors::int, sessions::int, active_ms::bigint::text AS ms FROM admin.daily_activity ORDER BY day',
    );
    const { rows: grouped } = await db.pool.query(
      'SELECT day::text, count(*)::int AS actors, sum(sessions)::int AS sessions, sum(active_ms)::text AS ms FROM admin.daily_active GROUP BY day ORDER BY day',
    );
    expect(totals.length).toBeGreaterThan(30);
    expect(totals).toEqual(grouped);
    const { rows: last } = await db.pool.query(
      'SELECT actor, last_day::text FROM admin.actor_last_active ORDER BY actor',
    );
    expect(last).toEqual(
      (
        await db.pool.query(
          'SELECT actor, max(day)::text AS last_day FROM admin.daily_active GROUP BY actor ORDER BY actor',
        )
      ).rows,
    );

    // the figures equal the grouping queries they replaced
    const {
      rows: [reference],
    } = await db.pool.query<{ dau: string; wau: string; mau: string; ms: string; sessions: string }>(
      `SELECT count(*) FILTER (WHERE last_day = $1) AS dau, count(*) FILTER (WHERE last_day >= $2) AS wau, count(*) AS mau,
         (SELECT sum(active_ms) FROM admin.daily_active WHERE day >= $2 AND day <= $1) AS ms,
         (SELECT sum(sessions) FROM admin.daily_active WHERE day >= $2 AND day <= $1) AS sessions
       FROM (SELECT actor, max(day) AS last_day FROM admin.daily_active WHERE day >= $3 AND day <= $1 GROUP BY actor) AS actors`,
      [TODAY, day(6).toISOString().slice(0, 10), day(29).toISOString().slice(0, 10)],
    );
    const usage = await usageFigures(db.pool, TODAY);
    expect(usage).toEqual({
      dailyActiveUsers: Number(reference!.dau),
      weeklyActiveUsers: Number(reference!.wau),
      monthlyActiveUsers: Number(reference!.mau),
      averageSessionDuration: Math.round((Number(reference!.ms) / Number(reference!.sessions) / 60_000) * 10) / 10,
    });
    expect(usage.monthlyActiveUsers).toBe(usage.weeklyActiveUsers + 1);
  });
});
