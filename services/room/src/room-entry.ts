/**
 * Entering a room: creating one (its creator becomes its owner, the first member) and joining one as a new member
 * under a username, behind the room's password when it has one. Both record through RoomCore.record (core.ts).
 */
import {
  DomainError,
  LIFETIME_MS,
  CreateWorkspaceBodySchema,
  JoinWorkspaceBodySchema,
  newRoomPasswordProblem,
  settingsForTier,
  type AnyEventEnvelope,
  type CreateWorkspaceAnswer,
  type JoinWorkspaceAnswer,
  type Tier,
} from '@ephemera/proto';
import { makeEvent, newId, newToken, parseOrThrow, sha256, userActor } from '@ephemera/platform';
import type { RoomCore } from './core.ts';
import { hashPassword } from './password.ts';
import { roomNameKey } from './name-keys.ts';
import { toRoomUser, type WorkspaceRow } from './repository.ts';
import { roomNameProblem } from './rules.ts';

/** A new room: its owner's member joins it in the same record (workspace.created, member.joined). */
export async function createWorkspace(
  core: RoomCore,
  body: unknown,
  tier: Tier,
  expire: (ws: WorkspaceRow) => Promise<void>,
): Promise<CreateWorkspaceAnswer> {
  const input = parseOrThrow(CreateWorkspaceBodySchema, body);
  const problem = roomNameProblem(input.name);
  if (problem) throw problem;
  const password = input.hasPassword === false ? null : input.password?.trim() || null;
  if (input.hasPassword && !password) throw new DomainError('PASSWORD_REQUIRED');
  const passwordProblem = password === null ? null : newRoomPasswordProblem(password);
  if (passwordProblem) throw new DomainError(passwordProblem);
  const nameKey = input.name.toLowerCase();

  // One lock for every name that renders alike (rename takes it too): two look-alikes cannot both be taken.
  return core.mutex.run(`name:${roomNameKey(input.name)}`, async () => {
    const holders = await core.repo.workspacesNamedLike(input.name); // the name or one that renders like it
    if (holders.some((ws) => core.isLive(ws))) throw new DomainError('ROOM_NAME_TAKEN');
    for (const ws of holders) await expire(ws); // expired but not yet swept: sweep it now so the name is free

    const now = core.now();
    const lifetime = LIFETIME_MS[tier];
    const workspaceId = newId();
    const userId = newId();
    const token = newToken();
    const actor = userActor(userId);
    const events: AnyEventEnvelope[] = [
      makeEvent(
        'workspace.created',
        workspaceId,
        1,
        {
          workspaceId,
          name: input.name,
          nameKey,
          tier,
          createdAt: now.toISOString(),
          expiresAt: lifetime === null ? null : new Date(now.getTime() + lifetime).toISOString(),
          passwordHash: password ? await hashPassword(password) : null,
          createdBy: userId,
        },
        actor,
      ),
      makeEvent(
        'member.joined',
        workspaceId,
        2,
        {
          workspaceId,
          userId,
          username: input.username,
          isAdmin: true,
          tokenHash: sha256(token),
          joinedAt: now.toISOString(),
        },
        actor,
      ),
    ];
    // The room's key exists before its first event: every event of the room is sealed under it (docs/crypto.md).
    await core.deps.roomKeys?.create(workspaceId);
    try {
      await core.record(events);
    } catch (err) {
      await core.deps.roomKeys?.destroy(workspaceId).catch(() => {}); // the room was never created
      throw err;
    }
    const ws = await core.repo.workspaceById(workspaceId);
    const member = await core.repo.memberById(workspaceId, userId);
    // recorded but not yet applied here (the read model failed after the append; our consumer applies it): the
    // caller is told to try again rather than answered from rows that are not there
    if (!ws || !member) throw new DomainError('UNAVAILABLE');
    return {
      workspaceId,
      workspace: { id: workspaceId, name: ws.name },
      userToken: token,
      user: toRoomUser(member, ws),
    };
  });
}

/**
 * The password is checked before the room's lock is taken (password-guard.ts: guesses never hold up the room's
 * members and commands); under the lock, a password changed meanwhile is checked again.
 */
export async function joinWorkspace(
  core: RoomCore,
  workspaceId: string,
  body: unknown,
  checkPassword: (password: string, stored: string) => Promise<void>,
): Promise<JoinWorkspaceAnswer> {
  const input = parseOrThrow(JoinWorkspaceBodySchema, body);
  const password = input.password?.trim();
  const checked = await core.liveWorkspace(workspaceId);
  if (checked.passwordHash) {
    if (!password) throw new DomainError('PASSWORD_REQUIRED');
    await checkPassword(password, checked.passwordHash);
  }
  return core.mutex.run(`ws:${workspaceId}`, async () => {
    const ws = await core.liveWorkspace(workspaceId);
    if (ws.passwordHash && ws.passwordHash !== checked.passwordHash) {
      if (!password) throw new DomainError('PASSWORD_REQUIRED');
      await checkPassword(password, ws.passwordHash);
    }
    if (await core.repo.usernameTaken(ws.id, input.username)) throw new DomainError('USERNAME_TAKEN');
    // The cap counts the members in the room now (left and kicked members no longer count).
    const maxUsers = settingsForTier(ws.tier, ws.customMaxUsers).maxUsers;
    if (maxUsers !== null && (await core.repo.memberCount(ws.id)) >= maxUsers) throw new DomainError('ROOM_FULL');

    const userId = newId();
    const token = newToken();
    await core.record([
      makeEvent(
        'member.joined',
        ws.id,
        ws.lastSeq + 1,
        {
          workspaceId: ws.id,
          userId,
          username: input.username,
          isAdmin: false,
          tokenHash: sha256(token),
          joinedAt: core.now().toISOString(),
        },
        userActor(userId),
      ),
    ]);
    const member = await core.repo.memberById(ws.id, userId);
    if (!member) throw new DomainError('UNAVAILABLE'); // recorded, not yet applied here (as above)
    return { workspaceId: ws.id, userToken: token, user: toRoomUser(member, ws) };
  });
}
