/**
 * Bearer authentication for messaging's public HTTP routes: `Authorization: Bearer {userToken}` is the member's
 * room token (the same one join-workspace takes). Tokens are stored hashed (sha256), unique per member. The caller
 * is the member's ids only: messaging keeps no usernames (they are sealed in the room service's read model).
 */
import { DomainError, type SessionActor } from '@ephemera/proto';
import { sha256, type Pool } from '@ephemera/platform';

export async function memberByBearer(pool: Pool, authorization: string | undefined, now: Date = new Date()): Promise<Pick<SessionActor, 'workspaceId' | 'userId'>> {
  const token = /^Bearer ([A-Za-z0-9_-]{16,200})$/.exec(authorization ?? '')?.[1];
  if (!token) throw new DomainError('NOT_AUTHENTICATED');
  const { rows } = await pool.query(
    `SELECT m.workspace_id, m.user_id, w.expires_at
     FROM messaging.members m JOIN messaging.workspaces w ON w.id = m.workspace_id
     WHERE m.token_hash = $1`, [sha256(token)]);
  const r = rows[0];
  if (!r || (r.expires_at && new Date(r.expires_at).getTime() <= now.getTime())) throw new DomainError('NOT_AUTHENTICATED');
  return { workspaceId: r.workspace_id, userId: r.user_id };
}
