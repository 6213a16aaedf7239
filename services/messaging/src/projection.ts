/**
 * Applies room events (who may post where: projection-rooms.ts) and message events to the messaging read model.
 * No decisions. Every change is idempotent and order-safe within a topic (applyOnce records each event id), so a
 * replay of the log from the start rebuilds the same rows. Messages are stored sealed under their room's key
 * (sealed-messages.ts); a room whose key was destroyed is gone, and nothing of it is stored again.
 */
import type { AnyEventEnvelope, Message } from '@ephemera/proto';
import { writingRuns, type PoolClient, type Projector, type RoomKey, type RoomKeyring } from '@ephemera/platform';
import { holdAgainstRemoval, memberRowsId, projectRoomEvent } from './projection-rooms.ts';
import { openMessage, sealMessage } from './sealed-messages.ts';
import { attachFile, projectFileEvent } from './files/projection.ts';
import { projectChannelName } from './channel-names.ts';
import { projectMemberName } from './member-names.ts';

type MessageSent = Extract<AnyEventEnvelope, { type: 'message.sent' }>;

export function messagingProjector(keyring: RoomKeyring): Projector {
  const project: Projector = async (db, event) => {
    switch (event.type) {
      case 'message.sent':
        await insertMessages(db, keyring, [event]);
        return;
      case 'message.edited': {
        const { workspaceId, messageId, content, editedAt } = event.payload;
        const edited = await updateMessage(db, await keyring.key(workspaceId), messageId, event.sequence, (m) => ({
          ...m,
          content,
          isEdited: true,
          editedAt,
        }));
        // the new text's mentions replace the old text's (an event without them: the new text mentions nobody)
        if (edited)
          await db.query('UPDATE messaging.messages SET mentioned_user_ids = $2 WHERE id = $1', [
            messageId,
            event.payload.bodyGone ? [] : (event.payload.mentionedUserIds ?? []),
          ]);
        return;
      }
      case 'message.deleted':
        // A tombstone: the seq stays taken (numbering, dedupe of a retried send), the sealed body goes (NULL): nothing
        // of the message is left to open, even with the room's key (sealed-messages.ts openStored). Its own key goes
        // too, so its events in the log no longer open either (message-keys.ts).
        await db.query(
          `UPDATE messaging.messages SET sealed_body = NULL, mentioned_user_ids = '{}', version = GREATEST(version, $2),
             deleted = true WHERE id = $1`,
          [event.payload.messageId, event.sequence],
        );
        await db.query('DELETE FROM messaging.message_keys WHERE message_id = $1', [event.payload.messageId]);
        return;
      case 'reaction.changed': {
        const { workspaceId, messageId, reactions } = event.payload;
        await updateMessage(db, await keyring.key(workspaceId), messageId, event.sequence, (m) => ({
          ...m,
          reactions,
        }));
        return;
      }
      case 'read.marked': {
        const { workspaceId, channelId, userId, seq } = event.payload;
        // not for a room, channel or member being removed meanwhile: its removal would miss this row
        await holdAgainstRemoval(db, [workspaceId, channelId, memberRowsId(workspaceId, userId)]);
        await db.query(
          `INSERT INTO messaging.read_positions (workspace_id, channel_id, user_id, seq)
           SELECT $1, $2, $3, $4
           WHERE NOT EXISTS (SELECT 1 FROM messaging.expired_workspaces WHERE id = $1)
             AND NOT EXISTS (SELECT 1 FROM messaging.deleted_channels WHERE id = $2)
             AND NOT EXISTS (SELECT 1 FROM messaging.departed_members WHERE workspace_id = $1 AND user_id = $3)
           ON CONFLICT (channel_id, user_id) DO UPDATE SET seq = GREATEST(messaging.read_positions.seq, EXCLUDED.seq)`,
          [workspaceId, channelId, userId, seq],
        );
        await db.query(
          `INSERT INTO messaging.read_versions (workspace_id, user_id, version)
           SELECT $1, $2, $3 WHERE NOT EXISTS (SELECT 1 FROM messaging.expired_workspaces WHERE id = $1)
           ON CONFLICT (workspace_id, user_id) DO UPDATE SET version = GREATEST(messaging.read_versions.version, EXCLUDED.version)`,
          [workspaceId, userId, event.sequence],
        );
        return;
      }
      case 'member.joined':
      case 'member.profile-updated':
        await projectRoomEvent(db, event);
        // the name a mention of the member is recognised by (member-names.ts)
        await projectMemberName(db, await keyring.key(event.payload.workspaceId), event);
        return;
      case 'channel.created':
      case 'channel.renamed':
        await projectRoomEvent(db, event);
        // the moderation viewer's channel name and type (channel-names.ts)
        await projectChannelName(db, await keyring.key(event.payload.workspaceId), event.payload.channel);
        return;
      default:
        if (await projectFileEvent(db, keyring, event)) return;
        await projectRoomEvent(db, event);
    }
  };
  // A send batch's messages in one statement; everything else one by one, in order.
  return writingRuns('message.sent', project, (db, events) => insertMessages(db, keyring, events));
}

/** a sent message as stored: sealed (null: delivered without its body) and whom it mentions */
interface Row {
  m: Message;
  sealed: string | null;
  mentioned: string[];
}

/**
 * Stores sent messages, sealed, with one INSERT whatever their number (arrays unnested: one prepared statement).
 * Tombstones: on a replay the room topic may be ahead, with the room expired or the channel deleted already. A
 * message delivered without its body (deleted since: its key is gone) is stored as a deleted message's row.
 */
async function insertMessages(db: PoolClient, keyring: RoomKeyring, events: MessageSent[]): Promise<void> {
  const rows: Row[] = [];
  for (const event of events) {
    const m = event.payload.message;
    const key = await keyring.key(m.workspaceId);
    if (!key) continue;
    if (event.payload.bodyGone) rows.push({ m, sealed: null, mentioned: [] });
    else rows.push({ m, sealed: sealMessage(key, m), mentioned: event.payload.mentionedUserIds ?? [] });
  }
  if (rows.length === 0) return;
  // the search index's insert follows in this transaction (composeProjectors): these locks cover it too
  await holdAgainstRemoval(db, [...rows.map((r) => r.m.workspaceId), ...rows.map((r) => r.m.channelId)]);
  const column = <T>(f: (r: Row) => T) => rows.map(f);
  // the mentioned ids of each row as one JSON array (unnest cannot take arrays of uneven length)
  await db.query(
    `INSERT INTO messaging.messages (id, workspace_id, seq, channel_id, client_message_id, author_id, sealed_body, created_at, deleted, mentioned_user_ids)
     SELECT r.id, r.workspace_id, r.seq, r.channel_id, r.client_message_id, r.author_id, r.sealed_body, r.created_at, r.sealed_body IS NULL,
            ARRAY(SELECT json_array_elements_text(r.mentioned))
     FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamptz[], $9::json[])
       AS r(id, workspace_id, seq, channel_id, client_message_id, author_id, sealed_body, created_at, mentioned)
     WHERE NOT EXISTS (SELECT 1 FROM messaging.expired_workspaces e WHERE e.id = r.workspace_id)
       AND NOT EXISTS (SELECT 1 FROM messaging.deleted_channels d WHERE d.id = r.channel_id)
     ON CONFLICT DO NOTHING`,
    [
      column((r) => r.m.id),
      column((r) => r.m.workspaceId),
      column((r) => r.m.seq),
      column((r) => r.m.channelId),
      column((r) => r.m.clientMessageId),
      column((r) => r.m.authorId),
      column((r) => r.sealed),
      column((r) => r.m.timestamp),
      column((r) => JSON.stringify(r.mentioned)),
    ],
  );
  for (const { m, sealed } of rows) if (m.file && sealed !== null) await attachFile(db, m.file.id, m.id);
}

/**
 * Read-modify-write of a stored message: opened, changed, sealed again under a fresh nonce. A message that is gone
 * (expired room, deleted channel, destroyed key) is left alone.
 */
async function updateMessage(
  db: PoolClient,
  key: RoomKey | null,
  messageId: string,
  version: number,
  change: (m: Message) => Message,
): Promise<boolean> {
  if (!key) return false;
  const { rows } = await db.query('SELECT id, sealed_body FROM messaging.messages WHERE id = $1 FOR UPDATE', [
    messageId,
  ]);
  if (!rows[0] || rows[0].sealed_body === null) return false; // gone, or deleted: nothing left to change
  const body = change(openMessage(key, rows[0]));
  await db.query('UPDATE messaging.messages SET sealed_body = $2, version = GREATEST(version, $3) WHERE id = $1', [
    messageId,
    sealMessage(key, body),
    version,
  ]);
  return true;
}
