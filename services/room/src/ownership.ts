/**
 * Rooms and accounts (docs/product/accounts.md A9): a registered account claims a room with the guest owner's token
 * (workspace.claimed), gets a fresh owner token for it on any device (workspace.owner-token-issued), lists and
 * deletes its rooms, and creates rooms from the dashboard. Each owner token replaces the owner member's previous
 * one (the spec's newUserToken / ownerToken): only its hash is stored, as for every member.
 * The account comes from billing (a verified session); nothing here trusts an e-mail.
 */
import {
  C,
  DomainError,
  ENTITLEMENTS,
  assertMayCreateOrExtend,
  type AccountRoomsApi,
  type ClaimAnswer,
  type DashboardRoom,
  type SessionAccount,
  type Tier,
} from '@ephemera/proto';
import { makeEvent, newToken, sha256, userActor } from '@ephemera/platform';
import type { RoomCore } from './core.ts';
import { changeTier, extendPaid } from './room-lifetime.ts';
import { holderIn } from './member-tokens.ts';

/** Also billing's AccountRoomsApi when embedded (the same calls go over ACCOUNT_INTERNAL when distributed). */
export class RoomOwnership implements AccountRoomsApi {
  constructor(
    private readonly core: RoomCore,
    private readonly create: (
      body: unknown,
      tier: Tier,
    ) => Promise<{ workspaceId: string; userToken: string; workspace: { id: string; name: string } }>,
  ) {}

  async isOwnedBy(workspaceId: string, accountId: string): Promise<boolean> {
    return (await this.core.repo.ownerAccountOf(workspaceId)) === accountId;
  }

  /** The tier's roomsPerAccount (free 1, pro 10, business unlimited). */
  private async checkRoomAllowance(account: { accountId: string; tier: Tier }): Promise<void> {
    const max = (ENTITLEMENTS[account.tier] ?? ENTITLEMENTS.free).roomsPerAccount;
    if (max !== null && (await this.core.repo.liveRoomCountOf(account.accountId, this.core.now())) >= max)
      throw new DomainError('ROOM_LIMIT_REACHED');
  }

  /** The guest owner's token proves the claim; the owner member gets a new token (newUserToken). */
  async claim(input: { workspaceId: string; userToken: string; accountId: string; tier?: Tier }): Promise<ClaimAnswer> {
    return this.core.mutex.run(`ws:${input.workspaceId}`, async () => {
      const ws = await this.core.liveWorkspace(input.workspaceId);
      const member = await holderIn(this.core, ws, input.userToken).then(
        (h) => h.member,
        (err) => {
          if (err instanceof DomainError) return null;
          throw err;
        },
      );
      if (!member || member.userId !== ws.createdBy)
        throw new DomainError('NOT_ROOM_OWNER', "Only the room's creator can claim it");
      const owner = await this.core.repo.ownerAccountOf(ws.id);
      if (owner && owner !== input.accountId) throw new DomainError('ROOM_ALREADY_CLAIMED');
      if (!owner && input.tier) await this.checkRoomAllowance({ accountId: input.accountId, tier: input.tier });
      const token = newToken();
      await this.core.record([
        {
          ...this.event(ws.id, ws.lastSeq + 1, member.userId, 'workspace.claimed', {
            workspaceId: ws.id,
            accountId: input.accountId,
            userId: member.userId,
            tokenHash: sha256(token),
            claimedAt: this.core.now().toISOString(),
          }),
        },
      ]);
      return {
        success: true,
        newUserToken: token,
        workspaceId: ws.id,
        roomName: ws.name,
        message: 'Room ownership claimed successfully',
      };
    });
  }

  /** A fresh owner token for a room the account claimed (GET room/{name} with the owner's session, generate-room-token). */
  async ownerToken(input: {
    accountId: string;
    roomName: string;
  }): Promise<{ workspaceId: string; roomName: string; ownerToken: string }> {
    const found = await this.core.repo.workspaceByName(input.roomName.trim());
    if (!found || !this.core.isLive(found)) throw new DomainError('ROOM_NOT_FOUND');
    return this.core.mutex.run(`ws:${found.id}`, async () => {
      const ws = await this.core.liveWorkspace(found.id);
      if ((await this.core.repo.ownerAccountOf(ws.id)) !== input.accountId) throw new DomainError('NOT_ROOM_OWNER');
      const token = newToken();
      await this.core.record([
        this.event(ws.id, ws.lastSeq + 1, ws.createdBy, 'workspace.owner-token-issued', {
          workspaceId: ws.id,
          accountId: input.accountId,
          userId: ws.createdBy,
          tokenHash: sha256(token),
        }),
      ]);
      return { workspaceId: ws.id, roomName: ws.name, ownerToken: token };
    });
  }

  async roomsOf(accountId: string): Promise<DashboardRoom[]> {
    const rows = await this.core.repo.liveRoomsOf(accountId, this.core.now());
    return rows.map((r) => ({
      id: r.id,
      roomId: r.name,
      workspaceId: r.id,
      role: 'owner' as const,
      tier: r.tier,
      createdAt: r.createdAt.toISOString(),
      expiresAt: r.expiresAt?.toISOString() ?? null,
    }));
  }

  /** DELETE /api/workspaces/{id} from the dashboard: the claiming account only; like the owner's delete-workspace. */
  async deleteAsAccount(accountId: string, workspaceId: string): Promise<{ success: true; workspaceId: string }> {
    const ws = await this.core.liveWorkspace(workspaceId);
    if ((await this.core.repo.ownerAccountOf(ws.id)) !== accountId) throw new DomainError('NOT_ROOM_OWNER');
    const member = await this.core.repo.memberById(ws.id, ws.createdBy);
    await this.core.userCommand(
      { workspaceId: ws.id, userId: ws.createdBy, username: member?.username ?? '' },
      C.deleteWorkspace,
      undefined,
      async (cmd) => {
        await this.core.destroyRoomKey(cmd.ws.id);
        await cmd.record([
          cmd.event('workspace.deleted', {
            workspaceId: cmd.ws.id,
            name: cmd.ws.name,
            deletedBy: ws.createdBy,
            deletedAt: this.core.now().toISOString(),
          }),
        ]);
      },
    );
    return { success: true, workspaceId: ws.id };
  }

  /** Account deletion: every room it owns goes, keys first (docs/crypto.md). */
  async deleteAllOf(accountId: string): Promise<{ deleted: string[] }> {
    const rooms = await this.roomsOf(accountId);
    const deleted: string[] = [];
    for (const room of rooms) {
      try {
        await this.deleteAsAccount(accountId, room.workspaceId);
        deleted.push(room.workspaceId);
      } catch (err) {
        if (!(err instanceof DomainError && err.code === 'WORKSPACE_NOT_FOUND')) throw err; // expired meanwhile: gone anyway
      }
    }
    return { deleted };
  }

  /** Payments: every live room of the account takes the account's tier (RoomTierChanged; open rooms see it live). */
  async changeTierOfAccount(input: { accountId: string; tier: Tier; reason: string }): Promise<{ changed: string[] }> {
    const changed: string[] = [];
    for (const room of await this.roomsOf(input.accountId)) {
      try {
        await changeTier(this.core, { workspaceId: room.workspaceId, tier: input.tier, reason: input.reason });
        if (room.tier !== input.tier) changed.push(room.workspaceId);
      } catch (err) {
        if (!(err instanceof DomainError && err.code === 'WORKSPACE_NOT_FOUND')) throw err; // expired meanwhile
      }
    }
    return { changed };
  }

  /** Payments: a paid extension of one room (the provider confirmed the payment; billing applies it once). */
  async extendPaid(input: { roomId: string; additionalHours: number; reason: string }) {
    const update = await extendPaid(this.core, input);
    return { workspaceId: update.workspaceId, roomName: update.roomName, expiresAt: update.expiresAt };
  }

  claimWorkspace(input: { workspaceId: string; userToken: string; accountId: string; tier?: Tier }) {
    return this.claim(input);
  }
  roomsOfAccount(input: { accountId: string }) {
    return this.roomsOf(input.accountId);
  }
  deleteRoomsOfAccount(input: { accountId: string }) {
    return this.deleteAllOf(input.accountId);
  }

  /** The dashboard's room-create: a room of the account's tier, claimed at once (its owner token in the answer). */
  async createForAccount(account: SessionAccount, body: unknown) {
    assertMayCreateOrExtend(account.standing); // docs/product/payments.md PAY12: billing's word on the subscription
    await this.checkRoomAllowance(account);
    const created = await this.create(body, account.tier);
    const claim = await this.claim({
      workspaceId: created.workspaceId,
      userToken: created.userToken,
      accountId: account.accountId,
    });
    return { ...created, userToken: claim.newUserToken, isOwner: true };
  }

  private event<T extends 'workspace.claimed' | 'workspace.owner-token-issued'>(
    workspaceId: string,
    sequence: number,
    userId: string,
    type: T,
    payload: Parameters<typeof makeEvent<T>>[3],
  ) {
    return {
      ...makeEvent(type, workspaceId, sequence, payload, userActor(userId)),
      occurredAt: this.core.now().toISOString(),
    };
  }
}
