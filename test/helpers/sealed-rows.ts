/**
 * Read-model rows with their sealed values opened, for replay comparisons: a value is sealed under a fresh random
 * nonce each time, so a rebuilt read model holds different ciphertext for the same plaintext (docs/crypto.md).
 * Keyed hashes (username_hash, search tokens) are deterministic and compare as they are.
 */
import type { RoomKeyring } from '@ephemera/platform';
import { openMessage } from '../../services/messaging/src/sealed-messages.ts';
import { openChannelName } from '../../services/messaging/src/channel-names.ts';
import { openMemberName } from '../../services/messaging/src/member-names.ts';
import {
  openChannelName as openRoomChannelName,
  openPicture,
  openThemeAuthor,
  openUsername,
} from '../../services/room/src/member-crypto.ts';

type Row = Record<string, unknown>;

async function keyOf(keyring: RoomKeyring, workspaceId: unknown) {
  const key = await keyring.key(String(workspaceId));
  if (!key) throw new Error(`no key for room ${String(workspaceId)}`);
  return key;
}

/** room.members and room.departed_members rows (username; profile_picture when the table has it). */
export async function openMemberRows(keyring: RoomKeyring, rows: Row[]): Promise<Row[]> {
  return Promise.all(
    rows.map(async (r) => {
      const key = await keyOf(keyring, r.workspace_id);
      const userId = String(r.user_id);
      const opened: Row = { ...r, username: openUsername(key, userId, String(r.username)) };
      if ('profile_picture' in r)
        opened.profile_picture = openPicture(key, userId, (r.profile_picture as string | null) ?? null);
      return opened;
    }),
  );
}

/** messaging.members rows (sealed_username, kept for mentions; null for a member projected before it existed). */
export async function openMessagingMemberRows(keyring: RoomKeyring, rows: Row[]): Promise<Row[]> {
  return Promise.all(
    rows.map(async (r) =>
      typeof r.sealed_username === 'string'
        ? {
            ...r,
            sealed_username: openMemberName(
              await keyOf(keyring, r.workspace_id),
              String(r.workspace_id),
              String(r.user_id),
              r.sealed_username,
            ),
          }
        : r,
    ),
  );
}

/** room.workspaces rows (the broadcast theme's author name). */
export async function openWorkspaceRows(keyring: RoomKeyring, rows: Row[]): Promise<Row[]> {
  return Promise.all(
    rows.map(async (r) =>
      r.theme ? { ...r, theme: openThemeAuthor(await keyOf(keyring, r.id), r.theme as { changedByName: string }) } : r,
    ),
  );
}

/** messaging.messages rows: sealed_body becomes the Message. */
export async function openMessageRows(keyring: RoomKeyring, rows: Row[]): Promise<Row[]> {
  return Promise.all(
    rows.map(async (r) => ({
      ...r,
      sealed_body: openMessage(await keyOf(keyring, r.workspace_id), {
        id: String(r.id),
        sealed_body: String(r.sealed_body),
      }),
    })),
  );
}

/** messaging.channels rows: sealed_name (the moderation viewer's channel name) becomes the name. */
export async function openChannelRows(keyring: RoomKeyring, rows: Row[]): Promise<Row[]> {
  return Promise.all(
    rows.map(async (r) => ({
      ...r,
      sealed_name: r.sealed_name
        ? openChannelName(await keyOf(keyring, r.workspace_id), String(r.id), String(r.sealed_name))
        : r.sealed_name,
    })),
  );
}

/** room.channels rows (the channel's name; name_key, a keyed hash, compares as it is). */
export async function openRoomChannelRows(keyring: RoomKeyring, rows: Row[]): Promise<Row[]> {
  return Promise.all(
    rows.map(async (r) => ({
      ...r,
      name: r.name_sealed
        ? openRoomChannelName(await keyOf(keyring, r.workspace_id), String(r.id), String(r.name))
        : r.name,
    })),
  );
}
