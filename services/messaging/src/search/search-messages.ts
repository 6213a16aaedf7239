/**
 * Message search: the query's words become tokens under the room's key, and the index answers the messages that
 * contain every one of them (exact words after normalization), newest first, at most LIMITS.searchResultsMax,
 * only in channels the searcher may read (public topic channels, and private channels and DMs they are a member of).
 * The hits are opened with the room's key (sealed-messages.ts) before they are answered.
 *
 * Two plans, because word frequencies differ by orders of magnitude: a common word is found fastest by walking the
 * room's newest entries (workspace, seq DESC) and testing each one's tokens, a rare word by the GIN index over the
 * tokens. The newest-first walk looks at RECENT_WINDOW entries; if it finds a full page there, that page is the
 * answer (nothing newer was skipped), otherwise the GIN query answers (few matches, so its sort is small).
 */
import { LIMITS, type Message, type SessionActor } from '@ephemera/proto';
import type { Pool, RoomKeyring } from '@ephemera/platform';
import { searchTokens } from './tokens.ts';
import { openMessage, servingKey } from '../sealed-messages.ts';
import { channelVisibleSql } from '../access.ts';

const RECENT_WINDOW = 2000;

const VISIBLE = `JOIN messaging.channels c ON c.id = s.channel_id
  JOIN messaging.messages m ON m.id = s.message_id
  WHERE s.tokens @> $2::bigint[] AND ${channelVisibleSql('$3')}`;

export async function searchMessages(
  pool: Pool,
  keyring: RoomKeyring,
  actor: SessionActor,
  query: string,
): Promise<Message[]> {
  const key = await servingKey(keyring, actor.workspaceId);
  const tokens = searchTokens(key, query);
  if (tokens.length === 0) return [];
  const params = [actor.workspaceId, tokens.map(String), actor.userId, LIMITS.searchResultsMax];
  const recent = await pool.query(
    `SELECT m.id, m.sealed_body FROM (
       SELECT message_id, channel_id, seq, tokens FROM messaging_search.entries
       WHERE workspace_id = $1 ORDER BY seq DESC LIMIT ${RECENT_WINDOW}
     ) s ${VISIBLE}
     ORDER BY s.seq DESC LIMIT $4`,
    params,
  );
  if (recent.rows.length === LIMITS.searchResultsMax) return recent.rows.map((r) => openMessage(key, r));
  // Few matches: take them all through the GIN index (MATERIALIZED keeps the planner from walking seq order
  // instead, which reads the whole room when the word is rare), then order the handful.
  const all = await pool.query(
    `WITH hits AS MATERIALIZED (
       SELECT message_id, channel_id, seq, tokens FROM messaging_search.entries WHERE workspace_id = $1 AND tokens @> $2::bigint[]
     )
     SELECT m.id, m.sealed_body FROM hits s ${VISIBLE}
     ORDER BY s.seq DESC LIMIT $4`,
    params,
  );
  return all.rows.map((r) => openMessage(key, r));
}
