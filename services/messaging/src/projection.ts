/**
 * Applies room events (who may post where: projection-rooms.ts) and message events to the messaging read model.
 * No decisions. Every change is idempotent and order-safe within a topic (applyOnce records each event id), so a
 * replay of the log from the start rebuilds the same rows.
 */
import type { Message } from '@ephemera/proto';
import type { PoolClient, Projector } from '@ephemera/platform';
import { projectRoomEvent } from './projection-rooms.ts';

export const projectForMessaging: Projector = async (db, event) => {
  switch (event.type) {
    case 'message.sent': {
      const m = event.payload.message;
      // Tombstones: on a replay the room topic may be ahead, with the room expired or the channel deleted already.
      await db.query(
        `INSERT INTO messaging.messages (id, workspace_id, seq, channel_id, client_message_id, author_id, body, created_at)
         SELECT $1, $2, $3, $4, $5, $6, $7, $8
         WHERE NOT EXISTS (SELECT 1 FROM messaging.expired_workspaces WHERE id = $2)
           AND NOT EXISTS (SELECT 1 FROM messaging.deleted_channels WHERE id = $4)
         ON CONFLICT DO NOTHING`,
        [m.id, m.workspaceId, m.seq, m.channelId, m.clientMessageId, m.authorId, JSON.stringify(m), m.timestamp]);
      return;
    }
    case 'message.edited': {
      const { messageId, content, editedAt } = event.payload;
      await updateMessage(db, messageId, event.sequence, false, (m) => ({ ...m, content, isEdited: true, editedAt }));
      return;
    }
    case 'message.deleted':
      // A tombstone: the seq stays taken (numbering, dedupe of a retried send), the content does not stay.
      await updateMessage(db, event.payload.messageId, event.sequence, true,
        (m) => ({ ...m, content: '', replyTo: null, reactions: {}, linkPreview: null }));
      return;
    case 'reaction.changed': {
      const { messageId, reactions } = event.payload;
      await updateMessage(db, messageId, event.sequence, false, (m) => ({ ...m, reactions }));
      return;
    }
    case 'read.marked': {
      const { workspaceId, channelId, userId, seq } = event.payload;
      await db.query(
        `INSERT INTO messaging.read_positions (workspace_id, channel_id, user_id, seq)
         SELECT $1, $2, $3, $4
         WHERE NOT EXISTS (SELECT 1 FROM messaging.expired_workspaces WHERE id = $1)
           AND NOT EXISTS (SELECT 1 FROM messaging.deleted_channels WHERE id = $2)
           AND NOT EXISTS (SELECT 1 FROM messaging.departed_members WHERE workspace_id = $1 AND user_id = $3)
         ON CONFLICT (channel_id, user_id) DO UPDATE SET seq = GREATEST(messaging.read_positions.seq, EXCLUDED.seq)`,
        [workspaceId, channelId, userId, seq]);
      await db.query(
        `INSERT INTO messaging.read_versions (workspace_id, user_id, version)
         SELECT $1, $2, $3 WHERE NOT EXISTS (SELECT 1 FROM messaging.expired_workspaces WHERE id = $1)
         ON CONFLICT (workspace_id, user_id) DO UPDATE SET version = GREATEST(messaging.read_versions.version, EXCLUDED.version)`,
        [workspaceId, userId, event.sequence]);
      return;
    }
    default:
      await projectRoomEvent(db, event);
  }
};

/**
 * Read-modify-write of a stored message's body (json, not jsonb: it keeps \u0000, so the change is made here rather
 * than with jsonb_set). A message that is gone (expired room, deleted channel) is left alone.
 */
async function updateMessage(db: PoolClient, messageId: string, version: number, deleted: boolean, change: (m: Message) => Message) {
  const { rows } = await db.query('SELECT body FROM messaging.messages WHERE id = $1 FOR UPDATE', [messageId]);
  if (!rows[0]) return;
  const body = change(rows[0].body as Message);
  await db.query(
    'UPDATE messaging.messages SET body = $2, version = GREATEST(version, $3), deleted = deleted OR $4 WHERE id = $1',
    [messageId, JSON.stringify(body), version, deleted]);
}
