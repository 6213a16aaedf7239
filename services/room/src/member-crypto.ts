/**
 * Members and channels at rest in the room read model (docs/crypto.md): usernames, profile pictures and channel names are sealed under the
 * room's key (AES-256-GCM; the AAD binds each value to its member and field), and username uniqueness is decided
 * on a keyed hash of the name's usernameKey (its confusable skeleton, name-keys.ts) instead of the name itself. Once the room's
 * key is destroyed, no copy of these rows (WAL, backups) says who was in the room.
 */
import { DomainError } from '@ephemera/proto';
import type { RoomKey, RoomKeyring } from '@ephemera/platform';
import { channelNameKey, usernameKey } from './name-keys.ts';

/**
 * The room key's purpose for username hashes (RoomKey.hash), stored beside each hash (username_hash_purpose): a new
 * version when usernameKey changes, and rows of an older one are hashed again at start (username-rehash.ts).
 */
export const USERNAME_PURPOSE = 'username-v2';

const usernameAad = (userId: string) => `member:${userId}:username`;
const pictureAad = (userId: string) => `member:${userId}:profile-picture`;
const THEME_AUTHOR_AAD = 'workspace:theme:changed-by-name';

/** What the uniqueness constraint compares: equal for names that render alike, meaningless without the key. */
export const usernameHash = (key: RoomKey, username: string): string =>
  key.hash(USERNAME_PURPOSE, usernameKey(username));

export const sealUsername = (key: RoomKey, userId: string, username: string): string =>
  key.seal(username, usernameAad(userId));
export const openUsername = (key: RoomKey, userId: string, sealed: string): string =>
  key.open(sealed, usernameAad(userId));

export const sealPicture = (key: RoomKey, userId: string, picture: string | null): string | null =>
  picture === null ? null : key.seal(picture, pictureAad(userId));
export const openPicture = (key: RoomKey, userId: string, sealed: string | null): string | null =>
  sealed === null ? null : key.open(sealed, pictureAad(userId));

/**
 * Channel names: sealed like usernames, and compared (topic names are unique per room) by a keyed hash of their
 * channelNameKey (the confusable skeleton, name-keys.ts). The purpose is stored beside each hash (name_key_purpose):
 * a new version when channelNameKey changes, and rows of an older one are hashed again at start (name-rehash.ts).
 */
export const CHANNEL_NAME_PURPOSE = 'channel-name-v2';
/** The purpose the hashes written before the skeleton were computed under (the name's lower case). */
export const CHANNEL_NAME_PURPOSE_V1 = 'channel-name-v1';
const channelNameAad = (channelId: string) => `channel:${channelId}:name`;
export const sealChannelName = (key: RoomKey, channelId: string, name: string): string =>
  key.seal(name, channelNameAad(channelId));
export const openChannelName = (key: RoomKey, channelId: string, sealed: string): string =>
  key.open(sealed, channelNameAad(channelId));
export const channelNameHash = (key: RoomKey, name: string): string =>
  key.hash(CHANNEL_NAME_PURPOSE, channelNameKey(name));
/** The hash a row not hashed again yet holds (CHANNEL_NAME_PURPOSE_V1): uniqueness compares it meanwhile. */
export const channelNameHashV1 = (key: RoomKey, name: string): string =>
  key.hash(CHANNEL_NAME_PURPOSE_V1, name.toLowerCase());

interface ThemeAuthor {
  changedByName: string;
}

/** The broadcast theme names who applied it: that name is sealed like every other username. */
export const sealThemeAuthor = <T extends ThemeAuthor>(key: RoomKey, theme: T): T => ({
  ...theme,
  changedByName: key.seal(theme.changedByName, THEME_AUTHOR_AAD),
});
export const openThemeAuthor = <T extends ThemeAuthor>(key: RoomKey, theme: T): T => ({
  ...theme,
  changedByName: key.open(theme.changedByName, THEME_AUTHOR_AAD),
});

/** The room's key for reading its members: a destroyed key means the room is gone (deleted or expired). */
export async function memberKey(keyring: RoomKeyring, workspaceId: string): Promise<RoomKey> {
  const key = await keyring.key(workspaceId);
  if (!key) throw new DomainError('WORKSPACE_NOT_FOUND');
  return key;
}
