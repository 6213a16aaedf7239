/**
 * The room service's use cases. Each command checks (check*), decides the events, appends them to the log
 * (durable) and applies them to the read model before answering: decide-then-record, one place (record()).
 * Commands for one workspace (or one name, for creation) run one at a time through the keyed mutex, which keeps
 * the per-workspace sequence gap-free. One room-service writer per workspace is assumed (see docs/architecture.md).
 */
import {
  DomainError, LIFETIME_MS, LIMITS, RESERVED_ROOM_NAMES, CreateWorkspaceBodySchema, JoinWorkspaceBodySchema, settingsForTier,
  type AnyEventEnvelope, type Channel, type CheckNameAnswer, type CheckUsernameAnswer, type CreateWorkspaceAnswer,
  type JoinWorkspaceAnswer, type RoomApi, type RoomLookupAnswer, type SessionActor, type Tier, type WorkspaceInfoAnswer,
  type CreateChannelSchema,
} from '@ephemera/proto';
import type { z } from 'zod';
import {
  KeyedMutex, applyOnce, makeEvent, newId, newToken, parseOrThrow, sha256, systemActor, appendEvents, userActor,
  type EventLog, type Logger, type Pool,
} from '@ephemera/platform';
import { projectRoomEvent } from './projection.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { RoomRepository, toRoomUser, toWorkspace, visibleTo, type WorkspaceRow } from './repository.ts';

/** Letters and digits of any script, hyphens and underscores: the name is a path segment. */
const ROOM_NAME_PATTERN = /^[\p{L}\p{N}_-]+$/u;

export interface RoomServiceDeps {
  pool: Pool;
  log: EventLog;
  logger: Logger;
  now?: () => Date;
}

export class RoomService implements RoomApi {
  readonly repo: RoomRepository;
  private readonly mutex = new KeyedMutex();
  private readonly now: () => Date;

  constructor(private readonly deps: RoomServiceDeps) {
    this.repo = new RoomRepository(deps.pool);
    this.now = deps.now ?? (() => new Date());
  }

  // ---------- queries ----------

  async checkName(rawName: string): Promise<CheckNameAnswer> {
    const name = rawName.trim();
    const problem = roomNameProblem(name);
    if (problem) return { available: false, message: problem.message };
    const existing = await this.liveWorkspaceByName(name);
    return existing ? { available: false, message: 'Room name is already taken' } : { available: true, message: 'Room name is available' };
  }

  async lookupByName(roomName: string): Promise<RoomLookupAnswer> {
    const ws = await this.liveWorkspaceByName(roomName.trim());
    if (!ws) throw new DomainError('ROOM_NOT_FOUND');
    return {
      workspaceId: ws.id, name: ws.name, isPasswordProtected: ws.passwordHash !== null, isNewRoom: false, tier: ws.tier,
      expiresAt: ws.expiresAt ? ws.expiresAt.toISOString() : null,
    };
  }

  async info(workspaceId: string): Promise<WorkspaceInfoAnswer> {
    const ws = await this.liveWorkspace(workspaceId);
    const members = await this.repo.members(ws.id);
    return {
      workspaceId: ws.id, name: ws.name, isPasswordProtected: ws.passwordHash !== null, isNewRoom: members.length === 0,
      expiresAt: ws.expiresAt ? ws.expiresAt.toISOString() : null, createdAt: ws.createdAt.toISOString(),
      settings: settingsForTier(ws.tier),
    };
  }

  async checkUsername(workspaceId: string, rawUsername: string): Promise<CheckUsernameAnswer> {
    const ws = await this.liveWorkspace(workspaceId);
    const username = rawUsername.trim();
    if (username.length < LIMITS.usernameMin || username.length > LIMITS.usernameMax) {
      return { available: false, message: `Username must be ${LIMITS.usernameMin}-${LIMITS.usernameMax} characters` };
    }
    return (await this.repo.usernameTaken(ws.id, username))
      ? { available: false, message: 'Username is already taken' }
      : { available: true, message: 'Username is available' };
  }

  // ---------- commands (HTTP) ----------

  async createWorkspace(body: unknown, tier: Tier = 'free'): Promise<CreateWorkspaceAnswer> {
    const input = parseOrThrow(CreateWorkspaceBodySchema, body);
    const problem = roomNameProblem(input.name);
    if (problem) throw problem;
    const password = input.hasPassword === false ? null : (input.password?.trim() || null);
    if (input.hasPassword && !password) throw new DomainError('PASSWORD_REQUIRED');
    const nameKey = input.name.toLowerCase();

    return this.mutex.run(`name:${nameKey}`, async () => {
      const existing = await this.repo.workspaceByName(input.name);
      if (existing && this.isLive(existing)) throw new DomainError('ROOM_NAME_TAKEN');
      if (existing) await this.expire(existing); // expired but not yet swept: sweep it now so the name is free

      const now = this.now();
      const lifetime = LIFETIME_MS[tier];
      const workspaceId = newId();
      const userId = newId();
      const token = newToken();
      const actor = userActor(userId);
      const events: AnyEventEnvelope[] = [
        makeEvent('workspace.created', workspaceId, 1, {
          workspaceId, name: input.name, nameKey, tier, createdAt: now.toISOString(),
          expiresAt: lifetime === null ? null : new Date(now.getTime() + lifetime).toISOString(),
          passwordHash: password ? await hashPassword(password) : null, createdBy: userId,
        }, actor),
        makeEvent('member.joined', workspaceId, 2, {
          workspaceId, userId, username: input.username, isAdmin: true, tokenHash: sha256(token), joinedAt: now.toISOString(),
        }, actor),
      ];
      await this.record(events);
      const ws = (await this.repo.workspaceById(workspaceId))!;
      const member = (await this.repo.memberById(workspaceId, userId))!;
      return { workspaceId, workspace: { id: workspaceId, name: ws.name }, userToken: token, user: toRoomUser(member, ws) };
    });
  }

  async joinWorkspace(workspaceId: string, body: unknown): Promise<JoinWorkspaceAnswer> {
    const input = parseOrThrow(JoinWorkspaceBodySchema, body);
    return this.mutex.run(`ws:${workspaceId}`, async () => {
      const ws = await this.liveWorkspace(workspaceId);
      if (ws.passwordHash) {
        const password = input.password?.trim();
        if (!password) throw new DomainError('PASSWORD_REQUIRED');
        if (!(await verifyPassword(password, ws.passwordHash))) throw new DomainError('PASSWORD_WRONG');
      }
      if (await this.repo.usernameTaken(ws.id, input.username)) throw new DomainError('USERNAME_TAKEN');
      const members = await this.repo.members(ws.id);
      const maxUsers = settingsForTier(ws.tier).maxUsers;
      if (maxUsers !== null && members.length >= maxUsers) throw new DomainError('ROOM_FULL');

      const userId = newId();
      const token = newToken();
      await this.record([makeEvent('member.joined', ws.id, ws.lastSeq + 1, {
        workspaceId: ws.id, userId, username: input.username, isAdmin: false, tokenHash: sha256(token), joinedAt: this.now().toISOString(),
      }, userActor(userId))]);
      const member = (await this.repo.memberById(ws.id, userId))!;
      return { workspaceId: ws.id, userToken: token, user: toRoomUser(member, ws) };
    });
  }

  // ---------- RoomApi (called by the gateway) ----------

  async authenticate(input: { workspaceId: string; userToken: string; username: string }) {
    const ws = await this.liveWorkspace(input.workspaceId);
    const member = await this.repo.memberByToken(ws.id, sha256(input.userToken));
    if (!member) throw new DomainError('NOT_AUTHENTICATED', 'Failed to join workspace');
    const [members, channels] = await Promise.all([this.repo.members(ws.id), this.repo.channels(ws.id)]);
    return { user: toRoomUser(member, ws), workspace: toWorkspace(ws, members, channels, member.userId) };
  }

  async createChannel(actor: SessionActor, input: z.output<typeof CreateChannelSchema>): Promise<Channel> {
    if (input.workspaceId !== actor.workspaceId) throw new DomainError('FORBIDDEN');
    return this.mutex.run(`ws:${actor.workspaceId}`, async () => {
      const ws = await this.liveWorkspace(actor.workspaceId);
      const member = await this.repo.memberById(ws.id, actor.userId);
      if (!member) throw new DomainError('NOT_AUTHENTICATED');
      if (!member.isAdmin && member.userId !== ws.createdBy) throw new DomainError('FORBIDDEN');
      if (await this.repo.channelNameTaken(ws.id, input.name)) throw new DomainError('CHANNEL_NAME_TAKEN');
      const channel: Channel = {
        id: newId(), workspaceId: ws.id, name: input.name, type: 'topic', isPrivate: input.isPrivate,
        memberIds: input.isPrivate ? [actor.userId] : [], createdBy: actor.userId, createdAt: this.now().toISOString(),
      };
      await this.record([makeEvent('channel.created', ws.id, ws.lastSeq + 1, { workspaceId: ws.id, channel }, userActor(actor.userId))]);
      return channel;
    });
  }

  async getChannelForMember(actor: SessionActor, channelId: string): Promise<Channel> {
    await this.liveWorkspace(actor.workspaceId);
    const channel = (await this.repo.channels(actor.workspaceId)).find((c) => c.id === channelId);
    if (!channel) throw new DomainError('CHANNEL_NOT_FOUND');
    if (!visibleTo(channel, actor.userId)) throw new DomainError('NOT_A_MEMBER');
    return channel;
  }

  // ---------- expiry ----------

  /** Expire every room past its expiry: one workspace.expired event each; consumers delete everything in it. */
  async sweepExpired(): Promise<number> {
    const due = await this.repo.expiredBefore(this.now());
    for (const ws of due) await this.mutex.run(`ws:${ws.id}`, () => this.expire(ws));
    return due.length;
  }

  private async expire(ws: WorkspaceRow): Promise<void> {
    await this.record([makeEvent('workspace.expired', ws.id, ws.lastSeq + 1, {
      workspaceId: ws.id, name: ws.name, expiredAt: this.now().toISOString(),
    }, systemActor)]);
    this.deps.logger.info({ workspaceId: ws.id }, 'room expired');
  }

  // ---------- helpers ----------

  /** The one place events are recorded: durable in the log first, then applied to our read model. */
  private async record(events: AnyEventEnvelope[]): Promise<void> {
    await appendEvents(this.deps.log, events);
    await applyOnce(this.deps.pool, 'room', events, projectRoomEvent);
  }

  private isLive(ws: WorkspaceRow): boolean {
    return ws.expiresAt === null || ws.expiresAt.getTime() > this.now().getTime();
  }

  private async liveWorkspace(workspaceId: string): Promise<WorkspaceRow> {
    const ws = await this.repo.workspaceById(workspaceId);
    if (!ws || !this.isLive(ws)) throw new DomainError('WORKSPACE_NOT_FOUND');
    return ws;
  }

  private async liveWorkspaceByName(name: string): Promise<WorkspaceRow | null> {
    const ws = await this.repo.workspaceByName(name);
    return ws && this.isLive(ws) ? ws : null;
  }
}

export function roomNameProblem(name: string): DomainError | null {
  if (name.length === 0) return new DomainError('VALIDATION', 'Room name is required');
  if (name.length > LIMITS.roomNameMax) return new DomainError('VALIDATION', `Room name must be at most ${LIMITS.roomNameMax} characters`);
  if (!ROOM_NAME_PATTERN.test(name)) return new DomainError('ROOM_NAME_INVALID');
  if ((RESERVED_ROOM_NAMES as readonly string[]).includes(name.toLowerCase())) return new DomainError('ROOM_NAME_RESERVED');
  return null;
}
