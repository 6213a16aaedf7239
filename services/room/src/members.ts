/**
 * A member's own profile (update-profile) and the spec's logout (leave-workspace). Usernames are compared by
 * usernameKey (NFKC, case-insensitive): a name that renders like a member's is taken.
 */
import { C, DomainError, type RoomUser, type SessionActor, type UpdateProfileSchema } from '@ephemera/proto';
import type { z } from 'zod';
import type { RoomCore } from './core.ts';
import { toRoomUser } from './repository.ts';

export async function updateProfile(core: RoomCore, actor: SessionActor, input: z.output<typeof UpdateProfileSchema>): Promise<RoomUser> {
  return core.userCommand(actor, C.updateProfile, input.workspaceId, async (cmd) => {
    const member = cmd.member!; // SOCKET_AUTHZ allows members only
    const username = input.username ?? member.username;
    const profilePicture = input.profilePicture === undefined ? member.profilePicture : input.profilePicture;
    if (username === member.username && profilePicture === member.profilePicture) return toRoomUser(member, cmd.ws); // unchanged: no event
    if (await core.repo.usernameTaken(cmd.ws.id, username, actor.userId)) throw new DomainError('USERNAME_TAKEN');
    await cmd.record([cmd.event('member.profile-updated', { workspaceId: cmd.ws.id, userId: actor.userId, username, profilePicture })]);
    return toRoomUser({ ...member, username, profilePicture }, cmd.ws);
  });
}

/**
 * The member leaves for good: the row and its token go (the token can no longer join-workspace), the username is
 * free again, and the user id's role becomes 'left'. The gateways' fan-out of member.left ends the user's sockets.
 */
export async function leaveWorkspace(core: RoomCore, actor: SessionActor): Promise<void> {
  await core.userCommand(actor, C.leaveWorkspace, undefined, async (cmd) => {
    const member = cmd.member!;
    await cmd.record([cmd.event('member.left', {
      workspaceId: cmd.ws.id, userId: member.userId, username: member.username, leftAt: core.now().toISOString(),
    })]);
  });
}
