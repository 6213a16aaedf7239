/**
 * Room administration (docs/product/rooms.md R21-R36): rename, password, member cap, kick, member roles and the
 * room theme; extension, deletion, expiry and the tier change are in room-lifetime.ts. Who may call each is
 * SOCKET_AUTHZ (proto/src/authz.ts, checked by core.userCommand); what a tier allows is ENTITLEMENTS (proto/src/tiers.ts).
 * Each use case checks, builds its events with the room after the change (fan-out sends it whole), and records them.
 */
import { z } from 'zod';
import {
  C,
  DomainError,
  SERVICE_TEXTS,
  ENTITLEMENTS,
  themeAllowed,
  type BroadcastThemeSchema,
  type KickUserSchema,
  type RenameWorkspaceSchema,
  type RoomTheme,
  type RoomUser,
  type SessionActor,
  type SetMemberRoleSchema,
  type SetWorkspaceMaxUsersSchema,
  type SetWorkspacePasswordSchema,
  type WorkspaceUpdate,
  newRoomPasswordProblem,
} from '@ephemera/proto';
import type { RoomCore } from './core.ts';
import { hashPassword } from './password.ts';
import { roomNameKey } from './name-keys.ts';
import { toRoomUser, toWorkspaceUpdate } from './repository.ts';
import { roomNameProblem } from './rules.ts';
import { expireRoom } from './room-lifetime.ts';

type In<S extends z.ZodTypeAny> = z.output<S>;

/** The rename takes the new name's address at once; the old name stops resolving (and is free for a new room). */
export function renameWorkspace(
  core: RoomCore,
  actor: SessionActor,
  input: In<typeof RenameWorkspaceSchema>,
): Promise<WorkspaceUpdate> {
  return core.userCommand(actor, C.renameWorkspace, input.workspaceId, async (cmd) => {
    const name = input.newName;
    if (name === cmd.ws.name) return toWorkspaceUpdate(cmd.ws); // unchanged: nothing to record (docs/product/rooms.md R24)
    const problem = roomNameProblem(name);
    if (problem) throw problem;
    const nameKey = name.toLowerCase();
    // The same lock as creation: a room being created under this name (or one that renders like it) and this rename
    // cannot both take it.
    return core.mutex.run(`name:${roomNameKey(name)}`, async () => {
      const holders = (await core.repo.workspacesNamedLike(name)).filter((holder) => holder.id !== cmd.ws.id);
      if (holders.some((holder) => core.isLive(holder))) throw new DomainError('ROOM_NAME_TAKEN');
      for (const holder of holders) await expireRoom(core, holder); // expired but not yet swept: the name is free
      const after = { ...cmd.ws, name };
      await cmd.record([
        cmd.event('workspace.renamed', {
          workspaceId: cmd.ws.id,
          name,
          nameKey,
          previousName: cmd.ws.name,
          workspace: toWorkspaceUpdate(after),
        }),
      ]);
      return toWorkspaceUpdate(after);
    });
  });
}

/** A password (scrypt) or none (null). Members already inside stay; new joins need it. */
export function setWorkspacePassword(
  core: RoomCore,
  actor: SessionActor,
  input: In<typeof SetWorkspacePasswordSchema>,
): Promise<WorkspaceUpdate> {
  return core.userCommand(actor, C.setWorkspacePassword, input.workspaceId, async (cmd) => {
    if (input.password === null && cmd.ws.passwordHash === null) return toWorkspaceUpdate(cmd.ws);
    const problem = input.password === null ? null : newRoomPasswordProblem(input.password);
    if (problem) throw new DomainError(problem);
    const passwordHash = input.password === null ? null : await hashPassword(input.password);
    const after = { ...cmd.ws, passwordHash };
    await cmd.record([
      cmd.event('workspace.password-changed', {
        workspaceId: cmd.ws.id,
        passwordHash,
        workspace: toWorkspaceUpdate(after),
      }),
    ]);
    return toWorkspaceUpdate(after);
  });
}

/** A cap on members at once: numbers on pro and business, "unlimited" (null) on business only. */
export function setWorkspaceMaxUsers(
  core: RoomCore,
  actor: SessionActor,
  input: In<typeof SetWorkspaceMaxUsersSchema>,
): Promise<WorkspaceUpdate> {
  return core.userCommand(actor, C.setWorkspaceMaxUsers, input.workspaceId, async (cmd) => {
    const entitled = ENTITLEMENTS[cmd.ws.tier];
    if (!entitled.customMaxUsers) throw new DomainError('MAX_USERS_NOT_IN_TIER');
    if (input.maxUsers === null && !entitled.unlimitedUsers) throw new DomainError('UNLIMITED_USERS_NOT_IN_TIER');
    // a custom cap lowers the tier's limit (pro: up to 25); only business has none
    if (input.maxUsers !== null && entitled.usersPerRoom !== null && input.maxUsers > entitled.usersPerRoom) {
      throw new DomainError(
        'MAX_USERS_ABOVE_TIER',
        `Your plan allows up to ${entitled.usersPerRoom} users: upgrade to Business for more`,
      );
    }
    if (input.maxUsers === cmd.ws.customMaxUsers) return toWorkspaceUpdate(cmd.ws);
    const after = { ...cmd.ws, customMaxUsers: input.maxUsers };
    await cmd.record([
      cmd.event('workspace.max-users-changed', {
        workspaceId: cmd.ws.id,
        customMaxUsers: input.maxUsers,
        workspace: toWorkspaceUpdate(after),
      }),
    ]);
    return toWorkspaceUpdate(after);
  });
}

/**
 * Kick: owner or admin; not oneself; an admin cannot kick the owner. The member's token is revoked for good (role
 * 'kicked'); every gateway replica ends and disconnects the user's sockets when member.kicked reaches it.
 */
export function kickUser(
  core: RoomCore,
  actor: SessionActor,
  input: In<typeof KickUserSchema>,
): Promise<{ userId: string }> {
  return core.userCommand(actor, C.kickUser, input.workspaceId, async (cmd) => {
    if (input.userId === actor.userId) throw new DomainError('CANNOT_KICK_SELF');
    const target = await core.repo.memberById(cmd.ws.id, input.userId);
    if (!target) throw new DomainError('USER_NOT_FOUND');
    if (target.userId === cmd.ws.createdBy) throw new DomainError('CANNOT_KICK_OWNER');
    const reason = input.reason || `You were removed from the room by ${cmd.member!.username}`;
    await cmd.record([
      cmd.event('member.kicked', {
        workspaceId: cmd.ws.id,
        userId: target.userId,
        username: target.username,
        kickedBy: actor.userId,
        reason,
        kickedAt: core.now().toISOString(),
      }),
    ]);
    return { userId: target.userId };
  });
}

/** The owner makes another member an admin, or takes it back (ours: the spec's Admin role needs a way in). */
export function setMemberRole(
  core: RoomCore,
  actor: SessionActor,
  input: In<typeof SetMemberRoleSchema>,
): Promise<RoomUser> {
  return core.userCommand(actor, C.setMemberRole, input.workspaceId, async (cmd) => {
    const target = await core.repo.memberById(cmd.ws.id, input.userId);
    if (!target) throw new DomainError('USER_NOT_FOUND');
    if (target.userId === cmd.ws.createdBy) throw new DomainError('VALIDATION', SERVICE_TEXTS.ownerStaysOwner);
    if (target.isAdmin === input.isAdmin) return toRoomUser(target, cmd.ws);
    const user = toRoomUser({ ...target, isAdmin: input.isAdmin }, cmd.ws);
    await cmd.record([
      cmd.event('member.role-changed', { workspaceId: cmd.ws.id, userId: target.userId, isAdmin: input.isAdmin, user }),
    ]);
    return user;
  });
}

/** The room's theme, broadcast by an owner or admin: only a theme the tier includes; custom needs its settings. */
export function broadcastTheme(
  core: RoomCore,
  actor: SessionActor,
  input: In<typeof BroadcastThemeSchema>,
): Promise<RoomTheme> {
  return core.userCommand(actor, C.broadcastTheme, input.workspaceId, async (cmd) => {
    if (!themeAllowed(cmd.ws.tier, input.themeId)) throw new DomainError('THEME_NOT_IN_TIER');
    const customTheme = input.themeId === 'custom' ? (input.customTheme ?? null) : null;
    if (input.themeId === 'custom' && !customTheme) throw new DomainError('CUSTOM_THEME_REQUIRED');
    // The logo is shown through messaging's signed image proxy (img-src 'self': members' browsers never contact the
    // logo's host); only the server makes that path, so a client cannot get any other address signed.
    const logoSrc = customTheme?.logoUrl ? core.imageSigner.path(customTheme.logoUrl) : null;
    const theme: RoomTheme = {
      themeId: input.themeId,
      customTheme,
      changedBy: actor.userId,
      changedByName: cmd.member!.username,
      logoSrc,
    };
    await cmd.record([cmd.event('workspace.theme-changed', { workspaceId: cmd.ws.id, ...theme })]);
    return theme;
  });
}
