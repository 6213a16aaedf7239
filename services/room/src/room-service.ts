/**
 * The room service's use cases. Each command checks (role from the read model against the authorization table,
 * then the resource rules), decides the events and records them through RoomCore.record(), the one write path
 * (durable in the log, then applied to the read model), before answering. Commands for one workspace (or one name,
 * for creation) run one at a time through the keyed mutex, which keeps the per-workspace sequence gap-free. One
 * room-service writer per workspace is assumed (see docs/architecture.md). The room experience's use cases live
 * by feature in channels.ts, dms.ts and members.ts; room administration in room-admin.ts.
 */
import {
  C,
  DomainError,
  SOCKET_AUTHZ,
  UsernameSchema,
  authorizeCaller,
  settingsForTier,
  type AccountSessionsApi,
  type Channel,
  type CheckNameAnswer,
  type CheckUsernameAnswer,
  type CreateWorkspaceAnswer,
  type JoinWorkspaceAnswer,
  type Message,
  type RoomApi,
  type RoomTokensApi,
  type RoomLookupAnswer,
  type RoomUser,
  type SessionActor,
  type Tier,
  type WorkspaceInfoAnswer,
  type ExtendRoomAnswer,
  type CreateChannelSchema,
  type CreateDmChannelSchema,
  type DeleteDmSchema,
  type DeleteChannelSchema,
  type RenameChannelSchema,
  type UpdateChannelMembersSchema,
  type UpdateProfileSchema,
  type RenameWorkspaceSchema,
  type SetWorkspacePasswordSchema,
  type SetWorkspaceMaxUsersSchema,
  type ExtendWorkspaceSchema,
  type KickUserSchema,
  type SetMemberRoleSchema,
  type BroadcastThemeSchema,
  type RoomTheme,
  type WorkspaceUpdate,
  type AuthorizeCallInput,
  type AuthorizePresenceInput,
} from '@ephemera/proto';
import type { z } from 'zod';
import { parseOrThrow, type KeyedMutex } from '@ephemera/platform';
import { RoomCore, type RoomDeps } from './core.ts';
import { plainPasswordCheck } from './password-guard.ts';
import { RoomRepository, toRoomUser, toWorkspace, type WorkspaceRow } from './repository.ts';
import * as channels from './channels.ts';
import * as dms from './dms.ts';
import * as members from './members.ts';
import * as admin from './room-admin.ts';
import * as entry from './room-entry.ts';
import * as lifetime from './room-lifetime.ts';
import { RoomOwnership } from './ownership.ts';
import { bearerMember, memberOfToken } from './member-tokens.ts';
import * as calls from './calls.ts';
import { roomNameProblem } from './rules.ts';

export type RoomServiceDeps = RoomDeps;
type In<S extends z.ZodTypeAny> = z.output<S>;

export class RoomService implements RoomApi, RoomTokensApi {
  readonly repo: RoomRepository;
  /** rooms and accounts: claims, owner tokens, the dashboard's rooms */
  readonly ownership: RoomOwnership;
  /** the one write path; also the superadmin's commands' (superadmin-rooms.ts) */
  readonly core: RoomCore;
  private readonly mutex: KeyedMutex;
  private readonly now: () => Date;

  constructor(private readonly deps: RoomServiceDeps) {
    this.core = new RoomCore(deps);
    this.repo = this.core.repo;
    this.mutex = this.core.mutex;
    this.now = this.core.now;
    this.ownership = new RoomOwnership(this.core, (body, tier) => this.createWorkspace(body, tier));
  }

  /** Billing's answers about accounts (the owner's standing when a room is extended): embedded billing, or its client. */
  useAccounts(accounts: Pick<AccountSessionsApi, 'standingOf'>): void {
    this.core.accountStanding = (accountId) => accounts.standingOf(accountId);
  }

  // ---------- queries ----------

  async checkName(rawName: string): Promise<CheckNameAnswer> {
    const name = rawName.trim();
    const problem = roomNameProblem(name);
    if (problem) return { available: false, message: problem.message };
    const taken = (await this.repo.workspacesNamedLike(name)).some((ws) => this.isLive(ws)); // the name or a look-alike
    return taken
      ? { available: false, message: 'Room name is already taken' }
      : { available: true, message: 'Room name is available' };
  }

  async lookupByName(roomName: string): Promise<RoomLookupAnswer> {
    let ws = await this.liveWorkspaceByName(roomName.trim());
    if (!ws) {
      // A name just taken (a rename fanned out before we applied it) is found once the commands in flight are applied.
      await this.mutex.settledAll();
      ws = await this.liveWorkspaceByName(roomName.trim());
    }
    if (!ws) throw new DomainError('ROOM_NOT_FOUND');
    return {
      workspaceId: ws.id,
      name: ws.name,
      isPasswordProtected: ws.passwordHash !== null,
      isNewRoom: false,
      tier: ws.tier,
      expiresAt: ws.expiresAt ? ws.expiresAt.toISOString() : null,
    };
  }

  async info(workspaceId: string): Promise<WorkspaceInfoAnswer> {
    await this.core.settled(workspaceId);
    const ws = await this.liveWorkspace(workspaceId);
    const members = await this.repo.members(ws.id);
    return {
      workspaceId: ws.id,
      name: ws.name,
      isPasswordProtected: ws.passwordHash !== null,
      isNewRoom: members.length === 0,
      expiresAt: ws.expiresAt ? ws.expiresAt.toISOString() : null,
      createdAt: ws.createdAt.toISOString(),
      settings: settingsForTier(ws.tier, ws.customMaxUsers),
    };
  }

  async checkUsername(workspaceId: string, rawUsername: string): Promise<CheckUsernameAnswer> {
    const ws = await this.liveWorkspace(workspaceId);
    // The same rules as joining: NFKC, no invisible characters, 2-20; taken compares usernameKey (case-insensitive).
    const parsed = UsernameSchema.safeParse(rawUsername);
    if (!parsed.success) return { available: false, message: parsed.error.issues[0]?.message ?? 'Invalid username' };
    return (await this.repo.usernameTaken(ws.id, parsed.data))
      ? { available: false, message: 'Username is already taken' }
      : { available: true, message: 'Username is available' };
  }

  // ---------- commands (HTTP) ----------

  createWorkspace(body: unknown, tier: Tier = 'free'): Promise<CreateWorkspaceAnswer> {
    return entry.createWorkspace(this.core, body, tier, (ws) => this.expire(ws));
  }

  /** Joining under a password checked first (room-entry.ts). */
  joinWorkspace(
    workspaceId: string,
    body: unknown,
    checkPassword: (password: string, stored: string) => Promise<void> = plainPasswordCheck,
  ): Promise<JoinWorkspaceAnswer> {
    return entry.joinWorkspace(this.core, workspaceId, body, checkPassword);
  }

  // ---------- RoomApi (called by the gateway) ----------

  async authenticate(input: { workspaceId: string; userToken: string; username: string }) {
    // The room as its members see it: after the commands whose events they may already have (RoomCore.settled).
    await this.core.settled(input.workspaceId);
    // The token names the member (member-tokens.ts, the one check); a replaced or revoked token names nobody any more.
    const {
      ws,
      member,
      members: roomMembers,
    } = await memberOfToken(this.core, input.userToken, input.workspaceId, 'Failed to join workspace');
    authorizeCaller(SOCKET_AUTHZ[C.joinWorkspace], { member, createdBy: ws.createdBy });
    const visible = await this.repo.channelsVisibleTo(ws, member.userId);
    return { user: toRoomUser(member, ws), workspace: toWorkspace(ws, roomMembers, visible, member.userId) };
  }

  createChannel(actor: SessionActor, input: In<typeof CreateChannelSchema>): Promise<Channel> {
    return channels.createChannel(this.core, actor, input);
  }
  authorizePresence(actor: SessionActor, input: AuthorizePresenceInput) {
    return channels.authorizePresence(this.core, actor, input);
  }
  renameChannel(actor: SessionActor, input: In<typeof RenameChannelSchema>): Promise<Channel> {
    return channels.renameChannel(this.core, actor, input);
  }
  deleteChannel(actor: SessionActor, input: In<typeof DeleteChannelSchema>) {
    return channels.deleteChannel(this.core, actor, input);
  }
  updateChannelMembers(actor: SessionActor, input: In<typeof UpdateChannelMembersSchema>): Promise<Channel> {
    return channels.updateChannelMembers(this.core, actor, input);
  }
  createDmChannel(actor: SessionActor, input: In<typeof CreateDmChannelSchema>): Promise<Channel> {
    return dms.createDmChannel(this.core, actor, input);
  }
  deleteDm(actor: SessionActor, input: In<typeof DeleteDmSchema>) {
    return dms.deleteDm(this.core, actor, input);
  }
  updateProfile(actor: SessionActor, input: In<typeof UpdateProfileSchema>): Promise<RoomUser> {
    return members.updateProfile(this.core, actor, input);
  }
  leaveWorkspace(actor: SessionActor): Promise<void> {
    return members.leaveWorkspace(this.core, actor);
  }

  // ---------- room administration (room-admin.ts) ----------

  renameWorkspace(actor: SessionActor, input: In<typeof RenameWorkspaceSchema>): Promise<WorkspaceUpdate> {
    return admin.renameWorkspace(this.core, actor, input);
  }
  setWorkspacePassword(actor: SessionActor, input: In<typeof SetWorkspacePasswordSchema>): Promise<WorkspaceUpdate> {
    return admin.setWorkspacePassword(this.core, actor, input);
  }
  setWorkspaceMaxUsers(actor: SessionActor, input: In<typeof SetWorkspaceMaxUsersSchema>): Promise<WorkspaceUpdate> {
    return admin.setWorkspaceMaxUsers(this.core, actor, input);
  }
  extendWorkspace(actor: SessionActor, input: In<typeof ExtendWorkspaceSchema>): Promise<WorkspaceUpdate> {
    return lifetime.extendWorkspace(this.core, actor, input);
  }
  deleteWorkspace(actor: SessionActor): Promise<{ workspaceId: string }> {
    return lifetime.deleteWorkspace(this.core, actor);
  }
  kickUser(actor: SessionActor, input: In<typeof KickUserSchema>): Promise<{ userId: string }> {
    return admin.kickUser(this.core, actor, input);
  }
  setMemberRole(actor: SessionActor, input: In<typeof SetMemberRoleSchema>): Promise<RoomUser> {
    return admin.setMemberRole(this.core, actor, input);
  }
  broadcastTheme(actor: SessionActor, input: In<typeof BroadcastThemeSchema>): Promise<RoomTheme> {
    return admin.broadcastTheme(this.core, actor, input);
  }
  /** Internal only (billing, superadmin, tests): never on a public route. */
  changeTier(input: { workspaceId: string; tier: Tier; reason: string }): Promise<WorkspaceUpdate> {
    return lifetime.changeTier(this.core, parseOrThrow(lifetime.ChangeTierSchema, input));
  }

  /**
   * POST /api/workspaces/extend-room (bearer): the member is the token's, never the body's userEmail; then the
   * same rules as extend-workspace (owner only; pro and business free; free rooms need payment).
   */
  extendRoom(userToken: string | null, body: unknown): Promise<ExtendRoomAnswer> {
    return lifetime.extendRoom(this.core, userToken, body);
  }

  /** RoomTokensApi: the member a bearer token names, for messaging's HTTP routes (member-tokens.ts). */
  memberOfToken(input: {
    userToken: string;
    workspaceId?: string | null;
  }): Promise<{ workspaceId: string; userId: string; role: 'owner' | 'admin' | 'member' }> {
    return bearerMember(this.core, input);
  }

  /** May the actor call or answer the DM's other member (calls.ts)? Records nothing. */
  authorizeCall(actor: SessionActor, input: AuthorizeCallInput) {
    return calls.authorizeCall(this.core, actor, input);
  }

  /** The DM policy (module.ts feeds it every message.sent): reopen the DM for members who had hidden it. */
  reopenDmAfterMessage(message: Message): Promise<number> {
    return dms.reopenAfterMessage(this.core, message);
  }

  // ---------- expiry ----------

  /** Expire every room past its expiry: one workspace.expired event each; consumers delete everything in it. */
  async sweepExpired(): Promise<number> {
    const due = await this.repo.expiredBefore(this.now());
    for (const ws of due) await this.mutex.run(`ws:${ws.id}`, () => this.expire(ws));
    return due.length;
  }

  private async expire(ws: WorkspaceRow): Promise<void> {
    await lifetime.expireRoom(this.core, ws); // the room key first, then workspace.expired
    this.deps.logger.info({ workspaceId: ws.id }, 'room expired');
  }

  // ---------- helpers ----------

  private isLive(ws: WorkspaceRow): boolean {
    return this.core.isLive(ws);
  }
  private liveWorkspace(workspaceId: string): Promise<WorkspaceRow> {
    return this.core.liveWorkspace(workspaceId);
  }

  private async liveWorkspaceByName(name: string): Promise<WorkspaceRow | null> {
    const ws = await this.repo.workspaceByName(name);
    return ws && this.isLive(ws) ? ws : null;
  }
}
