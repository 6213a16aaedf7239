/** Applies room events (who may post where) and message events to the messaging read model. No decisions. */
import type { Projector } from '@ephemera/platform';

export const projectForMessaging: Projector = async (db, event) => {
  switch (event.type) {
    case 'workspace.created':
      await db.query('INSERT INTO messaging.workspaces (id, expires_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING',
        [event.payload.workspaceId, event.payload.expiresAt]);
      return;
    case 'member.joined':
      await db.query('INSERT INTO messaging.members (workspace_id, user_id, username, token_hash) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING',
        [event.payload.workspaceId, event.payload.userId, event.payload.username, event.payload.tokenHash]);
      return;
    case 'channel.created': {
      const c = event.payload.channel;
      await db.query('INSERT INTO messaging.channels (id, workspace_id, is_private, member_ids) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING',
        [c.id, c.workspaceId, c.isPrivate, c.memberIds]);
      return;
    }
    case 'workspace.expired': {
      // An expired room is removed with everything in it.
      const id = event.payload.workspaceId;
      for (const table of ['messages', 'channels', 'members']) {
        await db.query(`DELETE FROM messaging.${table} WHERE workspace_id = $1`, [id]);
      }
      await db.query('DELETE FROM messaging.workspaces WHERE id = $1', [id]);
      await db.query('INSERT INTO messaging.expired_workspaces (id) VALUES ($1) ON CONFLICT DO NOTHING', [id]);
      return;
    }
    case 'message.sent': {
      const m = event.payload.message;
      await db.query(
        `INSERT INTO messaging.messages (id, workspace_id, seq, channel_id, client_message_id, author_id, body, created_at)
         SELECT $1, $2, $3, $4, $5, $6, $7, $8
         WHERE NOT EXISTS (SELECT 1 FROM messaging.expired_workspaces WHERE id = $2)
         ON CONFLICT DO NOTHING`,
        [m.id, m.workspaceId, m.seq, m.channelId, m.clientMessageId, m.authorId, JSON.stringify(m), m.timestamp]);
      return;
    }
  }
};
