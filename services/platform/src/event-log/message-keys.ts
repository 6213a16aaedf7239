/**
 * Per-message data keys (docs/crypto.md "Messages"): a sent message's body (its text, reply quote, link preview,
 * author name and picture, file description) and each edit of its text are sealed in the event log under a key of
 * the message's own, not only under the room's key. The key is random, wrapped under the room key (AAD
 * `message-key:{messageId}`) and stored by the messaging service beside its read model (messaging.message_keys),
 * never in the log. Deleting the message destroys its key, so its `message.sent` and `message.edited` records stay
 * in the log but no longer open, even with the room's key.
 *
 * The sealing decorator (sealed.ts) asks a MessageKeyStore: the messaging service's creates keys (before their
 * events are appended) and reads them from PostgreSQL; the gateways read them from the messaging service
 * (MESSAGE_KEYS_PREFIX, remoteMessageKeys); a process without one (room, admin-analytics) gets messages without their
 * bodies, which it does not need.
 */
import { RoomKey } from '../crypto/room-key.ts';

export interface MessageKeyStore {
  /** fresh keys for these messages of one room, stored (wrapped) before their events are appended */
  create?(roomKey: RoomKey, messageIds: string[]): Promise<Map<string, RoomKey>>;
  /** the keys of these messages of one room that still exist (a deleted message's is gone) */
  get(roomKey: RoomKey, messageIds: string[]): Promise<Map<string, RoomKey>>;
}

/** The messaging service's internal port for processes that fan messages out (the gateways). */
export interface MessageKeysApi {
  /** the wrapped keys of these messages that still exist, by message id */
  wrappedKeys(input: { workspaceId: string; messageIds: string[] }): Promise<Record<string, string>>;
}
export const MESSAGE_KEYS_PREFIX = '/internal/message-keys';
export const MESSAGE_KEYS_METHODS = ['wrappedKeys'] as const satisfies readonly (keyof MessageKeysApi)[];

const wrapAad = (messageId: string) => `message-key:${messageId}`;

export const newMessageKey = (messageId: string): RoomKey => RoomKey.generate(messageId);
export const wrapMessageKey = (roomKey: RoomKey, messageId: string, key: RoomKey): string =>
  roomKey.seal(key.exportRaw().toString('base64url'), wrapAad(messageId));
export const unwrapMessageKey = (roomKey: RoomKey, messageId: string, wrapped: string): RoomKey =>
  new RoomKey(messageId, Buffer.from(roomKey.open(wrapped, wrapAad(messageId)), 'base64url'));

/** A MessageKeyStore over the messaging service's internal port: reads only. */
export function remoteMessageKeys(api: MessageKeysApi): MessageKeyStore {
  return {
    async get(roomKey, messageIds) {
      const wrapped = await api.wrappedKeys({ workspaceId: roomKey.workspaceId, messageIds });
      return new Map(Object.entries(wrapped).map(([id, w]) => [id, unwrapMessageKey(roomKey, id, w)]));
    },
  };
}
