/** Applies room events to the room service's read model (schema room). Pure translation, no decisions. */
import type { Projector } from '@ephemera/platform';

export const projectRoomEvent: Projector = async (db, event) => {
  switch (event.type) {
    case 'workspace.created': {
      const p = event.payload;
      await db.query(
        `INSERT INTO room.workspaces (id, name, name_key, tier, created_at, expires_at, password_hash, created_by, last_seq)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING`,
        [p.workspaceId, p.name, p.nameKey, p.tier, p.createdAt, p.expiresAt, p.passwordHash, p.createdBy, event.sequence]);
      return;
    }
    case 'member.joined': {
      const p = event.payload;
      await db.query(
        `INSERT INTO room.members (workspace_id, user_id, username, username_key, is_admin, token_hash, joined_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
        [p.workspaceId, p.userId, p.username, p.username.toLowerCase(), p.isAdmin, p.tokenHash, p.joinedAt]);
      break;
    }
    case 'channel.created': {
      const c = event.payload.channel;
      await db.query(
        `INSERT INTO room.channels (id, workspace_id, name, name_key, type, is_private, member_ids, created_by, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING`,
        [c.id, c.workspaceId, c.name, c.name.toLowerCase(), c.type, c.isPrivate, c.memberIds, c.createdBy, c.createdAt]);
      break;
    }
    case 'workspace.expired':
      // Deleting the workspace cascades to members and channels: an expired room leaves nothing behind.
      await db.query('DELETE FROM room.workspaces WHERE id = $1', [event.payload.workspaceId]);
      return;
    default:
      return;
  }
  await db.query('UPDATE room.workspaces SET last_seq = GREATEST(last_seq, $2) WHERE id = $1', [event.aggregateId, event.sequence]);
};
