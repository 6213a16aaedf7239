/**
 * Queries over the members' read positions (messaging.read_positions, messaging.read_versions) and the channel
 * summaries built from them with the messages (read-positions.ts decides and shapes with them).
 */
import type { Pool } from '@ephemera/platform';
import { channelVisibleSql } from './rooms-repository.ts';

/** Where a mark-read starts from: the channel's newest seq, the member's position, their read aggregate's version. */
export interface ReadMarkState {
  newest: number;
  /** 0 when the member has no position in the channel */
  current: number;
  /** 0 when the member has marked nothing in the room */
  version: number;
}

export async function readMarkState(
  pool: Pool,
  workspaceId: string,
  channelId: string,
  userId: string,
): Promise<ReadMarkState> {
  const { rows } = await pool.query(
    `SELECT (SELECT coalesce(max(seq), 0) FROM messaging.messages WHERE channel_id = $1) AS newest,
            (SELECT seq FROM messaging.read_positions WHERE channel_id = $1 AND user_id = $2) AS current,
            (SELECT version FROM messaging.read_versions WHERE workspace_id = $3 AND user_id = $2) AS version`,
    [channelId, userId, workspaceId],
  );
  return {
    newest: Number(rows[0].newest),
    current: Number(rows[0].current ?? 0),
    version: Number(rows[0].version ?? 0),
  };
}

/** One channel the viewer sees, for its summary; counts as strings (PostgreSQL bigint). */
export interface ChannelSummaryRow {
  id: string;
  read_seq: string | number;
  others_read_seq: string | number;
  unread: string;
  mentions: string;
  last_id: string | null;
  last_body: string | null;
}

/**
 * Per channel of the room `userId` sees, in one query: their position, the highest position of any other member,
 * the live messages after their position by other authors and those of them that mention them (each count stops at
 * `countCap`), and the newest live message.
 */
export async function channelSummaryRows(
  pool: Pool,
  workspaceId: string,
  userId: string,
  countCap: number,
): Promise<ChannelSummaryRow[]> {
  const { rows } = await pool.query<ChannelSummaryRow>(
    `SELECT c.id,
            coalesce(own.seq, 0) AS read_seq,
            (SELECT coalesce(max(o.seq), 0) FROM messaging.read_positions o WHERE o.channel_id = c.id AND o.user_id <> $2) AS others_read_seq,
            (SELECT count(*) FROM (SELECT 1 FROM messaging.messages u
              WHERE u.channel_id = c.id AND u.seq > coalesce(own.seq, 0) AND NOT u.deleted AND u.author_id <> $2
              LIMIT $3) capped) AS unread,
            (SELECT count(*) FROM (SELECT 1 FROM messaging.messages u
              WHERE u.channel_id = c.id AND u.mentioned_user_ids @> ARRAY[$2::text] AND u.seq > coalesce(own.seq, 0)
                AND NOT u.deleted AND u.author_id <> $2
              LIMIT $3) capped) AS mentions,
            last.id AS last_id, last.sealed_body AS last_body
     FROM messaging.channels c
     LEFT JOIN messaging.read_positions own ON own.channel_id = c.id AND own.user_id = $2
     LEFT JOIN LATERAL (SELECT m.id, m.sealed_body FROM messaging.messages m WHERE m.channel_id = c.id AND NOT m.deleted
                        ORDER BY m.seq DESC LIMIT 1) last ON true
     WHERE c.workspace_id = $1 AND ${channelVisibleSql('$2')}
     ORDER BY c.id`,
    [workspaceId, userId, countCap],
  );
  return rows;
}
