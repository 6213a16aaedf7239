/**
 * A room's lifetime (docs/product/rooms.md, docs/product/payments.md PAY8, PAY12): extension by its owner or after a
 * payment, deletion by its owner, expiry, and the internal tier change (RoomTierChanged) whose expiry follows the new
 * tier. Who may call each is SOCKET_AUTHZ (proto/src/authz.ts, checked by core.userCommand); what a tier allows is
 * ENTITLEMENTS (proto/src/tiers.ts). Each use case checks, builds its events with the room after the change, and
 * records them.
 */
import { z } from 'zod';
import {
  C,
  DomainError,
  ENTITLEMENTS,
  ExtendRoomBodySchema,
  IdSchema,
  TierSchema,
  type ExtendRoomAnswer,
  type ExtendWorkspaceSchema,
  type SessionActor,
  type WorkspaceUpdate,
} from '@ephemera/proto';
import { makeEvent, parseOrThrow, systemActor } from '@ephemera/platform';
import type { RoomCommand, RoomCore } from './core.ts';
import { memberOfToken } from './member-tokens.ts';
import { toWorkspaceUpdate, type WorkspaceRow } from './repository.ts';

type In<S extends z.ZodTypeAny> = z.output<S>;

/** The internal change-tier command's body (billing, superadmin, tests; never a browser route). */
export const ChangeTierSchema = z.object({
  workspaceId: IdSchema,
  tier: TierSchema,
  reason: z.string().trim().min(1).max(200),
});
export type ChangeTierInput = z.output<typeof ChangeTierSchema>;

const HOUR_MS = 60 * 60 * 1000;

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
