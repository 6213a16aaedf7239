/**
 * Per-message keys at rest (docs/crypto.md "Messages"): messaging.message_keys holds each living message's key,
 * wrapped under its room's key, written before the message's event is appended (one statement per send batch) and
 * deleted with the message (projection.ts message.deleted), its channel or its room. The sealing decorator reads
 * them here (embedded, and the messaging service); the gateways through MESSAGE_KEYS_PREFIX (wrappedKeys). The keys
 * are not rebuilt from the log: a replay into another database needs this table, as it needs the room keys.
 */
import {
  newMessageKey,
  unwrapMessageKey,
  wrapMessageKey,
  type MessageKeyStore,
  type MessageKeysApi,
  type Pool,
  type RoomKey,
} from '@ephemera/platform';
import { insertWrappedMessageKeys, wrappedMessageKeys } from './messages-repository.ts';

export function pgMessageKeys(pool: Pool): MessageKeyStore & MessageKeysApi {
  const wrapped = (workspaceId: string, messageIds: string[]) => wrappedMessageKeys(pool, workspaceId, messageIds);
  return {
    async create(roomKey: RoomKey, messageIds: string[]) {
      const keys = new Map(messageIds.map((id) => [id, newMessageKey(id)]));
      await insertWrappedMessageKeys(
        pool,
        roomKey.workspaceId,
        messageIds,
        messageIds.map((id) => wrapMessageKey(roomKey, id, keys.get(id)!)),
      );
      return keys;
    },
    async get(roomKey: RoomKey, messageIds: string[]) {
      const found = await wrapped(roomKey.workspaceId, messageIds);
      return new Map(Object.entries(found).map(([id, w]) => [id, unwrapMessageKey(roomKey, id, w)]));
    },
    wrappedKeys: ({ workspaceId, messageIds }) => wrapped(workspaceId, messageIds.slice(0, 1000)),
  };
}
