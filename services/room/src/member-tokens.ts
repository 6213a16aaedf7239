/**
 * THE room-token check. A member's token (the userToken of join-workspace, the Bearer of messaging's file and
 * link-preview routes, of extend-room, the guest owner's proof in a claim) names the member whose room.members row
 * holds its sha256 now. Every event that issues, replaces or revokes one (workspace.created and member.joined issue;
 * workspace.claimed and workspace.owner-token-issued replace the owner's; member.left, member.kicked,
 * workspace.deleted and workspace.expired revoke) changes that row, and the room service applies its own events
 * before a command answers: so the check here is current the moment a command returns. Other services ask here
 * (RoomTokensApi: embedded a method call, distributed ROOM_TOKENS_PREFIX) and keep no copy of the hashes.
 */
import { z } from 'zod';
import { DomainError, memberRole } from '@ephemera/proto';
import { parseOrThrow, sha256 } from '@ephemera/platform';
import type { RoomCore } from './core.ts';
import type { MemberRow, WorkspaceRow } from './repository.ts';

export interface TokenHolder {
  ws: WorkspaceRow;
  member: MemberRow;
  /** the room's members as of `ws` (repository.ts membersAt, shared while nothing changes) */
  members: MemberRow[];
}

/**
 * Whose the token is in `ws` (a live room read by the caller; under the room's lock when the caller holds it).
 * A kicked member's token answers KICKED, any other non-member's NOT_AUTHENTICATED with `refusal` as its text.
 */
export async function holderIn(
  core: RoomCore,
  ws: WorkspaceRow,
  userToken: string,
  refusal?: string,
): Promise<TokenHolder> {
  const tokenHash = sha256(userToken);
  const { rows, byTokenHash } = await core.repo.membersAt(ws);
  const member = byTokenHash.get(tokenHash);
  if (member) return { ws, member, members: rows };
  if (await core.repo.kickedByToken(ws.id, tokenHash)) throw new DomainError('KICKED');
  throw new DomainError('NOT_AUTHENTICATED', refusal);
}

/**
 * Whose the token is, in `workspaceId`'s room when given, else in whichever room holds it. No wait for the room's
 * commands in flight: a command that issues or revokes a token answers only once its events are applied here, so
 * nobody holds a new token before it works, and a file download need not queue behind a busy room's joins. An
 * expired or deleted room: WORKSPACE_NOT_FOUND.
 */
export async function memberOfToken(
  core: RoomCore,
  userToken: string,
  workspaceId?: string | null,
  refusal?: string,
): Promise<TokenHolder> {
  const roomId = workspaceId ?? (await core.repo.workspaceOfToken(sha256(userToken)));
  if (!roomId) throw new DomainError('NOT_AUTHENTICATED', refusal);
  return holderIn(core, await core.liveWorkspace(roomId), userToken, refusal);
}

const BearerQuerySchema = z.object({
  userToken: z.string().min(1).max(200),
  workspaceId: z.string().min(1).max(64).nullish(),
});

/** RoomTokensApi: a bearer's member for another service's routes; a token of a room that is gone names nobody. */
export async function bearerMember(
  core: RoomCore,
  body: unknown,
): Promise<{ workspaceId: string; userId: string; role: 'owner' | 'admin' | 'member' }> {
  const input = parseOrThrow(BearerQuerySchema, body);
  try {
    const { ws, member } = await memberOfToken(core, input.userToken, input.workspaceId);
    return { workspaceId: ws.id, userId: member.userId, role: memberRole(member, ws.createdBy) };
  } catch (err) {
    if (err instanceof DomainError && err.code === 'WORKSPACE_NOT_FOUND') throw new DomainError('NOT_AUTHENTICATED');
    throw err;
  }
}
