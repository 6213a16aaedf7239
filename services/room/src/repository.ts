/** Read queries over the room read model. Parameterized SQL only. */
import type { Pool } from '@ephemera/platform';
import { settingsForTier, type Channel, type RoomUser, type Tier, type Workspace } from '@ephemera/proto';

export interface WorkspaceRow {
  id: string; name: string; tier: Tier; createdAt: Date; expiresAt: Date | null;
  passwordHash: string | null; createdBy: string; lastSeq: number;
}
export interface MemberRow { userId: string; username: string; isAdmin: boolean; joinedAt: Date }

const WORKSPACE_COLUMNS = `id, name, tier, created_at AS "createdAt", expires_at AS "expiresAt",
  password_hash AS "passwordHash", created_by AS "createdBy", last_seq AS "lastSeq"`;

export class RoomRepository {
  constructor(private readonly pool: Pool) {}

  async workspaceById(id: string): Promise<WorkspaceRow | null> {
    const { rows } = await this.pool.query(`SELECT ${WORKSPACE_COLUMNS} FROM room.workspaces WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }

  async workspaceByName(name: string): Promise<WorkspaceRow | null> {
    const { rows } = await this.pool.query(`SELECT ${WORKSPACE_COLUMNS} FROM room.workspaces WHERE name_key = $1`, [name.toLowerCase()]);
    return rows[0] ?? null;
  }

  async members(workspaceId: string): Promise<MemberRow[]> {
    const { rows } = await this.pool.query(
      `SELECT user_id AS "userId", username, is_admin AS "isAdmin", joined_at AS "joinedAt"
       FROM room.members WHERE workspace_id = $1 ORDER BY joined_at`, [workspaceId]);
    return rows;
  }

  async memberByToken(workspaceId: string, tokenHash: string): Promise<MemberRow | null> {
    const { rows } = await this.pool.query(
      `SELECT user_id AS "userId", username, is_admin AS "isAdmin", joined_at AS "joinedAt"
       FROM room.members WHERE workspace_id = $1 AND token_hash = $2`, [workspaceId, tokenHash]);
    return rows[0] ?? null;
  }

  async memberById(workspaceId: string, userId: string): Promise<MemberRow | null> {
    const { rows } = await this.pool.query(
      `SELECT user_id AS "userId", username, is_admin AS "isAdmin", joined_at AS "joinedAt"
       FROM room.members WHERE workspace_id = $1 AND user_id = $2`, [workspaceId, userId]);
    return rows[0] ?? null;
  }

  async usernameTaken(workspaceId: string, username: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('SELECT 1 FROM room.members WHERE workspace_id = $1 AND username_key = $2', [workspaceId, username.toLowerCase()]);
    return (rowCount ?? 0) > 0;
  }

  async channels(workspaceId: string): Promise<Channel[]> {
    const { rows } = await this.pool.query(
      `SELECT id, workspace_id AS "workspaceId", name, type, is_private AS "isPrivate", member_ids AS "memberIds",
              created_by AS "createdBy", created_at AS "createdAt"
       FROM room.channels WHERE workspace_id = $1 ORDER BY created_at`, [workspaceId]);
    return rows.map((r) => ({ ...r, createdAt: new Date(r.createdAt).toISOString() }));
  }

  async channelNameTaken(workspaceId: string, name: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('SELECT 1 FROM room.channels WHERE workspace_id = $1 AND name_key = $2', [workspaceId, name.toLowerCase()]);
    return (rowCount ?? 0) > 0;
  }

  async expiredBefore(now: Date, limit = 100): Promise<WorkspaceRow[]> {
    const { rows } = await this.pool.query(
      `SELECT ${WORKSPACE_COLUMNS} FROM room.workspaces WHERE expires_at IS NOT NULL AND expires_at <= $1 ORDER BY expires_at LIMIT $2`, [now, limit]);
    return rows;
  }
}

export function toRoomUser(m: MemberRow, ws: WorkspaceRow): RoomUser {
  return {
    id: m.userId, username: m.username, isAdmin: m.isAdmin, isOwner: m.userId === ws.createdBy,
    profilePicture: null, presenceStatus: 'online', joinedAt: new Date(m.joinedAt).toISOString(),
  };
}

export function visibleTo(channel: Channel, userId: string): boolean {
  return !channel.isPrivate || channel.memberIds.includes(userId);
}

export function toWorkspace(ws: WorkspaceRow, members: MemberRow[], channels: Channel[], viewerId: string): Workspace {
  return {
    id: ws.id, workspaceId: ws.id, name: ws.name, createdBy: ws.createdBy,
    createdAt: new Date(ws.createdAt).toISOString(),
    expiresAt: ws.expiresAt ? new Date(ws.expiresAt).toISOString() : null,
    isPasswordProtected: ws.passwordHash !== null, tier: ws.tier, settings: settingsForTier(ws.tier),
    users: members.map((m) => toRoomUser(m, ws)),
    channels: channels.filter((c) => visibleTo(c, viewerId)),
  };
}
