/**
 * The messaging service's use cases. sendMessage is the hot path:
 *   check (room live, author a member, channel visible) -> dedupe by client id -> next per-room sequence ->
 *   append message.sent (durable) -> apply to the read model -> answer.
 * Sends for one room run one at a time (keyed mutex), so sequence numbers are gap-free and in log order.
 * One messaging writer per room is assumed (partition ownership when scaled out; docs/architecture.md).
 */
import {
  DomainError, type Audience, type Message, type MessagingApi, type SessionActor,
  type SendMessageSchema, type FetchMessagesSchema, type SyncMessagesSchema,
} from '@ephemera/proto';
import type { z } from 'zod';
import {
  KeyedMutex, applyOnce, makeEvent, newId, appendEvents, userActor, type EventLog, type Pool, type Subscription,
} from '@ephemera/platform';
import { projectForMessaging } from './projection.ts';

interface ChannelRow { id: string; workspace_id: string; is_private: boolean; member_ids: string[] }

export interface MessagingServiceDeps {
  pool: Pool;
  log: EventLog;
  now?: () => Date;
}

export class MessagingService implements MessagingApi {
  private readonly mutex = new KeyedMutex();
  private readonly lastSeq = new Map<string, number>();
  private readonly now: () => Date;
  /** set by the module: lets a command wait for room events it has not seen yet */
  roomProjection: Subscription | null = null;

  constructor(private readonly deps: MessagingServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async sendMessage(actor: SessionActor, input: z.output<typeof SendMessageSchema>): Promise<Message> {
    return this.mutex.run(actor.workspaceId, async () => {
      const { channel, author } = await this.checkCanPost(actor, input.channelId);
      const existing = await this.byClientId(actor, input.clientMessageId);
      if (existing) return existing; // a retried send: same answer, stored once

      const seq = (await this.currentSeq(actor.workspaceId)) + 1;
      const message: Message = {
        id: newId(), clientMessageId: input.clientMessageId, workspaceId: actor.workspaceId, channelId: channel.id, seq,
        authorId: actor.userId, authorName: author, profilePicture: null, timestamp: this.now().toISOString(),
        type: input.type, content: input.content, isEdited: false, replyTo: input.replyTo ?? null, reactions: {},
      };
      const audience: Audience = channel.is_private ? { kind: 'users', userIds: channel.member_ids } : { kind: 'workspace' };
      const event = makeEvent('message.sent', actor.workspaceId, seq, { message, audience }, userActor(actor.userId));
      await appendEvents(this.deps.log, [event]);
      this.lastSeq.set(actor.workspaceId, seq);
      await applyOnce(this.deps.pool, 'messaging', [event], projectForMessaging);
      return message;
    });
  }

  async fetchMessages(actor: SessionActor, input: z.output<typeof FetchMessagesSchema>) {
    await this.checkCanRead(actor, input.channelId);
    const { rows } = await this.deps.pool.query(
      `SELECT body FROM messaging.messages WHERE channel_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3`,
      [input.channelId, input.beforeSeq ?? 2 ** 31 - 1, input.limit + 1]);
    const hasMore = rows.length > input.limit;
    const messages = rows.slice(0, input.limit).map((r) => r.body as Message).reverse();
    return { channelId: input.channelId, messages, hasMore };
  }

  async syncMessages(actor: SessionActor, input: z.output<typeof SyncMessagesSchema>) {
    if (input.workspaceId !== actor.workspaceId) throw new DomainError('FORBIDDEN');
    await this.checkMember(actor);
    const { rows } = await this.deps.pool.query(
      `SELECT m.body FROM messaging.messages m JOIN messaging.channels c ON c.id = m.channel_id
       WHERE m.workspace_id = $1 AND m.seq > $2 AND (NOT c.is_private OR $3 = ANY (c.member_ids))
       ORDER BY m.seq LIMIT $4`,
      [actor.workspaceId, input.afterSeq, actor.userId, input.limit + 1]);
    const hasMore = rows.length > input.limit;
    const messages = rows.slice(0, input.limit).map((r) => r.body as Message);
    return { messages, hasMore, lastSeq: await this.currentSeq(actor.workspaceId) };
  }

  // ---------- checks ----------

  private async checkMember(actor: SessionActor): Promise<string> {
    const lookup = async () => {
      const { rows } = await this.deps.pool.query(
        `SELECT m.username, w.expires_at FROM messaging.members m JOIN messaging.workspaces w ON w.id = m.workspace_id
         WHERE m.workspace_id = $1 AND m.user_id = $2`, [actor.workspaceId, actor.userId]);
      return rows[0] as { username: string; expires_at: Date | null } | undefined;
    };
    const row = (await lookup()) ?? (await this.afterRoomCatchUp(lookup));
    if (!row) throw new DomainError('WORKSPACE_NOT_FOUND');
    if (row.expires_at && row.expires_at.getTime() <= this.now().getTime()) throw new DomainError('WORKSPACE_NOT_FOUND');
    return row.username;
  }

  private async checkCanRead(actor: SessionActor, channelId: string): Promise<ChannelRow> {
    await this.checkMember(actor);
    const lookup = async () => {
      const { rows } = await this.deps.pool.query('SELECT id, workspace_id, is_private, member_ids FROM messaging.channels WHERE id = $1 AND workspace_id = $2',
        [channelId, actor.workspaceId]);
      return rows[0] as ChannelRow | undefined;
    };
    const channel = (await lookup()) ?? (await this.afterRoomCatchUp(lookup));
    if (!channel) throw new DomainError('CHANNEL_NOT_FOUND');
    if (channel.is_private && !channel.member_ids.includes(actor.userId)) throw new DomainError('NOT_A_MEMBER');
    return channel;
  }

  private async checkCanPost(actor: SessionActor, channelId: string) {
    const channel = await this.checkCanRead(actor, channelId);
    return { channel, author: actor.username };
  }

  /** Room events reach us asynchronously: a channel created a moment ago may not be projected yet. */
  private async afterRoomCatchUp<T>(lookup: () => Promise<T | undefined>): Promise<T | undefined> {
    if (!this.roomProjection) return undefined;
    await this.roomProjection.caughtUp();
    return lookup();
  }

  private async byClientId(actor: SessionActor, clientMessageId: string): Promise<Message | null> {
    const { rows } = await this.deps.pool.query(
      'SELECT body FROM messaging.messages WHERE workspace_id = $1 AND author_id = $2 AND client_message_id = $3',
      [actor.workspaceId, actor.userId, clientMessageId]);
    return (rows[0]?.body as Message | undefined) ?? null;
  }

  private async currentSeq(workspaceId: string): Promise<number> {
    const cached = this.lastSeq.get(workspaceId);
    if (cached !== undefined) return cached;
    const { rows } = await this.deps.pool.query('SELECT coalesce(max(seq), 0) AS seq FROM messaging.messages WHERE workspace_id = $1', [workspaceId]);
    const seq = Number(rows[0].seq);
    this.lastSeq.set(workspaceId, seq);
    return seq;
  }

  forgetWorkspace(workspaceId: string): void {
    this.lastSeq.delete(workspaceId);
  }
}
