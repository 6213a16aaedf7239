/**
 * The search index's two queries (search-messages.ts chooses between them): the room's matching entries in the
 * channels the searcher sees, newest first, each joined to its message's sealed row.
 *
 * Word frequencies differ by orders of magnitude: a common word is found fastest by walking the room's newest entries
 * (workspace, seq DESC) and testing each one's tokens (matchesAmongRecent, over the newest RECENT_WINDOW entries), a
 * rare word by the GIN index over the tokens (indexedMatches: few matches, so its sort is small).
 */
import type { Pool } from '@ephemera/platform';
import type { SealedRow } from '../sealed-messages.ts';
import { channelVisibleSql } from '../rooms-repository.ts';

/** how many of the room's newest entries matchesAmongRecent looks at */
const RECENT_WINDOW = 2000;

const VISIBLE = `JOIN messaging.channels c ON c.id = s.channel_id
  JOIN messaging.messages m ON m.id = s.message_id
  WHERE s.tokens @> $2::bigint[] AND ${channelVisibleSql('$3')}`;

/** Among the room's newest RECENT_WINDOW entries, those holding every token that `viewerId` may read, at most `limit`. */
export async function matchesAmongRecent(
  pool: Pool,
  workspaceId: string,
  tokens: string[],
  viewerId: string,
  limit: number,
): Promise<SealedRow[]> {
  const { rows } = await pool.query<SealedRow>(
    `SELECT m.id, m.sealed_body FROM (
       SELECT message_id, channel_id, seq, tokens FROM messaging_search.entries
       WHERE workspace_id = $1 ORDER BY seq DESC LIMIT ${RECENT_WINDOW}
     ) s ${VISIBLE}
     ORDER BY s.seq DESC LIMIT $4`,
    [workspaceId, tokens, viewerId, limit],
  );
  return rows;
}

/** All the room's entries holding every token, through the GIN index, that `viewerId` may read: the newest `limit`. */
export async function indexedMatches(
  pool: Pool,
  workspaceId: string,
  tokens: string[],
  viewerId: string,
  limit: number,
): Promise<SealedRow[]> {
  // MATERIALIZED keeps the planner from walking seq order instead, which reads the whole room when the word is rare.
  const { rows } = await pool.query<SealedRow>(
    `WITH hits AS MATERIALIZED (
       SELECT message_id, channel_id, seq, tokens FROM messaging_search.entries WHERE workspace_id = $1 AND tokens @> $2::bigint[]
     )
     SELECT m.id, m.sealed_body FROM hits s ${VISIBLE}
     ORDER BY s.seq DESC LIMIT $4`,
    [workspaceId, tokens, viewerId, limit],
  );
  return rows;
}
