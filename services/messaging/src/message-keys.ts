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

export function pgMessageKeys(pool: Pool): MessageKeyStore & MessageKeysApi {
  const wrapped = async (workspaceId: string, messageIds: string[]): Promise<Record<string, string>> => {
    const { rows } = await pool.query<{ id: string; wrapped: string }>(
      'SELECT message_id AS id, wrapped_key AS wrapped FROM messaging.message_keys WHERE message_id = ANY($1) AND workspace_id = $2',
      [messageIds, workspaceId],
    );
    return Object.fromEntries(rows.map((r) => [r.id, r.wrapped]));
  };
  return {
    async create(roomKey: RoomKey, messageIds: string[]) {
      const keys = new Map(messageIds.map((id) => [id, newMessageKey(id)]));
      await pool.query(
        `INSERT INTO messaging.message_keys (message_id, workspace_id, wrapped_key)
         SELECT id, $2, w FROM unnest($1::text[], $3::text[]) AS r(id, w)`,
        [messageIds, roomKey.workspaceId, messageIds.map((id) => wrapMessageKey(roomKey, id, keys.get(id)!))],
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
