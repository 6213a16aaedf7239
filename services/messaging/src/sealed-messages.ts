/**
 * Messages at rest in messaging's read model (docs/crypto.md): each row keeps the Message sealed under its room's
 * key (AES-256-GCM, AAD = the message id), so text, reply quotes, link previews, author names and profile pictures
 * are never stored in the clear, and destroying the room's key makes every copy of the rows unreadable (WAL,
 * backups). Only what queries need stays plain: ids, seq, channel, author id, version, the deleted flag.
 * A message is sealed once when projected; every read that answers a client opens it with the cached key.
 */
import { DomainError, type Message } from '@ephemera/proto';
import { isSealed, roomEncryptionOn, type RoomKey, type RoomKeyring } from '@ephemera/platform';

/** A stored row: its id is the AAD its sealed body was bound to. */
export interface SealedRow {
  id: string;
  sealed_body: string;
}

/**
 * A row that may be a deleted message's: a deletion destroys the sealed body (NULL: nothing of the message is left
 * to open, not even under the room's key), and what the row still answers is built from its plain columns.
 */
export interface StoredRow {
  id: string;
  sealed_body: string | null;
  workspace_id: string;
  channel_id: string;
  seq: number;
  author_id: string;
  client_message_id: string;
  created_at: Date | string;
}

/** The message of a row; a deleted one is an empty tombstone (no author name, text, file or anything else). */
export function openStored(key: RoomKey, row: StoredRow): Message {
  if (row.sealed_body !== null) return openMessage(key, { id: row.id, sealed_body: row.sealed_body });
  return {
    id: row.id,
    clientMessageId: row.client_message_id,
    workspaceId: row.workspace_id,
    channelId: row.channel_id,
    seq: row.seq,
    authorId: row.author_id,
    authorName: '',
    profilePicture: null,
    timestamp: new Date(row.created_at).toISOString(),
    type: 'text',
    content: '',
    isEdited: false,
    replyTo: null,
    reactions: {},
    linkPreview: null,
    editedAt: null,
    file: null,
  };
}

/**
 * ROOM_ENCRYPTION=off (the encryption-cost bench only, like the log's switch in event-log/sealed.ts; never in a
 * deployment) stores the Message as JSON, so the bench's "off" run leaves out the read model's sealing too.
 */
export const sealMessage = (key: RoomKey, message: Message): string =>
  roomEncryptionOn() ? key.sealJson(message, message.id) : JSON.stringify(message);

export const openMessage = (key: RoomKey, row: SealedRow): Message =>
  isSealed(row.sealed_body) ? key.openJson<Message>(row.sealed_body, row.id) : (JSON.parse(row.sealed_body) as Message);

/** The room's key for serving its members: a destroyed key means the room is gone (deleted or expired). */
export async function servingKey(keyring: RoomKeyring, workspaceId: string): Promise<RoomKey> {
  const key = await keyring.key(workspaceId);
  if (!key) throw new DomainError('WORKSPACE_NOT_FOUND');
  return key;
}
