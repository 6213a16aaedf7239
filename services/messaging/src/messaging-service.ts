/**
 * The messaging service's use cases, the port the gateway calls (MessagingApi). Sends are batched per room: a send
 * joins its room's queue, and the room's drain loop (room-writes.ts) hands each batch to send-batch.ts, the hot path.
 * Edits, deletes and reactions (message-commands.ts) join the same queue and run alone between batches, so they see
 * every message answered before them; read marks (read-positions.ts) run per reader. Checks: access.ts.
 */
import {
  C,
  DomainError,
  LIMITS,
  SOCKET_AUTHZ,
  type ChannelSummary,
  type Message,
  type MessageLinkPreview,
  type MessagingApi,
  type SessionActor,
  type SendMessageSchema,
  type FetchMessagesSchema,
  type JoinChannelSchema,
  type SyncMessagesSchema,
  type EditMessageSchema,
  type DeleteMessageSchema,
  type AddReactionSchema,
  type MarkReadSchema,
  type SearchMessagesSchema,
} from '@ephemera/proto';
import type { z } from 'zod';
import {
  createRecorder,
  KeyedMutex,
  type EventLog,
  type Logger,
  type Pool,
  type Projector,
  type Recorder,
  type Subscription,
  type RoomKeyring,
} from '@ephemera/platform';
import { messagingProjector } from './projection.ts';
import { servingKey } from './sealed-messages.ts';
import { AccessChecks } from './access.ts';
import { decideDelete, decideEdit, decideReaction, type CommandContext, type Decision } from './message-commands.ts';
import { channelSummaries, decideMarkRead, readAggregateId } from './read-positions.ts';
import { historyPage, messagesAfter } from './history.ts';
import { RoomWrites } from './room-writes.ts';
import type { PendingSend } from './send-decisions.ts';
import { sendBatch } from './send-batch.ts';

export interface MessagingServiceDeps {
  pool: Pool;
  log: EventLog;
  /** where a write whose apply failed after its durable append is logged */
  logger?: Logger;
  now?: () => Date;
  /** true only when the event log shares this PostgreSQL (embedded): see applyOnce's `flush` */
  logSharesDatabase?: boolean;
  /** room keys (docs/crypto.md): messages are sealed in the read model and opened for members with them */
  keyring: RoomKeyring;
  /** the read-model projection (messagingProjector plus the search index); defaults to messagingProjector */
  project?: Projector;
  /** the link-preview cache: a sent message carries the server's own preview of its url, never the client's */
  linkPreviews?: { cached(url: string): MessageLinkPreview | null };
}

export class MessagingService implements MessagingApi {
  /** each room's queue, numbering and in-flight batch (room-writes.ts) */
  private readonly rooms: RoomWrites<PendingSend>;
  private readonly now: () => Date;
  /** set by the module: the room-events projection, to wait for room events not seen yet */
  roomProjection: Subscription | null = null;

  private readonly access: AccessChecks;
  private readonly ctx: CommandContext;

  /** the write path (platform's recorder): durable in the log, then applied to messaging's read model */
  private readonly recorder: Recorder;
  /** one read mark at a time per reader (its read aggregate's version is read, then incremented) */
  private readonly readers = new KeyedMutex();

  /**
   * Deletes stored file objects whose removal is recorded (a deleted message's file); set by the module when it has
   * file storage (module.ts), which logs a failure rather than failing the recorded command.
   */
  removeStoredObjects: (keys: string[]) => Promise<void> = async () => {};

  constructor(private readonly deps: MessagingServiceDeps) {
    this.now = deps.now ?? (() => new Date());
    this.recorder = createRecorder({
      log: deps.log,
      readModel: {
        pool: deps.pool,
        schema: 'messaging',
        project: deps.project ?? messagingProjector(deps.keyring),
        flush: !deps.logSharesDatabase,
      },
      logger: deps.logger,
    });
    this.rooms = new RoomWrites<PendingSend>(
      deps.pool,
      (workspaceId, batch) =>
        sendBatch(
          {
            pool: deps.pool,
            keyring: deps.keyring,
            access: this.access,
            rooms: this.rooms,
            recorder: this.recorder,
            now: this.now,
            linkPreviews: deps.linkPreviews,
          },
          workspaceId,
          batch,
        ),
      (send, err) => send.reject(err),
    );
    this.access = new AccessChecks(deps.pool, this.now, () => this.roomProjection);
    this.ctx = { pool: deps.pool, now: this.now, access: this.access, keyring: deps.keyring };
  }

  /** set by the module: the projection of our own events, to recover after a failed write */
  set ownProjection(projection: Subscription | null) {
    this.rooms.ownProjection = projection;
  }

  sendMessage(actor: SessionActor, input: z.output<typeof SendMessageSchema>): Promise<Message> {
    return new Promise((resolve, reject) =>
      this.rooms.enqueue(actor.workspaceId, {
        kind: 'send',
        send: { actor, input, resolve, reject, queuedAt: performance.now() },
      }),
    );
  }

  // ---------- the other writes: edit, delete, react (in the room's queue), mark read (per reader) ----------

  editMessage(actor: SessionActor, input: z.output<typeof EditMessageSchema>): Promise<Message> {
    return this.command(actor.workspaceId, () => decideEdit(this.ctx, actor, input));
  }

  deleteMessage(actor: SessionActor, input: z.output<typeof DeleteMessageSchema>): Promise<{ messageId: string }> {
    return this.command(actor.workspaceId, () => decideDelete(this.ctx, actor, input));
  }

  addReaction(actor: SessionActor, input: z.output<typeof AddReactionSchema>) {
    return this.command(actor.workspaceId, () => decideReaction(this.ctx, actor, input));
  }

  /**
   * Read marks are frequent (every member, every channel they look at) and touch only the reader's own aggregate,
   * so they do not queue behind the room's sends: they are serialized per reader, after the room's answered sends
   * are applied (so a mark up to a message just received is not capped below it).
   */
  markRead(actor: SessionActor, input: z.output<typeof MarkReadSchema>): Promise<{ channelId: string; seq: number }> {
    return this.readers.run(readAggregateId(actor.workspaceId, actor.userId), async () => {
      await this.settled(actor.workspaceId);
      return this.recorder.run(() => decideMarkRead(this.ctx, actor, input), this.rooms.hooks(actor.workspaceId));
    });
  }

  /**
   * Runs a decision in the room's queue (after the room's earlier sends and commands were applied, so a reaction
   * on a message just sent sees it, and versions are read current), then records its events.
   */
  private command<T>(workspaceId: string, decide: () => Promise<Decision<T>>): Promise<T> {
    return new Promise((resolve, reject) =>
      this.rooms.enqueue(workspaceId, {
        kind: 'command',
        run: async () => {
          try {
            await this.rooms.trustReadModel(workspaceId);
            const recorded = this.recorder.run(async () => {
              const { objects, ...decision } = await decide();
              return objects?.length ? { ...decision, after: () => this.removeStoredObjects(objects) } : decision;
            }, this.rooms.hooks(workspaceId));
            resolve(await recorded);
          } catch (err) {
            reject(err);
          }
        },
      }),
    );
  }

  // ---------- reads ----------

  /** Read your writes (room-writes.ts): an acknowledged message is in the read model before any read of its room. */
  settled(workspaceId: string): Promise<void> {
    return this.rooms.settled(workspaceId);
  }

  async fetchMessages(actor: SessionActor, input: z.output<typeof FetchMessagesSchema>) {
    await this.access.checkCanRead(actor, SOCKET_AUTHZ[C.fetchMessages], input.channelId);
    await this.settled(actor.workspaceId);
    return historyPage(this.deps.pool, await servingKey(this.deps.keyring, actor.workspaceId), input);
  }

  /** Opening a channel: its latest page, checked under join-channel's own row (not fetch-messages'). */
  async joinChannel(actor: SessionActor, input: z.output<typeof JoinChannelSchema>) {
    await this.access.checkCanRead(actor, SOCKET_AUTHZ[C.joinChannel], input.channelId);
    await this.settled(actor.workspaceId);
    return historyPage(this.deps.pool, await servingKey(this.deps.keyring, actor.workspaceId), {
      channelId: input.channelId,
      limit: LIMITS.historyPageSize,
    });
  }

  async syncMessages(actor: SessionActor, input: z.output<typeof SyncMessagesSchema>) {
    if (input.workspaceId !== actor.workspaceId) throw new DomainError('FORBIDDEN');
    await this.access.check(actor, SOCKET_AUTHZ[C.syncMessages], null);
    await this.settled(actor.workspaceId);
    return messagesAfter(this.deps.pool, await servingKey(this.deps.keyring, actor.workspaceId), actor, input);
  }

  async fetchChannelSummaries(actor: SessionActor): Promise<ChannelSummary[]> {
    await this.access.check(actor, SOCKET_AUTHZ[C.fetchChannelSummaries], null);
    await this.settled(actor.workspaceId);
    return channelSummaries(this.ctx, await servingKey(this.deps.keyring, actor.workspaceId), actor);
  }

  /** set by the module: the message search index (services/messaging/src/search/, docs/search.md) */
  search: { search(actor: SessionActor, query: string): Promise<Message[]> } | null = null;

  async searchMessages(actor: SessionActor, input: z.output<typeof SearchMessagesSchema>): Promise<Message[]> {
    await this.access.check(actor, SOCKET_AUTHZ[C.searchMessages], null);
    if (!this.search) throw new DomainError('UNAVAILABLE');
    await this.settled(actor.workspaceId); // a message acknowledged before the search is found
    return this.search.search(actor, input.query);
  }

  /** True once for an event this process applied on the command path (the consumer then skips it). */
  takeAppliedHere(eventId: string): boolean {
    return this.rooms.takeAppliedHere(eventId);
  }

  forgetWorkspace(workspaceId: string): void {
    this.rooms.forgetWorkspace(workspaceId);
  }
}
