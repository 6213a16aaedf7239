/**
 * Bearer authentication for messaging's public HTTP routes: `Authorization: Bearer {userToken}` is the member's
 * room token (the same one join-workspace takes). Messaging keeps no copy of tokens: the room service, which issues,
 * replaces and revokes them, answers whose a token is now (RoomTokensApi; services/room/src/member-tokens.ts), so a
 * claim's new owner token works here at once and the old one stops. The caller is the member's ids only.
 */
import { DomainError, type RoomTokensApi } from '@ephemera/proto';
import { bearerToken, type MemberCaller } from '@ephemera/platform';

/** The bearer's member, in `workspaceId`'s room when the route names one; NOT_AUTHENTICATED (or KICKED) otherwise. */
export async function memberByBearer(tokens: RoomTokensApi, authorization: string | undefined, workspaceId?: string): Promise<MemberCaller> {
  const userToken = bearerToken(authorization);
  if (!userToken) throw new DomainError('NOT_AUTHENTICATED');
  return { kind: 'member', ...(await tokens.memberOfToken({ userToken, workspaceId: workspaceId ?? null })) };
}
