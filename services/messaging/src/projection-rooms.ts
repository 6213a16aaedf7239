/**
 * Room events -> what messaging must know of rooms: who is in the room and with which role, which channels exist
 * and who may read them. No decisions; every statement is idempotent (a replay gives the same rows).
 */
import { channelIsMembersOnly, type AnyEventEnvelope } from '@ephemera/proto';
import type { PoolClient } from '@ephemera/platform';

/** Tables that hold rows of a room, emptied when it expires or is deleted. */
const ROOM_TABLES = [
  'files',
  'messages',
  'channels',
  'members',
  'departed_members',
  'deleted_channels',
  'read_positions',
  'read_versions',
  'message_keys',
];

/**
 * A send's insert and a channel's or room's removal run in different transactions (the messaging topic's and the
 * room topic's). Under READ COMMITTED neither sees the other's uncommitted rows: an insert checking for the removal's
 * tombstone and a removal deleting the channel's messages could both miss, and the messages would outlive their
 * channel or room. So they are serialized per channel and per room: a removal takes an exclusive advisory lock on the
 * removed id, an insert takes shared locks on its rows' rooms and channels in its own statement, before the statement
 * whose snapshot then sees a committed removal. (Locks in sorted order; a removal holds one lock per removed id, and a
 * deadlock with a room batch removing two of them is broken by PostgreSQL and the loser retried by its consumer.)
 */
export async function holdAgainstRemoval(db: PoolClient, ids: string[]): Promise<void> {
  await db.query(
    `SELECT pg_advisory_xact_lock_shared(k) FROM (SELECT DISTINCT hashtextextended(id, 0) AS k FROM unnest($1::text[]) AS id ORDER BY k) AS keys`,
    [ids],
  );
}

/** The lock id of one member's rows in a room (their read positions): removed when the member leaves or is kicked. */
export const memberRowsId = (workspaceId: string, userId: string) => `${workspaceId}/member/${userId}`;

/** The removal's side of holdAgainstRemoval: waits for inserts into the room or channel in flight, blocks new ones. */
async function lockForRemoval(db: PoolClient, id: string): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [id]);
}

export async function projectRoomEvent(db: PoolClient, event: AnyEventEnvelope): Promise<void> {
  switch (event.type) {
    case 'workspace.created':
      await db.query(
        'INSERT INTO messaging.workspaces (id, expires_at, created_by, tier) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING',
        [event.payload.workspaceId, event.payload.expiresAt, event.payload.createdBy, event.payload.tier],
      );
      return;
    case 'member.joined':
      await db.query(
        // The username is sealed beside this row (member-names.ts, for mentions), never kept in the clear; no token
        // hash either: whose a token is, the room service answers (roomMemberOf in services/platform/src/public-route.ts).
        `INSERT INTO messaging.members (workspace_id, user_id, is_admin) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING`,
        [event.payload.workspaceId, event.payload.userId, event.payload.isAdmin],
      );
      return;
    case 'member.left':
    case 'member.kicked': {
      // The member can no longer post or read; their read positions no longer count for others' read marks.
      const { workspaceId, userId } = event.payload;
      const reason = event.type === 'member.kicked' ? 'kicked' : 'left';
      await lockForRemoval(db, memberRowsId(workspaceId, userId)); // a read mark applied meanwhile (holdAgainstRemoval)
      await db.query('DELETE FROM messaging.members WHERE workspace_id = $1 AND user_id = $2', [workspaceId, userId]);
      await db.query('DELETE FROM messaging.read_positions WHERE workspace_id = $1 AND user_id = $2', [
        workspaceId,
        userId,
      ]);
      await db.query(
        'INSERT INTO messaging.departed_members (workspace_id, user_id, reason) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
        [workspaceId, userId, reason],
      );
      return;
    }
    case 'member.role-changed':
      await db.query('UPDATE messaging.members SET is_admin = $3 WHERE workspace_id = $1 AND user_id = $2', [
        event.payload.workspaceId,
        event.payload.userId,
        event.payload.isAdmin,
      ]);
      return;
    case 'workspace.extended':
      // Messaging refuses sends in an expired room by its own copy of the expiry.
      await db.query('UPDATE messaging.workspaces SET expires_at = $2 WHERE id = $1', [
        event.payload.workspaceId,
        event.payload.expiresAt,
      ]);
      return;
    case 'workspace.tier-changed':
      // ... and limits uploads by the tier (file size, retention).
      await db.query('UPDATE messaging.workspaces SET expires_at = $2, tier = $3 WHERE id = $1', [
        event.payload.workspaceId,
        event.payload.expiresAt,
        event.payload.tier,
      ]);
      return;
    case 'channel.created': {
      // is_private: whether only the members see it (a DM always), the one fact access.ts and its SQL read.
      const c = event.payload.channel;
      await db.query(
        `INSERT INTO messaging.channels (id, workspace_id, is_private, member_ids) SELECT $1, $2, $3, $4
         WHERE NOT EXISTS (SELECT 1 FROM messaging.deleted_channels WHERE id = $1)
         ON CONFLICT (id) DO NOTHING`,
        [c.id, c.workspaceId, channelIsMembersOnly(c), c.memberIds],
      );
      return;
    }
    case 'channel.members-changed': {
      const c = event.payload.channel;
      await db.query('UPDATE messaging.channels SET is_private = $2, member_ids = $3 WHERE id = $1', [
        c.id,
        channelIsMembersOnly(c),
        c.memberIds,
      ]);
      // A removed member's read position would otherwise keep counting as "read by someone else".
      if (event.payload.removed.length > 0) {
        await db.query('DELETE FROM messaging.read_positions WHERE channel_id = $1 AND user_id = ANY ($2)', [
          c.id,
          event.payload.removed,
        ]);
      }
      return;
    }
    case 'channel.deleted': {
      // The channel goes with its messages, read positions and files (their bytes: files/service.ts removeChannel);
      // the tombstone keeps a replayed message out.
      const { workspaceId, channelId } = event.payload;
      await lockForRemoval(db, channelId);
      await db.query(
        `DELETE FROM messaging.message_keys k USING messaging.messages m WHERE m.id = k.message_id AND m.channel_id = $1`,
        [channelId],
      );
      for (const table of ['messages', 'read_positions', 'files']) {
        await db.query(`DELETE FROM messaging.${table} WHERE channel_id = $1`, [channelId]);
      }
      await db.query('DELETE FROM messaging.channels WHERE id = $1', [channelId]);
      await db.query(
        'INSERT INTO messaging.deleted_channels (id, workspace_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
        [channelId, workspaceId],
      );
      return;
    }
    case 'workspace.expired':
    case 'workspace.deleted': {
      // An expired or deleted room is removed with everything in it; the tombstone keeps a replayed message out.
      const id = event.payload.workspaceId;
      await lockForRemoval(db, id);
      for (const table of ROOM_TABLES) await db.query(`DELETE FROM messaging.${table} WHERE workspace_id = $1`, [id]);
      await db.query('DELETE FROM messaging.workspaces WHERE id = $1', [id]);
      await db.query('INSERT INTO messaging.expired_workspaces (id) VALUES ($1) ON CONFLICT DO NOTHING', [id]);
      return;
    }
    default:
      // channel.renamed, dm.hidden, dm.reopened: nothing messaging decides depends on them; member.profile-updated
      // changes only the sealed name (member-names.ts, projected beside this).
      return;
  }
}
