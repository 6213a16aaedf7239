/**
 * Message search: the query's words become tokens under the room's key, and the index answers the messages that
 * contain every one of them (exact words after normalization), newest first, at most LIMITS.searchResultsMax,
 * only in channels the searcher may read (public topic channels, and private channels and DMs they are a member of).
 */
import { LIMITS, type Message, type SessionActor } from '@ephemera/proto';
import type { Pool } from '@ephemera/platform';
import { searchTokens } from './tokens.ts';
import type { RoomKeyOf } from './keys.ts';

export async function searchMessages(pool: Pool, keyOf: RoomKeyOf, actor: SessionActor, query: string): Promise<Message[]> {
  const tokens = searchTokens(keyOf(actor.workspaceId), query);
  if (tokens.length === 0) return [];
  const { rows } = await pool.query(
    `SELECT m.body
     FROM messaging_search.entries s
     JOIN messaging.channels c ON c.id = s.channel_id
     JOIN messaging.messages m ON m.id = s.message_id
     WHERE s.workspace_id = $1 AND s.tokens @> $2::bigint[]
       AND (NOT c.is_private OR $3 = ANY (c.member_ids))
     ORDER BY s.seq DESC
     LIMIT $4`,
    [actor.workspaceId, tokens.map(String), actor.userId, LIMITS.searchResultsMax]);
  return rows.map((r) => r.body as Message);
}
