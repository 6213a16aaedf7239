/**
 * Messages at rest in messaging's read model (docs/crypto.md): each row keeps the Message sealed under its room's
 * key (AES-256-GCM, AAD = the message id), so text, reply quotes, link previews, author names and profile pictures
 * are never stored in the clear, and destroying the room's key makes every copy of the rows unreadable (WAL,
 * backups). Only what queries need stays plain: ids, seq, channel, author id, version, the deleted flag.
 * A message is sealed once when projected; every read that answers a client opens it with the cached key.
 */
import { DomainError, type Message } from '@ephemera/proto';
import { isSealed, type RoomKey, type RoomKeyring } from '@ephemera/platform';

/** A stored row: its id is the AAD its sealed body was bound to. */
export interface SealedRow { id: string; sealed_body: string }

/**
 * ROOM_ENCRYPTION=off (the encryption-cost bench only, like the log's switch in event-log/sealed.ts; never in a
 * deployment) stores the Message as JSON, so the bench's "off" run leaves out the read model's sealing too.
 */
export const sealMessage = (key: RoomKey, message: Message): string =>
  (process.env.ROOM_ENCRYPTION === 'off' ? JSON.stringify(message) : key.sealJson(message, message.id));

export const openMessage = (key: RoomKey, row: SealedRow): Message =>
  (isSealed(row.sealed_body) ? key.openJson<Message>(row.sealed_body, row.id) : JSON.parse(row.sealed_body) as Message);

/** The room's key for serving its members: a destroyed key means the room is gone (deleted or expired). */
export async function servingKey(keyring: RoomKeyring, workspaceId: string): Promise<RoomKey> {
  const key = await keyring.key(workspaceId);
  if (!key) throw new DomainError('WORKSPACE_NOT_FOUND');
  return key;
}
