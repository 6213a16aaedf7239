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
import {
  channelNamesHashedOtherThan,
  membersHashedOtherThan,
  roomsWithoutNameSkeleton,
  sealChannelNameRow,
  setChannelNameKey,
  setRoomNameSkeleton,
  setUsernameHash,
  unsealedChannelNames,
} from './name-rehash-repository.ts';

const UNIQUE_VIOLATION = '23505';

export async function rehashUsernames(pool: Pool, keyring: RoomKeyring, logger: Logger): Promise<number> {
  const rows = await membersHashedOtherThan(pool, USERNAME_PURPOSE);
  let rehashed = 0;
  for (const row of rows) {
    const key = await keyring.key(row.workspaceId);
    if (!key) continue; // the room is gone: its rows go with it
    try {
      await setUsernameHash(
        pool,
        row,
        usernameHash(key, openUsername(key, row.userId, row.username)),
        USERNAME_PURPOSE,
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
  const rows = await roomsWithoutNameSkeleton(pool);
  for (const row of rows) await setRoomNameSkeleton(pool, row.id, roomNameKey(row.name));
  return rows.length;
}

export async function sealChannelNames(pool: Pool, keyring: RoomKeyring): Promise<number> {
  const rows = await unsealedChannelNames(pool);
  let sealed = 0;
  for (const row of rows) {
    const key = await keyring.key(row.workspaceId);
    if (!key) continue; // the room is gone: its rows go with it
    await sealChannelNameRow(pool, row.id, {
      name: sealChannelName(key, row.id, row.name),
      nameKey: channelNameHash(key, row.name),
      purpose: CHANNEL_NAME_PURPOSE,
    });
    sealed++;
  }
  return sealed;
}

export async function rehashChannelNames(pool: Pool, keyring: RoomKeyring): Promise<number> {
  const rows = await channelNamesHashedOtherThan(pool, CHANNEL_NAME_PURPOSE);
  let rehashed = 0;
  for (const row of rows) {
    const key = await keyring.key(row.workspaceId);
    if (!key) continue; // the room is gone: its rows go with it
    await setChannelNameKey(
      pool,
      row.id,
      row.name,
      channelNameHash(key, openChannelName(key, row.id, row.name)),
      CHANNEL_NAME_PURPOSE,
    );
    rehashed++;
  }
  return rehashed;
}
