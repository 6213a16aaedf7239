/**
 * Messages at rest in messaging's read model (docs/crypto.md): each row keeps the Message sealed under its room's
 * key (AES-256-GCM, AAD = the message id), so text, reply quotes, link previews, author names and profile pictures
 * are never stored in the clear, and destroying the room's key makes every copy of the rows unreadable (WAL,
 * backups). Only what queries need stays plain: ids, seq, channel, author id, version, the deleted flag.
 * A message is sealed once when projected; every read that answers a client opens it with the cached key.
 */
import { DomainError, type Message } from '@ephemera/proto';
import type { RoomKey, RoomKeyring } from '@ephemera/platform';

/** A stored row: its id is the AAD its sealed body was bound to. */
export interface SealedRow { id: string; sealed_body: string }

export const sealMessage = (key: RoomKey, message: Message): string => key.sealJson(message, message.id);

export const openMessage = (key: RoomKey, row: SealedRow): Message => key.openJson<Message>(row.sealed_body, row.id);

/** The room's key for serving its members: a destroyed key means the room is gone (deleted or expired). */
export async function servingKey(keyring: RoomKeyring, workspaceId: string): Promise<RoomKey> {
  const key = await keyring.key(workspaceId);
  if (!key) throw new DomainError('WORKSPACE_NOT_FOUND');
  return key;
}
