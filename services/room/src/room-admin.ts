/**
 * Room administration (docs/product/rooms.md R21-R36): rename, password, member cap, extension, deletion,
 * kick, member roles, the room theme, and the internal tier change (RoomTierChanged). Who may call each is
 * SOCKET_AUTHZ (proto/src/authz.ts, checked by core.userCommand); what a tier allows is ENTITLEMENTS (proto/src/tiers.ts).
 * Each use case checks, builds its events with the room after the change (fan-out sends it whole), and records them.
 */
import { z } from 'zod';
import {
  C,
  DomainError,
  ENTITLEMENTS,
  ExtendRoomBodySchema,
  IdSchema,
  TierSchema,
  themeAllowed,
  type BroadcastThemeSchema,
  type ExtendRoomAnswer,
  type ExtendWorkspaceSchema,
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
import { makeEvent, parseOrThrow, systemActor } from '@ephemera/platform';
import type { RoomCommand, RoomCore } from './core.ts';
import { hashPassword } from './password.ts';
import { roomNameKey } from './name-keys.ts';
import { memberOfToken } from './member-tokens.ts';
import { toRoomUser, toWorkspaceUpdate, type WorkspaceRow } from './repository.ts';
import { roomNameProblem } from './rules.ts';

type In<S extends z.ZodTypeAny> = z.output<S>;

/** The internal change-tier command's body (billing, superadmin, tests; never a browser route). */
export const ChangeTierSchema = z.object({
  workspaceId: IdSchema,
  tier: TierSchema,
  reason: z.string().trim().min(1).max(200),
});
export type ChangeTierInput = z.output<typeof ChangeTierSchema>;

const HOUR_MS = 60 * 60 * 1000;

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
 * Extension: free of charge on pro and business (ENTITLEMENTS.freeExtension); a free room needs payment (docs/product/payments.md PAY8);
 * a room whose owner account is in grace or expired is not extended (PAY12).
 */
export function extendWorkspace(
  core: RoomCore,
  actor: SessionActor,
  input: In<typeof ExtendWorkspaceSchema>,
): Promise<WorkspaceUpdate> {
  return core.userCommand(actor, C.extendWorkspace, input.workspaceId, async (cmd) => {
    if (cmd.ws.expiresAt === null) throw new DomainError('NEVER_EXPIRES');
    if (!ENTITLEMENTS[cmd.ws.tier].freeExtension) throw new DomainError('EXTENSION_NEEDS_PAYMENT');
    await core.assertOwnerMayExtend(cmd.ws.id); // docs/product/payments.md PAY12: not in grace, not after it
    // From the current expiry (the room is live, so it is in the future): an extension adds, it never shortens.
    const from = Math.max(new Date(cmd.ws.expiresAt).getTime(), core.now().getTime());
    const expiresAt = new Date(from + input.additionalHours * HOUR_MS);
    const after = { ...cmd.ws, expiresAt };
    await cmd.record([
      cmd.event('workspace.extended', {
        workspaceId: cmd.ws.id,
        additionalHours: input.additionalHours,
        expiresAt: expiresAt.toISOString(),
        workspace: toWorkspaceUpdate(after),
      }),
    ]);
    return toWorkspaceUpdate(after);
  });
}

/**
 * A paid extension (billing, after the provider confirmed the one-time payment): the system records
 * workspace.extended from the current expiry, whatever the room's tier. WORKSPACE_NOT_FOUND when the room is gone.
 */
export async function extendPaid(
  core: RoomCore,
  input: { roomId: string; additionalHours: number; reason: string },
): Promise<WorkspaceUpdate & { roomName: string }> {
  const answer = await core.systemCommand(input.roomId, async (cmd) => {
    if (cmd.ws.expiresAt === null) return { ...toWorkspaceUpdate(cmd.ws), roomName: cmd.ws.name }; // permanent already
    const from = Math.max(new Date(cmd.ws.expiresAt).getTime(), core.now().getTime());
    const expiresAt = new Date(from + input.additionalHours * HOUR_MS);
    const after = { ...cmd.ws, expiresAt };
    await cmd.record([
      cmd.event('workspace.extended', {
        workspaceId: cmd.ws.id,
        additionalHours: input.additionalHours,
        expiresAt: expiresAt.toISOString(),
        workspace: toWorkspaceUpdate(after),
      }),
    ]);
    return { ...toWorkspaceUpdate(after), roomName: cmd.ws.name };
  });
  if (!answer) throw new DomainError('WORKSPACE_NOT_FOUND');
  return answer;
}

/**
 * POST /api/workspaces/extend-room (bearer): the caller is the token's member, never the body's userEmail; then the
 * rules of extend-workspace (owner only; pro and business free; a free room needs payment).
 */
export async function extendRoom(core: RoomCore, userToken: string | null, body: unknown): Promise<ExtendRoomAnswer> {
  if (!userToken) throw new DomainError('NOT_AUTHENTICATED');
  const input = parseOrThrow(ExtendRoomBodySchema, body);
  const { ws, member } = await memberOfToken(core, userToken, input.workspaceId);
  const actor: SessionActor = { workspaceId: ws.id, userId: member.userId, username: member.username };
  const days = input.extensionDays;
  const update = await extendWorkspace(core, actor, { workspaceId: ws.id, additionalHours: days * 24 });
  return {
    success: true,
    workspaceId: ws.id,
    expiresAt: update.expiresAt,
    message: `Room extended successfully for ${days} days!`,
  };
}

/** The owner deletes the room: its key is destroyed first, then every service removes everything of it. */
export function deleteWorkspace(core: RoomCore, actor: SessionActor): Promise<{ workspaceId: string }> {
  return core.userCommand(actor, C.deleteWorkspace, undefined, async (cmd) => {
    await core.destroyRoomKey(cmd.ws.id);
    await cmd.record([
      cmd.event('workspace.deleted', {
        workspaceId: cmd.ws.id,
        name: cmd.ws.name,
        deletedBy: actor.userId,
        deletedAt: core.now().toISOString(),
      }),
    ]);
    return { workspaceId: cmd.ws.id };
  });
}

/**
 * Expiry (the sweeper, or a name wanted by a new room): the key goes first, then workspace.expired removes the
 * room everywhere. The caller holds the room's lock or the name's.
 */
export async function expireRoom(core: RoomCore, ws: WorkspaceRow): Promise<void> {
  await core.destroyRoomKey(ws.id);
  await core.record([
    makeEvent(
      'workspace.expired',
      ws.id,
      ws.lastSeq + 1,
      {
        workspaceId: ws.id,
        name: ws.name,
        expiredAt: core.now().toISOString(),
      },
      systemActor,
    ),
  ]);
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
    if (target.userId === cmd.ws.createdBy) throw new DomainError('VALIDATION', 'The room owner stays the owner');
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

/**
 * RoomTierChanged (internal only: billing from verified payments, superadmin, tests). The expiry follows the new
 * tier: permanent on business, else the later of the current expiry and a full lifetime from now. The cap, themes
 * and extension rules follow from the table (settingsForTier, themeAllowed).
 */
export async function changeTier(core: RoomCore, input: ChangeTierInput): Promise<WorkspaceUpdate> {
  const answer = await core.systemCommand(input.workspaceId, async (cmd: RoomCommand) => {
    if (cmd.ws.tier === input.tier) return toWorkspaceUpdate(cmd.ws);
    const after = { ...cmd.ws, tier: input.tier, expiresAt: expiryFor(cmd.ws, input.tier, core.now()) };
    await cmd.record([
      cmd.event('workspace.tier-changed', {
        workspaceId: cmd.ws.id,
        tier: input.tier,
        previousTier: cmd.ws.tier,
        reason: input.reason,
        expiresAt: after.expiresAt ? after.expiresAt.toISOString() : null,
        workspace: toWorkspaceUpdate(after),
      }),
    ]);
    return toWorkspaceUpdate(after);
  });
  if (!answer) throw new DomainError('WORKSPACE_NOT_FOUND');
  return answer;
}

function expiryFor(ws: WorkspaceRow, tier: WorkspaceRow['tier'], now: Date): Date | null {
  const lifetime = ENTITLEMENTS[tier].lifetimeMs;
  if (lifetime === null) return null;
  const full = now.getTime() + lifetime;
  return new Date(ws.expiresAt === null ? full : Math.max(new Date(ws.expiresAt).getTime(), full));
}
