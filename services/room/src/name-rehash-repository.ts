/**
 * The SQL of the start-up rehash of name keys (name-rehash.ts decides what each row becomes): the rows stored
 * under an older rule, and the one-row updates that bring each to the current one. Each update names the row
 * exactly, so replicas running it at once write the same values.
 */
import type { Pool } from '@ephemera/platform';

/** members whose username hash was computed under another purpose than `purpose` (usernames as stored: sealed) */
export async function membersHashedOtherThan(
  pool: Pool,
  purpose: string,
): Promise<{ workspaceId: string; userId: string; username: string }[]> {
  const { rows } = await pool.query<{ workspaceId: string; userId: string; username: string }>(
    `SELECT workspace_id AS "workspaceId", user_id AS "userId", username FROM room.members WHERE username_hash_purpose <> $1`,
    [purpose],
  );
  return rows;
}

/** Throws Postgres' unique violation when another member of the room has the same hash. */
export async function setUsernameHash(
  pool: Pool,
  member: { workspaceId: string; userId: string },
  hash: string,
  purpose: string,
): Promise<void> {
  await pool.query(
    'UPDATE room.members SET username_hash = $3, username_hash_purpose = $4 WHERE workspace_id = $1 AND user_id = $2',
    [member.workspaceId, member.userId, hash, purpose],
  );
}

export async function roomsWithoutNameSkeleton(pool: Pool): Promise<{ id: string; name: string }[]> {
  const { rows } = await pool.query<{ id: string; name: string }>(
    'SELECT id, name FROM room.workspaces WHERE name_skeleton IS NULL',
  );
  return rows;
}

export async function setRoomNameSkeleton(pool: Pool, workspaceId: string, skeleton: string): Promise<void> {
  await pool.query('UPDATE room.workspaces SET name_skeleton = $2 WHERE id = $1', [workspaceId, skeleton]);
}

type ChannelNameRow = { id: string; workspaceId: string; name: string };

/** channels whose name is still stored in plain text */
export async function unsealedChannelNames(pool: Pool): Promise<ChannelNameRow[]> {
  const { rows } = await pool.query<ChannelNameRow>(
    'SELECT id, workspace_id AS "workspaceId", name FROM room.channels WHERE NOT name_sealed',
  );
  return rows;
}

/** Stores the channel's sealed name and its keyed hash, unless it was sealed meanwhile. */
export async function sealChannelNameRow(
  pool: Pool,
  channelId: string,
  sealed: { name: string; nameKey: string; purpose: string },
): Promise<void> {
  await pool.query(
    `UPDATE room.channels SET name = $2, name_key = $3, name_key_purpose = $4, name_sealed = true
      WHERE id = $1 AND NOT name_sealed`,
    [channelId, sealed.name, sealed.nameKey, sealed.purpose],
  );
}

/** sealed channel names whose keyed hash was computed under another purpose than `purpose` */
export async function channelNamesHashedOtherThan(pool: Pool, purpose: string): Promise<ChannelNameRow[]> {
  const { rows } = await pool.query<ChannelNameRow>(
    'SELECT id, workspace_id AS "workspaceId", name FROM room.channels WHERE name_sealed AND name_key_purpose <> $1',
    [purpose],
  );
  return rows;
}

/** Stores the channel name's new hash, unless the (sealed) name changed since `sealedName` was read. */
export async function setChannelNameKey(
  pool: Pool,
  channelId: string,
  sealedName: string,
  nameKey: string,
  purpose: string,
): Promise<void> {
  await pool.query('UPDATE room.channels SET name_key = $2, name_key_purpose = $3 WHERE id = $1 AND name = $4', [
    channelId,
    nameKey,
    purpose,
    sealedName,
  ]);
}
