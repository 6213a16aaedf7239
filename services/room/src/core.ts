/**
 * The room service's one write path, shared by every use case: a command for a room runs under that room's lock
 * (one writer per room: sequences stay gap-free), checks the caller's role against the authorization table, builds
 * its events with the next sequence numbers, and records them (durable in the log, then applied to the read model).
 */
import {
  DomainError,
  SOCKET_AUTHZ,
  assertMayCreateOrExtend,
  authorizeCaller,
  type AccountStanding,
  type AnyEventEnvelope,
  type ClientEventName,
  type DomainEventPayload,
  type DomainEventType,
  type EventEnvelope,
  type Role,
  type SessionActor,
  type Actor,
} from '@ephemera/proto';
import {
  DEV_MASTER_KEY,
  ImageSigner,
  KeyedMutex,
  createRecorder,
  makeEvent,
  systemActor,
  userActor,
  type EventLog,
  type Logger,
  type Pool,
  type Recorder,
  type RoomKeyStore,
  type RoomKeyring,
} from '@ephemera/platform';
import { roomProjector } from './projection.ts';
import { RoomRepository, type MemberRow, type WorkspaceRow } from './repository.ts';

export interface RoomDeps {
  pool: Pool;
  log: EventLog;
  logger: Logger;
  now?: () => Date;
  /**
   * Each room's data key (docs/crypto.md): created before workspace.created, destroyed before workspace.deleted or
   * workspace.expired. Required: the read model seals members' names and pictures under it (member-crypto.ts).
   */
  roomKeys: RoomKeyStore;
  /** the same keys, cached in memory, for sealing and opening read-model values */
  keyring: RoomKeyring;
  /**
   * Signs the custom theme's logo for messaging's image proxy (img-src 'self'): keyed by the same master key as
   * messaging's (ROOM_MASTER_KEY / DATA_DIR/master.key). Absent: the development key, as messaging's default.
   */
  imageSigner?: ImageSigner;
}

/** One command's view of its room: the room as it is, and how to build and record its events. */
export interface RoomCommand {
  ws: WorkspaceRow;
  /** the caller's row; null for system commands (policies, expiry) */
  member: MemberRow | null;
  role: Role | null;
  /** the next event of this room, stamped with the service clock (sequence = last + 1, + 2, ... in one command) */
  event<T extends DomainEventType>(type: T, payload: DomainEventPayload<T>): EventEnvelope<T>;
  record(events: AnyEventEnvelope[]): Promise<void>;
}

export class RoomCore {
  readonly repo: RoomRepository;
  readonly mutex = new KeyedMutex();
  readonly now: () => Date;
  readonly imageSigner: ImageSigner;
  private readonly recorder: Recorder;

  constructor(readonly deps: RoomDeps) {
    this.repo = new RoomRepository(deps.pool, deps.keyring);
    this.recorder = createRecorder({
      log: deps.log,
      readModel: { pool: deps.pool, schema: 'room', project: roomProjector(deps.keyring) },
      logger: deps.logger,
    });
    this.now = deps.now ?? (() => new Date());
    this.imageSigner = deps.imageSigner ?? new ImageSigner(DEV_MASTER_KEY);
  }

  /**
   * Reads wait for the room's commands in flight: a command's events reach the log, and so the other members (the
   * gateways' fan-out), before this service has applied them, and a member acting on one (typing in a channel just
   * created, joining a room just renamed) must not be told it does not exist.
   */
  settled(workspaceId: string): Promise<void> {
    return this.mutex.settled(`ws:${workspaceId}`);
  }

  /** The one place events are recorded: platform's recorder (durable in the log first, then applied here). */
  async record(events: AnyEventEnvelope[]): Promise<void> {
    await this.recorder.record(events);
    this.repo.noteRecorded(events); // in the log now: its kept lists may advance over these joins
  }

  /**
   * Crypto-shredding (docs/crypto.md): the room's data key is destroyed before workspace.deleted or workspace.expired
   * is recorded, so the room's content is unreadable even if the removal of its rows is interrupted.
   */
  async destroyRoomKey(workspaceId: string): Promise<void> {
    await this.deps.roomKeys?.destroy(workspaceId);
  }

  /**
   * What billing says the account's subscription still allows (docs/product/payments.md PAY12); set by the process
   * that has billing (useAccounts). Without one no room has an owner account: nothing to ask.
   */
  accountStanding: (accountId: string) => Promise<AccountStanding> = async () => 'active';

  /** Extending a room its owner account may not extend (in grace or expired) is refused; a guest's room: no owner. */
  async assertOwnerMayExtend(workspaceId: string): Promise<void> {
    const owner = await this.repo.ownerAccountOf(workspaceId);
    if (owner) assertMayCreateOrExtend(await this.accountStanding(owner));
  }

  isLive(ws: WorkspaceRow): boolean {
    return ws.expiresAt === null || ws.expiresAt.getTime() > this.now().getTime();
  }

  async liveWorkspace(workspaceId: string): Promise<WorkspaceRow> {
    const ws = await this.repo.workspaceById(workspaceId);
    if (!ws || !this.isLive(ws)) throw new DomainError('WORKSPACE_NOT_FOUND');
    return ws;
  }

  /**
   * The caller's role in the room from our read model (owner, admin, member, left, kicked or non-member), checked
   * against the event's own row of the table (authorizeCaller): every socket event the room service decides, or
   * decides for another service (calls, typing, presence), comes through here.
   */
  async authorizeEvent(
    ws: WorkspaceRow,
    userId: string,
    event: ClientEventName,
  ): Promise<{ role: Role; member: MemberRow | null }> {
    const member = await this.repo.memberById(ws.id, userId);
    const departed = member ? null : await this.repo.departure(ws.id, userId);
    const role = authorizeCaller(SOCKET_AUTHZ[event], {
      member,
      createdBy: ws.createdBy,
      departed: departed?.reason ?? null,
    });
    return { role, member };
  }

  /**
   * A user's command on their own room under the event's authorization rule. `workspaceId` is the room the payload
   * names (when it names one): it must be the session's.
   */
  userCommand<T>(
    actor: SessionActor,
    event: ClientEventName,
    workspaceId: string | undefined,
    fn: (cmd: RoomCommand) => Promise<T>,
  ): Promise<T> {
    if (workspaceId !== undefined && workspaceId !== actor.workspaceId) throw new DomainError('FORBIDDEN');
    return this.mutex.run(`ws:${actor.workspaceId}`, async () => {
      const ws = await this.liveWorkspace(actor.workspaceId);
      const { role, member } = await this.authorizeEvent(ws, actor.userId, event);
      return fn(this.commandFor(ws, member, role, userActor(actor.userId)));
    });
  }

  /** A command the service decides itself (a policy): no caller, no role. Resolves to null when the room is gone. */
  systemCommand<T>(workspaceId: string, fn: (cmd: RoomCommand) => Promise<T>): Promise<T | null> {
    return this.mutex.run(`ws:${workspaceId}`, async () => {
      const ws = await this.repo.workspaceById(workspaceId);
      if (!ws || !this.isLive(ws)) return null;
      return fn(this.commandFor(ws, null, null, systemActor));
    });
  }

  private commandFor(ws: WorkspaceRow, member: MemberRow | null, role: Role | null, actor: Actor): RoomCommand {
    let seq = ws.lastSeq;
    return {
      ws,
      member,
      role,
      event: (type, payload) => ({
        ...makeEvent(type, ws.id, ++seq, payload, actor),
        occurredAt: this.now().toISOString(),
      }),
      record: (events) => this.record(events),
    };
  }
}
