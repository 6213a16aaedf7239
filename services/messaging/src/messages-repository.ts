/**
 * Queries over messaging.messages (rows sealed under the room's key: sealed-messages.ts opens them) and
 * messaging.message_keys (each living message's key, wrapped: message-keys.ts). The history reads (history.ts), the
 * send batch's lookups (send-lookups.ts), the message commands (message-commands.ts) and the moderation viewer
 * (admin-messaging.ts) call these; none of them writes a message row (the projection does).
 */
import type { Pool } from '@ephemera/platform';
import type { SealedRow, StoredRow } from './sealed-messages.ts';
import { channelVisibleSql } from './rooms-repository.ts';

/** The columns a StoredRow needs, for a SELECT list. */
const STORED_COLUMNS = 'id, sealed_body, workspace_id, channel_id, seq, author_id, client_message_id, created_at';

/** A channel's live messages with seq < beforeSeq, newest first, at most `limit`. */
export async function liveMessagesBefore(
  pool: Pool,
  channelId: string,
  beforeSeq: number,
  limit: number,
): Promise<SealedRow[]> {
  const { rows } = await pool.query<SealedRow>(
    'SELECT id, sealed_body FROM messaging.messages WHERE channel_id = $1 AND seq < $2 AND NOT deleted ORDER BY seq DESC LIMIT $3',
    [channelId, beforeSeq, limit],
  );
  return rows;
}

/** The room's live messages with seq > afterSeq in the channels `viewerId` sees, in order, at most `limit`. */
export async function visibleLiveMessagesAfter(
  pool: Pool,
  workspaceId: string,
  afterSeq: number,
  viewerId: string,
  limit: number,
): Promise<SealedRow[]> {
  const { rows } = await pool.query<SealedRow>(
    `SELECT m.id, m.sealed_body FROM messaging.messages m JOIN messaging.channels c ON c.id = m.channel_id
     WHERE m.workspace_id = $1 AND m.seq > $2 AND NOT m.deleted AND ${channelVisibleSql('$3')}
     ORDER BY m.seq LIMIT $4`,
    [workspaceId, afterSeq, viewerId, limit],
  );
  return rows;
}

/** The room's last message sequence number in the read model (0 for a room without messages). */
export async function lastMessageSeq(pool: Pool, workspaceId: string): Promise<number> {
  const { rows } = await pool.query(
    'SELECT coalesce(max(seq), 0) AS seq FROM messaging.messages WHERE workspace_id = $1',
    [workspaceId],
  );
  return Number(rows[0].seq);
}

/** The room's messages stored under these (author, client message id) pairs (the two lists pair up by index). */
export async function messagesByClientIds(
  pool: Pool,
  workspaceId: string,
  authorIds: string[],
  clientMessageIds: string[],
): Promise<StoredRow[]> {
  const { rows } = await pool.query<StoredRow>(
    `SELECT ${STORED_COLUMNS} FROM messaging.messages
     WHERE workspace_id = $1 AND (author_id, client_message_id) IN (SELECT * FROM unnest($2::text[], $3::text[]))`,
    [workspaceId, authorIds, clientMessageIds],
  );
  return rows;
}

/** The room's messages with these ids, deleted ones too. */
export async function messagesByIds(
  pool: Pool,
  workspaceId: string,
  ids: string[],
): Promise<(StoredRow & { deleted: boolean })[]> {
  const { rows } = await pool.query<StoredRow & { deleted: boolean }>(
    `SELECT ${STORED_COLUMNS}, deleted FROM messaging.messages WHERE workspace_id = $1 AND id = ANY ($2)`,
    [workspaceId, ids],
  );
  return rows;
}

/** One message of the room with its version (its aggregate's sequence) and whether it is deleted. */
export async function messageWithVersion(
  pool: Pool,
  workspaceId: string,
  messageId: string,
): Promise<(StoredRow & { version: number; deleted: boolean }) | undefined> {
  const { rows } = await pool.query<StoredRow & { version: number; deleted: boolean }>(
    `SELECT ${STORED_COLUMNS}, version, deleted FROM messaging.messages WHERE id = $1 AND workspace_id = $2`,
    [messageId, workspaceId],
  );
  return rows[0];
}

/** A message as the moderation viewer lists it: with its channel's type, privacy and sealed name. */
export interface ModerationRow extends SealedRow {
  seq: number;
  author_id: string;
  created_at: Date;
  channel_id: string;
  channel_type: string | null;
  is_private: boolean | null;
  sealed_name: string | null;
}

/** The room's newest `limit` live messages across all its channels, newest first. */
export async function latestLiveMessagesWithChannels(
  pool: Pool,
  workspaceId: string,
  limit: number,
): Promise<ModerationRow[]> {
  const { rows } = await pool.query<ModerationRow>(
    `SELECT m.id, m.seq, m.author_id, m.created_at, m.sealed_body, m.channel_id, c.channel_type, c.is_private, c.sealed_name
     FROM messaging.messages m LEFT JOIN messaging.channels c ON c.id = m.channel_id
     WHERE m.workspace_id = $1 AND NOT m.deleted ORDER BY m.seq DESC LIMIT $2`,
    [workspaceId, limit],
  );
  return rows;
}

/** The wrapped keys of the room's messages with these ids, by message id (a message without one is left out). */
export async function wrappedMessageKeys(
  pool: Pool,
  workspaceId: string,
  messageIds: string[],
): Promise<Record<string, string>> {
  const { rows } = await pool.query<{ id: string; wrapped: string }>(
    'SELECT message_id AS id, wrapped_key AS wrapped FROM messaging.message_keys WHERE message_id = ANY($1) AND workspace_id = $2',
    [messageIds, workspaceId],
  );
  return Object.fromEntries(rows.map((r) => [r.id, r.wrapped]));
}

/** Stores the messages' wrapped keys, one statement for the batch (the two lists pair up by index). */
export async function insertWrappedMessageKeys(
  pool: Pool,
  workspaceId: string,
  messageIds: string[],
  wrappedKeys: string[],
): Promise<void> {
  await pool.query(
    `INSERT INTO messaging.message_keys (message_id, workspace_id, wrapped_key)
     SELECT id, $2, w FROM unnest($1::text[], $3::text[]) AS r(id, w)`,
    [messageIds, workspaceId, wrappedKeys],
  );
}
