/**
 * The activity figures' statement (daily active members, their sessions and active time). Apart from projector.ts
 * because it is one large statement with its own rule (sessions split by SESSION_GAP_MS) and its own time reading.
 */
import { TOPIC_OF, TOPICS, type AnyEventEnvelope } from '@ephemera/proto';
import { dayOf } from './days.ts';
import type { Statement } from './statements.ts';

/** a gap longer than this between two actions of a user starts a new session */
export const SESSION_GAP_MS = 30 * 60_000;

/**
 * A user's action in a room (an event of the room or messaging topic whose actor is a member): the member is
 * active that day. Sessions: an action more than SESSION_GAP_MS after the previous one starts a new session; the
 * time between actions inside a session adds to active_ms. An action older than the last one seen changes nothing
 * but the presence (deliveries of one member's events are in order: one room, one partition).
 */
export function activity(event: AnyEventEnvelope): Statement | null {
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
