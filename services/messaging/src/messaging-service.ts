/**
 * The messaging service's use cases. sendMessage is the hot path, batched per room:
 *   a send joins its room's queue; one drain loop per room takes everything queued as a batch and
 *   checks each (room live, author a member, channel visible) -> dedupes by client id (one query) ->
 *   takes consecutive per-room sequence numbers -> appends all message.sent events at once (durable) ->
 *   answers each send -> applies them to the read model in one transaction before the room's next batch.
 * One batch at a time per room keeps sequence numbers gap-free and in log order; batching turns N sends that
 * arrive together into one durable write instead of N (a busy room is not capped by the disk's flush rate).
 * One messaging writer per room is assumed (partition ownership when scaled out; docs/architecture.md).
 * Edits, deletes and reactions (message-commands.ts) join the same queue and run alone between batches, so they see
 * every message answered before them; read marks (read-positions.ts) run per reader. Checks: access.ts.
 */
import {
  C,
  DomainError,
  LIMITS,
  SOCKET_AUTHZ,
  channelAudience,
  type ChannelSummary,
  type Message,
  type MessageLinkPreview,
  type MessagingApi,
  type SessionActor,
  type AnyEventEnvelope,
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
  applyOnce,
  makeEvent,
  newId,
  appendEvents,
  userActor,
  KeyedMutex,
  type EventLog,
  type Pool,
  type Projector,
  type Subscription,
  type RoomKeyring,
} from '@ephemera/platform';
import { messagingProjector } from './projection.ts';
import { servingKey } from './sealed-messages.ts';
import { AccessChecks, type ChannelAccess } from './access.ts';
import { decideDelete, decideEdit, decideReaction, type CommandContext, type Decision } from './message-commands.ts';
import { channelSummaries, decideMarkRead, readAggregateId } from './read-positions.ts';
import { replyTargets, storedByClientIds } from './send-lookups.ts';
import { historyPage, messagesAfter } from './history.ts';
import { describeFile, filesByIds } from './files/index.ts';
import { stageEnded } from './send-metrics.ts';

type SendInput = z.output<typeof SendMessageSchema>;
interface PendingSend {
  kind: 'send';
  actor: SessionActor;
  input: SendInput;
  resolve: (m: Message) => void;
  reject: (e: unknown) => void;
  /** performance.now() when it joined the room's queue (send-metrics.ts) */
  queuedAt: number;
}
/** A write on a sent message (edit, delete, reaction): runs alone, in arrival order with the sends. */
interface PendingCommand {
  kind: 'command';
  run: () => Promise<void>;
}
type Pending = PendingSend | PendingCommand;

/** A send's access check is per (author, channel): one check answers every send of the batch with the same pair. */
const accessKey = (p: PendingSend) => `${p.actor.userId}\u0000${p.input.channelId}`;

/** Upper bound of one batch: keeps one append and one transaction reasonably sized. */
const MAX_BATCH = 256;

export interface MessagingServiceDeps {
  pool: Pool;
  log: EventLog;
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
  private readonly queues = new Map<string, Pending[]>();
  private readonly lastSeq = new Map<string, number>();
  /** rooms whose last append failed: their sequence must be re-read from the caught-up read model */
  private readonly uncertain = new Set<string>();
  /**
   * A room's batch of sends from its append until its read-model write is done: reads of that room wait for it. From
   * the append on, not from the answer: a gateway acknowledges a send as soon as its message is in the log
   * (gateway/src/sent-acks.ts), which can be before our append returns.
   */
  private readonly writing = new Map<string, Promise<void>>();
  /** ids of events this process applied itself, so its own-events consumer need not apply them again */
  private readonly appliedHere = new Set<string>();
  private readonly now: () => Date;
  /** set by the module: the room-events projection, to wait for room events not seen yet */
  roomProjection: Subscription | null = null;
  /** set by the module: the projection of our own events, to recover after a failed append */
  ownProjection: Subscription | null = null;

  private readonly access: AccessChecks;
  private readonly ctx: CommandContext;

  private readonly project: Projector;
  /** one read mark at a time per reader (its read aggregate's version is read, then incremented) */
  private readonly readers = new KeyedMutex();

  /**
   * Deletes stored file objects whose removal is recorded (a deleted message's file); set by the module when it has
   * file storage (module.ts), which logs a failure rather than failing the recorded command.
   */
  removeStoredObjects: (keys: string[]) => Promise<void> = async () => {};

  constructor(private readonly deps: MessagingServiceDeps) {
    this.now = deps.now ?? (() => new Date());
    this.project = deps.project ?? messagingProjector(deps.keyring);
    this.access = new AccessChecks(deps.pool, this.now, () => this.roomProjection);
    this.ctx = { pool: deps.pool, now: this.now, access: this.access, keyring: deps.keyring };
  }

  sendMessage(actor: SessionActor, input: SendInput): Promise<Message> {
    return new Promise((resolve, reject) =>
      this.enqueue(actor.workspaceId, { kind: 'send', actor, input, resolve, reject, queuedAt: performance.now() }),
    );
  }

  private enqueue(workspaceId: string, pending: Pending): void {
    const queue = this.queues.get(workspaceId);
    if (queue) {
      queue.push(pending);
      return;
    }
    this.queues.set(workspaceId, [pending]);
    void this.drain(workspaceId);
  }

  /** The room's single writer: runs while its queue has work, one batch of sends (or one other command) at a time. */
  private async drain(workspaceId: string): Promise<void> {
    const queue = this.queues.get(workspaceId)!;
    try {
      while (queue.length > 0) {
        if (queue[0]!.kind === 'command') {
          await (queue.shift() as PendingCommand).run();
          continue;
        }
        let n = 1;
        while (n < queue.length && n < MAX_BATCH && queue[n]!.kind === 'send') n += 1;
        const batch = queue.splice(0, n) as PendingSend[];
        await this.sendBatch(workspaceId, batch).catch((err) => {
          for (const p of batch) p.reject(err);
        });
      }
    } finally {
      this.queues.delete(workspaceId);
    }
  }

  /** After a failed write our read model is trusted again only once it has caught up with our own events. */
  private async trustReadModel(workspaceId: string): Promise<void> {
    if (!this.uncertain.has(workspaceId)) return;
    await this.ownProjection?.caughtUp();
    this.uncertain.delete(workspaceId);
    this.lastSeq.delete(workspaceId);
  }

  private async sendBatch(workspaceId: string, batch: PendingSend[]): Promise<void> {
    const started = performance.now();
    for (const p of batch) stageEnded('queued', p.queuedAt);
    // 0. after a failed write: a retried send then finds its message (dedupe) and the sequence continues after it.
    await this.trustReadModel(workspaceId);
    // 1. checks, per (author, channel), each a single query; 2. dedupe: a retried send (same author and client id)
    //    answers the stored message, stored once; with the quoted messages and attached files. Both run at once, on
    //    separate connections: a send's answer waits for the slower, not for their sum. The lookups cover the whole
    //    batch (what they find for a refused send is not used); a refusal is still answered before a missing key.
    const checks = new Map<string, PendingSend>();
    for (const p of batch) {
      const check = accessKey(p);
      if (!checks.has(check)) checks.set(check, p);
    }
    const checking = Promise.all(
      [...checks].map(
        async ([check, { actor, input }]) =>
          [
            check,
            await this.access.checkCanRead(actor, SOCKET_AUTHZ[C.sendMessage], input.channelId).catch((e: Error) => e),
          ] as const,
      ),
    );
    const looking = servingKey(this.deps.keyring, workspaceId).then((key) =>
      Promise.all([
        // the key is cached after the room's first send
        Promise.resolve(key),
        storedByClientIds(this.deps.pool, key, workspaceId, batch),
        replyTargets(this.deps.pool, key, workspaceId, batch),
        filesByIds(
          this.deps.pool,
          key,
          workspaceId,
          batch.flatMap((p) => (p.input.fileId ? [p.input.fileId] : [])),
        ),
      ]),
    );
    looking.catch(() => {}); // awaited below unless every send is refused
    const access = new Map<string, { channel: ChannelAccess } | Error>(await checking);
    const allowed: PendingSend[] = [];
    for (const p of batch) {
      const a = access.get(accessKey(p))!;
      if (a instanceof Error) p.reject(a);
      else allowed.push(p);
    }
    if (allowed.length === 0) return;
    const [, stored, quoted, uploads] = await looking;
    const checked = stageEnded('checks', started);

    const attached = new Set<string>();
    const fresh = new Map<string, { message: Message; waiters: PendingSend[] }>();
    const events: AnyEventEnvelope[] = [];
    let seq = await this.currentSeq(workspaceId);
    for (const p of allowed) {
      const key = `${p.actor.userId}\u0000${p.input.clientMessageId}`;
      const existing = stored.get(key);
      if (existing) {
        p.resolve(existing);
        continue;
      }
      const pending = fresh.get(key);
      if (pending) {
        pending.waiters.push(p);
        continue;
      } // the same send twice in one batch

      // 3. a reply quotes a live message of the same channel, as stored (the client's quote is never read)
      const { channel } = access.get(accessKey(p)) as { channel: ChannelAccess };
      let replyTo: Message['replyTo'] = null;
      if (p.input.replyTo) {
        const target = quoted.get(p.input.replyTo.messageId);
        if (!target || target.deleted || target.channelId !== channel.id) {
          p.reject(new DomainError('REPLY_TARGET_GONE'));
          continue;
        }
        replyTo = { messageId: p.input.replyTo.messageId, content: target.content, authorName: target.authorName };
      }
      // 3b. a file message names the sender's own upload to this channel, not yet sent; its type and text are the
      //     stored file's (the client's type, url or size is never taken)
      let file: Message['file'] = null;
      let type = p.input.type;
      let content = p.input.content;
      if (p.input.fileId) {
        const f = uploads.get(p.input.fileId);
        if (
          !f ||
          f.uploaderId !== p.actor.userId ||
          f.channelId !== channel.id ||
          f.purpose === 'avatar' ||
          f.messageId ||
          attached.has(f.id)
        ) {
          p.reject(new DomainError('FILE_NOT_FOUND'));
          continue;
        }
        attached.add(f.id);
        file = describeFile(f);
        type = f.kind;
        content = f.meta.caption ?? f.meta.name;
      } else if (type !== 'text') {
        p.reject(new DomainError('FILE_REQUIRED', 'A file message needs an uploaded file (fileId)'));
        continue;
      }
      // 4. the next sequence number and the event
      seq += 1;
      const message: Message = {
        id: newId(),
        clientMessageId: p.input.clientMessageId,
        workspaceId,
        channelId: channel.id,
        seq,
        authorId: p.actor.userId,
        authorName: p.actor.username,
        profilePicture: null,
        timestamp: this.now().toISOString(),
        type,
        content,
        isEdited: false,
        replyTo,
        reactions: {},
        linkPreview: p.input.linkPreview ? (this.deps.linkPreviews?.cached(p.input.linkPreview.url) ?? null) : null,
        editedAt: null,
        file,
      };
      events.push(
        makeEvent(
          'message.sent',
          workspaceId,
          seq,
          { message, audience: channelAudience(channel) },
          userActor(p.actor.userId),
        ),
      );
      fresh.set(key, { message, waiters: [p] });
    }
    if (events.length === 0) return;

    // 5. durable -> answered -> applied. The answer waits only for the log (the source of truth); the read model
    //    is brought up to date before this room's next batch runs, so a retried send still finds its message.
    const written = this.writeStarted(workspaceId);
    try {
      await this.appendDurably(workspaceId, events); // when this throws, drain refuses the batch's sends
      const appended = stageEnded('append', checked);
      this.lastSeq.set(workspaceId, seq);
      for (const { message, waiters } of fresh.values()) for (const w of waiters) w.resolve(message);
      if (await this.applyHere(workspaceId, events)) stageEnded('apply', appended);
    } finally {
      written();
    }
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
      const { events, answer } = await decideMarkRead(this.ctx, actor, input);
      if (events.length > 0) await this.record(actor.workspaceId, events);
      return answer;
    });
  }

  /**
   * Runs a decision in the room's queue (after the room's earlier sends and commands were applied, so a reaction
   * on a message just sent sees it, and versions are read current), then records its events.
   */
  private command<T>(workspaceId: string, decide: () => Promise<Decision<T>>): Promise<T> {
    return new Promise((resolve, reject) =>
      this.enqueue(workspaceId, {
        kind: 'command',
        run: async () => {
          try {
            await this.trustReadModel(workspaceId);
            const { events, answer, objects } = await decide();
            if (events.length > 0) await this.record(workspaceId, events);
            if (objects?.length) await this.removeStoredObjects(objects);
            resolve(answer);
          } catch (err) {
            reject(err);
          }
        },
      }),
    );
  }

  /**
   * Append and wait until durable. The events may or may not be in the log when this throws (an append can fail
   * after the broker has them): the room becomes uncertain, and its next write and reads first wait for our
   * projection of the log, so a retry dedupes and numbering continues after what is really there.
   */
  private async appendDurably(workspaceId: string, events: AnyEventEnvelope[]): Promise<void> {
    try {
      await appendEvents(this.deps.log, events);
    } catch (err) {
      this.uncertain.add(workspaceId);
      this.lastSeq.delete(workspaceId);
      throw err;
    }
  }

  /**
   * The record path of every write but sends (which batch): durable in the log, then applied to the read model,
   * then answered. An apply that fails after a durable append still answers (the log has it): our own-events
   * consumer applies it, and the room's next write and reads wait for that.
   */
  private async record(workspaceId: string, events: AnyEventEnvelope[]): Promise<void> {
    await this.appendDurably(workspaceId, events);
    await this.applyHere(workspaceId, events);
  }

  /**
   * Durable events into our read model; false when that failed. They are acknowledged and in the log, not yet in the
   * read model: our own-events consumer will apply them, and the room's next write and reads wait for it.
   */
  private async applyHere(workspaceId: string, events: AnyEventEnvelope[]): Promise<boolean> {
    try {
      await applyOnce(this.deps.pool, 'messaging', events, this.project, { flush: !this.deps.logSharesDatabase });
    } catch {
      this.uncertain.add(workspaceId);
      this.lastSeq.delete(workspaceId);
      return false;
    }
    for (const e of events) this.appliedHere.add(e.id);
    if (this.appliedHere.size > 50_000) this.appliedHere.clear(); // a cache: the consumer falls back to applyOnce
    return true;
  }

  // ---------- reads ----------

  /** The room's batch is in flight until the returned function is called (settled() waits for it). */
  private writeStarted(workspaceId: string): () => void {
    let done!: () => void;
    const finished = new Promise<void>((resolve) => {
      done = resolve;
    });
    this.writing.set(workspaceId, finished);
    return () => {
      if (this.writing.get(workspaceId) === finished) this.writing.delete(workspaceId);
      done();
    };
  }

  /**
   * Read your writes: a message that was acknowledged is in the read model before any read of its room (also
   * admin-messaging.ts). A read during a batch's append waits for the batch: its sends may be acknowledged already.
   */
  async settled(workspaceId: string): Promise<void> {
    await this.writing.get(workspaceId);
    if (this.uncertain.has(workspaceId)) await this.ownProjection?.caughtUp(); // a failed apply: the consumer has it
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

  // ---------- helpers of the send path ----------

  private async currentSeq(workspaceId: string): Promise<number> {
    const cached = this.lastSeq.get(workspaceId);
    if (cached !== undefined) return cached;
    const { rows } = await this.deps.pool.query(
      'SELECT coalesce(max(seq), 0) AS seq FROM messaging.messages WHERE workspace_id = $1',
      [workspaceId],
    );
    const seq = Number(rows[0].seq);
    this.lastSeq.set(workspaceId, seq);
    return seq;
  }

  /** True once for an event this process applied on the command path (the consumer then skips it). */
  takeAppliedHere(eventId: string): boolean {
    return this.appliedHere.delete(eventId);
  }

  forgetWorkspace(workspaceId: string): void {
    this.lastSeq.delete(workspaceId);
  }
}
