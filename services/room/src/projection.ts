/** Applies room events to the room service's read model (schema room). Pure translation, no decisions. */
import { usernameKey, type Channel } from '@ephemera/proto';
import type { Projector, PoolClient } from '@ephemera/platform';
import { dmKeyOf } from './rules.ts';

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
        [p.workspaceId, p.userId, p.username, usernameKey(p.username), p.isAdmin, p.tokenHash, p.joinedAt]);
      break;
    }
    case 'channel.created':
      await insertChannel(db, event.payload.channel);
      break;
    case 'channel.renamed': {
      const c = event.payload.channel;
      await db.query('UPDATE room.channels SET name = $2, name_key = $3 WHERE id = $1', [c.id, c.name, c.name.toLowerCase()]);
      break;
    }
    case 'channel.members-changed': {
      const c = event.payload.channel;
      await db.query('UPDATE room.channels SET member_ids = $2 WHERE id = $1', [c.id, c.memberIds]);
      break;
    }
    case 'channel.deleted':
      // hidden_dms rows go with the channel (ON DELETE CASCADE)
      await db.query('DELETE FROM room.channels WHERE id = $1 AND workspace_id = $2', [event.payload.channelId, event.payload.workspaceId]);
      break;
    case 'dm.hidden': {
      const p = event.payload;
      // The time of the hide is the event's: a replay writes the same row.
      await db.query(
        `INSERT INTO room.hidden_dms (channel_id, user_id, hidden_at)
         SELECT id, $2, $3 FROM room.channels WHERE id = $1 ON CONFLICT (channel_id, user_id) DO UPDATE SET hidden_at = EXCLUDED.hidden_at`,
        [p.channelId, p.userId, event.occurredAt]);
      break;
    }
    case 'dm.reopened':
      await db.query('DELETE FROM room.hidden_dms WHERE channel_id = $1 AND user_id = $2', [event.payload.channelId, event.payload.userId]);
      break;
    case 'member.profile-updated': {
      const p = event.payload;
      await db.query(
        'UPDATE room.members SET username = $3, username_key = $4, profile_picture = $5 WHERE workspace_id = $1 AND user_id = $2',
        [p.workspaceId, p.userId, p.username, usernameKey(p.username), p.profilePicture]);
      break;
    }
    case 'member.left': {
      const p = event.payload;
      // The row (and with it the token hash and the username) goes; the departure stays so the role reads 'left'.
      await db.query('DELETE FROM room.members WHERE workspace_id = $1 AND user_id = $2', [p.workspaceId, p.userId]);
      await db.query(
        `INSERT INTO room.departed_members (workspace_id, user_id, username, reason, departed_at)
         SELECT id, $2, $3, 'left', $4 FROM room.workspaces WHERE id = $1 ON CONFLICT (workspace_id, user_id) DO NOTHING`,
        [p.workspaceId, p.userId, p.username, p.leftAt]);
      break;
    }
    case 'workspace.expired':
      // Deleting the workspace cascades to members, channels, departures and hidden DMs: nothing is left behind.
      await db.query('DELETE FROM room.workspaces WHERE id = $1', [event.payload.workspaceId]);
      return;
    default:
      return;
  }
  await db.query('UPDATE room.workspaces SET last_seq = GREATEST(last_seq, $2) WHERE id = $1', [event.aggregateId, event.sequence]);
};

async function insertChannel(db: PoolClient, c: Channel): Promise<void> {
  await db.query(
    `INSERT INTO room.channels (id, workspace_id, name, name_key, type, is_private, member_ids, created_by, created_at, dm_key)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING`,
    [c.id, c.workspaceId, c.name, c.name.toLowerCase(), c.type, c.isPrivate, c.memberIds, c.createdBy, c.createdAt,
      c.type === 'dm' ? dmKeyOf(c.memberIds) : null]);
}
