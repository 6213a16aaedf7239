/**
 * Name keys written before the current rule are computed again at start, after the projection is current and
 * before commands are taken; several replicas may run this at once (each update writes the same value).
 * - Members whose username hash was computed under an older purpose (an older usernameKey) are hashed again, so
 *   uniqueness compares every member of a room by the same key. The hash is keyed by the room's key, so a
 *   migration cannot do it in SQL.
 * - Rooms without a name skeleton (made before room names had one) get it.
 * - Channel names stored in plain text (before they were sealed) are sealed, with their keyed hash.
 * - Channel names hashed under an older purpose (their lower case, before the confusable skeleton) are hashed again.
 *   Two topic channels of a room whose names now count as one both keep their names: the hash holds no constraint,
 *   and no new channel can take a name like either.
 */
import type { Logger, Pool, RoomKeyring } from '@ephemera/platform';
import {
  CHANNEL_NAME_PURPOSE,
  channelNameHash,
  openChannelName,
  openUsername,
  sealChannelName,
  usernameHash,
  USERNAME_PURPOSE,
} from './member-crypto.ts';
import { roomNameKey } from './name-keys.ts';

const UNIQUE_VIOLATION = '23505';

export async function rehashUsernames(pool: Pool, keyring: RoomKeyring, logger: Logger): Promise<number> {
  const { rows } = await pool.query<{ workspaceId: string; userId: string; username: string }>(
    `SELECT workspace_id AS "workspaceId", user_id AS "userId", username FROM room.members WHERE username_hash_purpose <> $1`,
    [USERNAME_PURPOSE],
  );
  let rehashed = 0;
  for (const row of rows) {
    const key = await keyring.key(row.workspaceId);
    if (!key) continue; // the room is gone: its rows go with it
    try {
      await pool.query(
        'UPDATE room.members SET username_hash = $3, username_hash_purpose = $4 WHERE workspace_id = $1 AND user_id = $2',
        [row.workspaceId, row.userId, usernameHash(key, openUsername(key, row.userId, row.username)), USERNAME_PURPOSE],
      );
      rehashed++;
    } catch (err) {
      // Two members admitted before the skeleton whose names now count as one: both keep their names; this one
      // keeps its older hash (no new member can take a name like the other's).
      if ((err as { code?: string }).code !== UNIQUE_VIOLATION) throw err;
      logger.warn(
        { workspaceId: row.workspaceId, userId: row.userId },
        "username looks like another member's: kept under its older hash",
      );
    }
  }
  return rehashed;
}

export async function fillRoomNameKeys(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ id: string; name: string }>(
    'SELECT id, name FROM room.workspaces WHERE name_skeleton IS NULL',
  );
  for (const row of rows)
    await pool.query('UPDATE room.workspaces SET name_skeleton = $2 WHERE id = $1', [row.id, roomNameKey(row.name)]);
  return rows.length;
}

export async function sealChannelNames(pool: Pool, keyring: RoomKeyring): Promise<number> {
  const { rows } = await pool.query<{ id: string; workspaceId: string; name: string }>(
    'SELECT id, workspace_id AS "workspaceId", name FROM room.channels WHERE NOT name_sealed',
  );
  let sealed = 0;
  for (const row of rows) {
    const key = await keyring.key(row.workspaceId);
    if (!key) continue; // the room is gone: its rows go with it
    await pool.query(
      `UPDATE room.channels SET name = $2, name_key = $3, name_key_purpose = $4, name_sealed = true
        WHERE id = $1 AND NOT name_sealed`,
      [row.id, sealChannelName(key, row.id, row.name), channelNameHash(key, row.name), CHANNEL_NAME_PURPOSE],
    );
    sealed++;
  }
  return sealed;
}

export async function rehashChannelNames(pool: Pool, keyring: RoomKeyring): Promise<number> {
  const { rows } = await pool.query<{ id: string; workspaceId: string; name: string }>(
    'SELECT id, workspace_id AS "workspaceId", name FROM room.channels WHERE name_sealed AND name_key_purpose <> $1',
    [CHANNEL_NAME_PURPOSE],
  );
  let rehashed = 0;
  for (const row of rows) {
    const key = await keyring.key(row.workspaceId);
    if (!key) continue; // the room is gone: its rows go with it
    await pool.query('UPDATE room.channels SET name_key = $2, name_key_purpose = $3 WHERE id = $1 AND name = $4', [
      row.id,
      channelNameHash(key, openChannelName(key, row.id, row.name)),
      CHANNEL_NAME_PURPOSE,
      row.name,
    ]);
    rehashed++;
  }
  return rehashed;
}
