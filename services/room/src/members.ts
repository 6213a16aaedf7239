/**
 * A member's own profile (update-profile) and the spec's logout (leave-workspace). Usernames are compared by
 * usernameKey (NFKC, case-insensitive): a name that renders like a member's is taken.
 */
import { API, C, DomainError, type RoomUser, type SessionActor, type UpdateProfileSchema } from '@ephemera/proto';
import type { z } from 'zod';
import type { RoomCore } from './core.ts';
import { toRoomUser } from './repository.ts';

export async function updateProfile(
  core: RoomCore,
  actor: SessionActor,
  input: z.output<typeof UpdateProfileSchema>,
): Promise<RoomUser> {
  return core.userCommand(actor, C.updateProfile, input.workspaceId, async (cmd) => {
    const member = cmd.member!; // SOCKET_AUTHZ allows members only
    const username = input.username ?? member.username;
    const profilePicture = input.profilePicture === undefined ? member.profilePicture : input.profilePicture;
    if (username === member.username && profilePicture === member.profilePicture) return toRoomUser(member, cmd.ws); // unchanged: no event
    // An uploaded picture is one of this room's stored files (POST .../files with purpose=avatar), nothing else of ours.
    if (profilePicture?.startsWith('/api/') && !isRoomFile(profilePicture, cmd.ws.id))
      throw new DomainError('PROFILE_IMAGE_TYPE');
    if (await core.repo.usernameTaken(cmd.ws.id, username, actor.userId)) throw new DomainError('USERNAME_TAKEN');
    await cmd.record([
      cmd.event('member.profile-updated', { workspaceId: cmd.ws.id, userId: actor.userId, username, profilePicture }),
    ]);
    return toRoomUser({ ...member, username, profilePicture }, cmd.ws);
  });
}

const isRoomFile = (path: string, workspaceId: string) => {
  const prefix = API.file(workspaceId, '');
  return path.startsWith(prefix) && /^[A-Za-z0-9_-]{1,64}$/.test(path.slice(prefix.length));
};

/**
 * The member leaves for good: the row and its token go (the token can no longer join-workspace), the username is
 * free again, and the user id's role becomes 'left'. The gateways' fan-out of member.left ends the user's sockets.
 */
export async function leaveWorkspace(core: RoomCore, actor: SessionActor): Promise<void> {
  await core.userCommand(actor, C.leaveWorkspace, undefined, async (cmd) => {
    const member = cmd.member!;
    await cmd.record([
      cmd.event('member.left', {
        workspaceId: cmd.ws.id,
        userId: member.userId,
        username: member.username,
        leftAt: core.now().toISOString(),
      }),
    ]);
  });
}
