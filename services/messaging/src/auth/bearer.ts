/**
 * Bearer authentication for messaging's public HTTP routes: `Authorization: Bearer {userToken}` is the member's
 * room token (the same one join-workspace takes). Messaging keeps no copy of tokens: the room service, which issues,
 * replaces and revokes them, answers whose a token is now (RoomTokensApi; services/room/src/member-tokens.ts), so a
 * claim's new owner token works here at once and the old one stops. The caller is the member's ids only.
 */
import { DomainError, type RoomTokensApi, type SessionActor } from '@ephemera/proto';

/** The token of `Authorization: Bearer {token}`, or null. */
export const bearerTokenOf = (authorization: string | undefined) => /^Bearer ([A-Za-z0-9_-]{16,200})$/.exec(authorization ?? '')?.[1] ?? null;

/** The bearer's member, in `workspaceId`'s room when the route names one; NOT_AUTHENTICATED (or KICKED) otherwise. */
export async function memberByBearer(tokens: RoomTokensApi, authorization: string | undefined, workspaceId?: string): Promise<Pick<SessionActor, 'workspaceId' | 'userId'>> {
  const userToken = bearerTokenOf(authorization);
  if (!userToken) throw new DomainError('NOT_AUTHENTICATED');
  return tokens.memberOfToken({ userToken, workspaceId: workspaceId ?? null });
}
