/**
 * Each channel's type and name in messaging's read model (messaging.channels), the name sealed under the room's key
 * (AAD channel-name:{channelId}), for the superadmin's moderation viewer (admin-messaging.ts). Written by the
 * projection (projection.ts), read by the viewer: a file of its own so the projection does not import the viewer,
 * which reaches the service that runs the projection.
 */
import type { Channel } from '@ephemera/proto';
import { isSealed, roomEncryptionOn, type PoolClient, type RoomKey } from '@ephemera/platform';
import { setChannelTypeAndName } from './rooms-repository.ts';

const channelNameAad = (channelId: string) => `channel-name:${channelId}`;

/** The name as the viewer shows it: opened with the room's key, else the channel's id (never throws). */
export function openChannelName(key: RoomKey, channelId: string, sealedName: string | null): string {
  if (!sealedName) return channelId; // a channel projected before names were kept (migration 1734200000000)
  try {
    return isSealed(sealedName) ? key.openJson<string>(sealedName, channelNameAad(channelId)) : sealedName;
  } catch {
    return channelId;
  }
}

/** channel.created / channel.renamed (projection.ts): the channel's type and its name, sealed. */
export async function projectChannelName(db: PoolClient, key: RoomKey | null, channel: Channel): Promise<void> {
  if (!key) return; // the room is gone: nothing of it is stored again
  const sealedName = roomEncryptionOn() ? key.sealJson(channel.name, channelNameAad(channel.id)) : channel.name;
  await setChannelTypeAndName(db, channel.id, channel.type, sealedName);
}
