/**
 * The messaging service's use cases. sendMessage is the hot path, batched per room:
 *   a send joins its room's queue; one drain loop per room takes everything queued as a batch and
 *   checks each (room live, author a member, channel visible) -> dedupes by client id (one query) ->
 *   takes consecutive per-room sequence numbers -> appends all message.sent events at once (durable) ->
 *   answers each send -> applies them to the read model in one transaction before the room's next batch.
 * One batch at a time per room keeps sequence numbers gap-free and in log order; batching turns N sends that
 * arrive together into one durable write instead of N (a busy room is not capped by the disk's flush rate).
 * One messaging writer per room is assumed (partition ownership when scaled out; docs/architecture.md).
 */
import {
  DomainError, type Audience, type Message, type MessagingApi, type SessionActor, type AnyEventEnvelope,
  type SendMessageSchema, type FetchMessagesSchema, type SyncMessagesSchema,
} from '@ephemera/proto';
import type { z } from 'zod';
import {
  applyOnce, makeEvent, newId, appendEvents, userActor, type EventLog, type Pool, type Subscription,
} from '@ephemera/platform';
import { projectForMessaging } from './projection.ts';

type SendInput = z.output<typeof SendMessageSchema>;
interface PendingSend { actor: SessionActor; input: SendInput; resolve: (m: Message) => void; reject: (e: unknown) => void }
interface Access { username: string; expiresAt: Date | null; channel: { id: string; isPrivate: boolean; memberIds: string[] } | null }

/** Upper bound of one batch: keeps one append and one transaction reasonably sized. */
const MAX_BATCH = 256;

export interface MessagingServiceDeps {
  pool: Pool;
  log: EventLog;
  now?: () => Date;
  /** true only when the event log shares this PostgreSQL (embedded): see applyOnce's `flush` */
  logSharesDatabase?: boolean;
}

export class MessagingService implements MessagingApi {
  private readonly queues = new Map<string, PendingSend[]>();
  private readonly lastSeq = new Map<string, number>();
  /** rooms whose last append failed: their sequence must be re-read from the caught-up read model */
  private readonly uncertain = new Set<string>();
  /** a room's read-model write in flight after its sends were answered: reads of that room wait for it */
  private readonly applying = new Map<string, Promise<unknown>>();
  /** ids of events this process applied itself, so its own-events consumer need not apply them again */
  private readonly appliedHere = new Set<string>();
  private readonly now: () => Date;
  /** set by the module: the room-events projection, to wait for room events not seen yet */
  roomProjection: Subscription | null = null;
  /** set by the module: the projection of our own events, to recover after a failed append */
  ownProjection: Subscription | null = null;

  constructor(private readonly deps: MessagingServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  sendMessage(actor: SessionActor, input: SendInput): Promise<Message> {
    return new Promise((resolve, reject) => {
      const queue = this.queues.get(actor.workspaceId);
      if (queue) { queue.push({ actor, input, resolve, reject }); return; }
      this.queues.set(actor.workspaceId, [{ actor, input, resolve, reject }]);
      void this.drain(actor.workspaceId);
    });
  }

  /** The room's single writer: runs while its queue has sends, one batch at a time. */
  private async drain(workspaceId: string): Promise<void> {
    const queue = this.queues.get(workspaceId)!;
    try {
      while (queue.length > 0) {
        const batch = queue.splice(0, MAX_BATCH);
        await this.sendBatch(workspaceId, batch).catch((err) => { for (const p of batch) p.reject(err); });
      }
    } finally {
      this.queues.delete(workspaceId);
    }
  }

  private async sendBatch(workspaceId: string, batch: PendingSend[]): Promise<void> {
    // 0. after a failed write, our read model is only trusted once it has caught up with our own events:
    //    a retried send then finds its message (dedupe) and the sequence continues after it.
    if (this.uncertain.has(workspaceId)) {
      await this.ownProjection?.caughtUp();
      this.uncertain.delete(workspaceId);
      this.lastSeq.delete(workspaceId);
    }
    // 1. checks, per (author, channel), each a single query
    const access = new Map<string, Access | Error>();
    for (const { actor, input } of batch) {
      const key = `${actor.userId}\u0000${input.channelId}`;
      // Posting needs what reading needs in this slice (member of the room, channel visible).
      if (!access.has(key)) access.set(key, await this.checkCanRead(actor, input.channelId).catch((e: Error) => e));
    }
    const allowed: PendingSend[] = [];
    for (const p of batch) {
      const a = access.get(`${p.actor.userId}\u0000${p.input.channelId}`)!;
      if (a instanceof Error) p.reject(a); else allowed.push(p);
    }
    if (allowed.length === 0) return;

    // 2. dedupe: a retried send (same author and client id) answers the stored message, stored once
    const stored = await this.byClientIds(workspaceId, allowed);
    const fresh = new Map<string, { message: Message; waiters: PendingSend[] }>();
    const events: AnyEventEnvelope[] = [];
    let seq = await this.currentSeq(workspaceId);
    for (const p of allowed) {
      const key = `${p.actor.userId}\u0000${p.input.clientMessageId}`;
      const existing = stored.get(key);
      if (existing) { p.resolve(existing); continue; }
      const pending = fresh.get(key);
      if (pending) { pending.waiters.push(p); continue; } // the same send twice in one batch

      // 3. the next sequence number and the event
      const { channel } = access.get(`${p.actor.userId}\u0000${p.input.channelId}`) as Access;
      seq += 1;
      const message: Message = {
        id: newId(), clientMessageId: p.input.clientMessageId, workspaceId, channelId: channel!.id, seq,
        authorId: p.actor.userId, authorName: p.actor.username, profilePicture: null, timestamp: this.now().toISOString(),
        type: p.input.type, content: p.input.content, isEdited: false, replyTo: p.input.replyTo ?? null, reactions: {},
      };
      const audience: Audience = channel!.isPrivate ? { kind: 'users', userIds: channel!.memberIds } : { kind: 'workspace' };
      events.push(makeEvent('message.sent', workspaceId, seq, { message, audience }, userActor(p.actor.userId)));
      fresh.set(key, { message, waiters: [p] });
    }
    if (events.length === 0) return;

    // 4. durable -> answered -> applied. The answer waits only for the log (the source of truth); the read model
    //    is brought up to date before this room's next batch runs, so a retried send still finds its message.
    try {
      await appendEvents(this.deps.log, events);
    } catch (err) {
      // The events may or may not be in the log (an append can fail after the broker has them); the next batch
      // waits for our projection of the log before it dedupes or numbers anything.
      this.uncertain.add(workspaceId);
      this.lastSeq.delete(workspaceId);
      throw err;
    }
    this.lastSeq.set(workspaceId, seq);
    for (const { message, waiters } of fresh.values()) for (const w of waiters) w.resolve(message);
    const applying = applyOnce(this.deps.pool, 'messaging', events, projectForMessaging, { flush: !this.deps.logSharesDatabase });
    this.applying.set(workspaceId, applying.catch(() => {}));
    try {
      await applying;
    } catch {
      // Acknowledged and in the log, not yet in our read model: our own-events consumer will apply them, and
      // the next batch waits for it.
      this.uncertain.add(workspaceId);
      this.lastSeq.delete(workspaceId);
      return;
    } finally {
      this.applying.delete(workspaceId);
    }
    for (const e of events) this.appliedHere.add(e.id);
    if (this.appliedHere.size > 50_000) this.appliedHere.clear(); // a cache: the consumer falls back to applyOnce
  }

  /** Read your writes: a message that was answered is in the read model before any read of its room. */
  private async settled(workspaceId: string): Promise<void> {
    await this.applying.get(workspaceId);
    if (this.uncertain.has(workspaceId)) await this.ownProjection?.caughtUp(); // a failed apply: the consumer has it
  }

  async fetchMessages(actor: SessionActor, input: z.output<typeof FetchMessagesSchema>) {
    await this.checkCanRead(actor, input.channelId);
    await this.settled(actor.workspaceId);
    const { rows } = await this.deps.pool.query(
      `SELECT body FROM messaging.messages WHERE channel_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3`,
      [input.channelId, input.beforeSeq ?? 2 ** 31 - 1, input.limit + 1]);
    const hasMore = rows.length > input.limit;
    const messages = rows.slice(0, input.limit).map((r) => r.body as Message).reverse();
    return { channelId: input.channelId, messages, hasMore };
  }

  async syncMessages(actor: SessionActor, input: z.output<typeof SyncMessagesSchema>) {
    if (input.workspaceId !== actor.workspaceId) throw new DomainError('FORBIDDEN');
    await this.access(actor, null);
    await this.settled(actor.workspaceId);
    const { rows } = await this.deps.pool.query(
      `SELECT m.body FROM messaging.messages m JOIN messaging.channels c ON c.id = m.channel_id
       WHERE m.workspace_id = $1 AND m.seq > $2 AND (NOT c.is_private OR $3 = ANY (c.member_ids))
       ORDER BY m.seq LIMIT $4`,
      [actor.workspaceId, input.afterSeq, actor.userId, input.limit + 1]);
    const hasMore = rows.length > input.limit;
    const messages = rows.slice(0, input.limit).map((r) => r.body as Message);
    const last = await this.deps.pool.query('SELECT coalesce(max(seq), 0) AS seq FROM messaging.messages WHERE workspace_id = $1', [actor.workspaceId]);
    return { messages, hasMore, lastSeq: Number(last.rows[0].seq) };
  }

  // ---------- checks ----------

  /** The actor's membership, the room's expiry and (optionally) the channel, in one query. */
  private async access(actor: SessionActor, channelId: string | null): Promise<Access> {
    const lookup = async (): Promise<Access | undefined> => {
      const { rows } = await this.deps.pool.query(
        `SELECT m.username, w.expires_at, c.id AS channel_id, c.is_private, c.member_ids
         FROM messaging.members m
         JOIN messaging.workspaces w ON w.id = m.workspace_id
         LEFT JOIN messaging.channels c ON c.id = $3 AND c.workspace_id = m.workspace_id
         WHERE m.workspace_id = $1 AND m.user_id = $2`, [actor.workspaceId, actor.userId, channelId]);
      const r = rows[0];
      if (!r) return undefined;
      return {
        username: r.username, expiresAt: r.expires_at,
        channel: r.channel_id ? { id: r.channel_id, isPrivate: r.is_private, memberIds: r.member_ids } : null,
      };
    };
    let found = await lookup();
    // Room events reach us asynchronously: a member or channel created a moment ago may not be projected yet.
    if ((!found || (channelId && !found.channel)) && this.roomProjection) {
      await this.roomProjection.caughtUp();
      found = await lookup();
    }
    if (!found) throw new DomainError('WORKSPACE_NOT_FOUND');
    if (found.expiresAt && found.expiresAt.getTime() <= this.now().getTime()) throw new DomainError('WORKSPACE_NOT_FOUND');
    return found;
  }

  private async checkCanRead(actor: SessionActor, channelId: string): Promise<Access> {
    const found = await this.access(actor, channelId);
    if (!found.channel) throw new DomainError('CHANNEL_NOT_FOUND');
    if (found.channel.isPrivate && !found.channel.memberIds.includes(actor.userId)) throw new DomainError('NOT_A_MEMBER');
    return found;
  }

  private async byClientIds(workspaceId: string, sends: PendingSend[]): Promise<Map<string, Message>> {
    const { rows } = await this.deps.pool.query(
      `SELECT body FROM messaging.messages
       WHERE workspace_id = $1 AND (author_id, client_message_id) IN (SELECT * FROM unnest($2::text[], $3::text[]))`,
      [workspaceId, sends.map((s) => s.actor.userId), sends.map((s) => s.input.clientMessageId)]);
    return new Map(rows.map((r) => { const m = r.body as Message; return [`${m.authorId}\u0000${m.clientMessageId}`, m]; }));
  }

  private async currentSeq(workspaceId: string): Promise<number> {
    const cached = this.lastSeq.get(workspaceId);
    if (cached !== undefined) return cached;
    const { rows } = await this.deps.pool.query('SELECT coalesce(max(seq), 0) AS seq FROM messaging.messages WHERE workspace_id = $1', [workspaceId]);
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
