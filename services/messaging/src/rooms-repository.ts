/**
 * Queries over messaging's read model of the rooms (projected from room events by projection-rooms.ts): who the
 * caller is in a room and which channel they name (access.ts), the channels a viewer sees (as SQL), the members'
 * sealed names (member-names.ts), the channels' types and sealed names (channel-names.ts), ended rooms in a restored
 * backup (backup-part.ts) and a removed room's bulk rows (room-purge.ts). What the rows mean is decided by those
 * callers; this file only reads and writes them.
 */
import type { Pool, PoolClient } from '@ephemera/platform';

/**
 * channelVisibleTo (proto/src/channel-visibility.ts) as SQL over messaging.channels `c`, for the reads that filter
 * many channels at once (resync, channel summaries, search); `viewer` is the placeholder of the viewer's user id. A
 * contract test proves the two agree over every kind of channel (services/messaging/test/channel-visibility-sql.test.ts).
 */
export const channelVisibleSql = (viewer: string): string => `(NOT c.is_private OR ${viewer} = ANY (c.member_ids))`;

/** The room, the caller's membership or departure, and the channel named (when it is in this room). */
export interface CallerRow {
  expires_at: Date | null;
  created_by: string | null;
  member_id: string | null;
  is_admin: boolean | null;
  departed: 'left' | 'kicked' | null;
  channel_id: string | null;
  is_private: boolean | null;
  member_ids: string[] | null;
}

/** One query (the send hot path): undefined when messaging knows no such room. */
export async function callerRow(
  pool: Pool,
  workspaceId: string,
  userId: string,
  channelId: string | null,
): Promise<CallerRow | undefined> {
  const { rows } = await pool.query<CallerRow>(
    `SELECT w.expires_at, w.created_by, m.user_id AS member_id, m.is_admin,
            (SELECT d.reason FROM messaging.departed_members d WHERE d.workspace_id = w.id AND d.user_id = $2) AS departed,
            c.id AS channel_id, c.is_private, c.member_ids
     FROM messaging.workspaces w
     LEFT JOIN messaging.members m ON m.workspace_id = w.id AND m.user_id = $2
     LEFT JOIN messaging.channels c ON c.id = $3 AND c.workspace_id = w.id
     WHERE w.id = $1`,
    [workspaceId, userId, channelId],
  );
  return rows[0];
}

/** The room's members whose name is kept (sealed under the room's key). */
export async function sealedMemberNames(
  pool: Pool,
  workspaceId: string,
): Promise<{ user_id: string; sealed_username: string }[]> {
  const { rows } = await pool.query<{ user_id: string; sealed_username: string }>(
    'SELECT user_id, sealed_username FROM messaging.members WHERE workspace_id = $1 AND sealed_username IS NOT NULL',
    [workspaceId],
  );
  return rows;
}

/** Sets a member's sealed name (in the projection's transaction); a member not projected has no row to set. */
export async function setSealedMemberName(
  db: PoolClient,
  workspaceId: string,
  userId: string,
  sealedUsername: string,
): Promise<void> {
  await db.query('UPDATE messaging.members SET sealed_username = $3 WHERE workspace_id = $1 AND user_id = $2', [
    workspaceId,
    userId,
    sealedUsername,
  ]);
}

/** Sets a channel's type and its name, sealed or plain as the caller decided (in the projection's transaction). */
export async function setChannelTypeAndName(
  db: PoolClient,
  channelId: string,
  channelType: string,
  storedName: string,
): Promise<void> {
  await db.query('UPDATE messaging.channels SET channel_type = $2, sealed_name = $3 WHERE id = $1', [
    channelId,
    channelType,
    storedName,
  ]);
}

/** The rooms of a backup's staged copy that this database holds as ended (messaging.expired_workspaces). */
export async function stagedRoomsEnded(c: PoolClient, staging: string): Promise<string[]> {
  const { rows } = await c.query<{ id: string }>(
    `SELECT w.id FROM ${staging}.workspaces w JOIN messaging.expired_workspaces e ON e.id = w.id`,
  );
  return rows.map((r) => r.id);
}

/** Keeps the rooms' tombstones (in the caller's transaction), so a late event of theirs stays out. */
export async function recordRoomsEnded(c: PoolClient, workspaceIds: string[]): Promise<void> {
  await c.query('INSERT INTO messaging.expired_workspaces (id) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING', [
    workspaceIds,
  ]);
}

/** the tables a room has many rows in, each with an index that starts with workspace_id */
export const ROOM_BULK_TABLES = [
  'messaging.messages',
  'messaging_search.entries',
  'messaging.read_positions',
  'messaging.files',
  'messaging.message_keys',
] as const;

/** Deletes up to `batchRows` of the room's rows in one of ROOM_BULK_TABLES; answers how many went. */
export async function deleteRoomRowsBatch(
  pool: Pool,
  table: (typeof ROOM_BULK_TABLES)[number],
  workspaceId: string,
  batchRows: number,
): Promise<number> {
  const r = await pool.query(
    `DELETE FROM ${table} WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${table} WHERE workspace_id = $1 LIMIT ${batchRows}))`,
    [workspaceId],
  );
  return r.rowCount ?? 0;
}
