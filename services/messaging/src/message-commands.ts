/**
 * Commands on one sent message: edit, delete, react. Each decides from the read model (role, then the resource
 * rule) and returns the events to record and the answer; the service records them (messaging-service.ts).
 * A message is its own aggregate once sent: aggregateId = message id, sequence = its version + 1. The service runs
 * these in the room's queue, after the room's earlier send batches were applied, so the version read here is current.
 */
import {
  C,
  DomainError,
  SOCKET_AUTHZ,
  channelAudience,
  type AnyEventEnvelope,
  type EditMessageSchema,
  type DeleteMessageSchema,
  type AddReactionSchema,
  type Message,
  type SessionActor,
} from '@ephemera/proto';
import {
  makeEvent,
  userActor,
  type Decision as RecordedDecision,
  type Pool,
  type RoomKeyring,
} from '@ephemera/platform';
import type { z } from 'zod';
import { requireReadable, type AccessChecks } from './access.ts';
import { react } from './reactions.ts';
import { openStored, servingKey } from './sealed-messages.ts';
import { memberNames, mentionedIds } from './member-names.ts';
import { messageWithVersion } from './messages-repository.ts';
import { storageKeysOfFile } from './files/repository.ts';

/** platform's Decision (write-path.ts), with the stored objects the command's events remove */
export interface Decision<T> extends RecordedDecision<T> {
  /** stored objects (file storage keys) to delete once the events are recorded */
  objects?: string[];
}
export interface CommandContext {
  pool: Pool;
  now: () => Date;
  access: AccessChecks;
  keyring: RoomKeyring;
}

interface StoredMessage {
  message: Message;
  version: number;
  deleted: boolean;
}

async function loadMessage(ctx: CommandContext, workspaceId: string, messageId: string): Promise<StoredMessage | null> {
  const r = await messageWithVersion(ctx.pool, workspaceId, messageId);
  if (!r) return null;
  return { message: openStored(await servingKey(ctx.keyring, workspaceId), r), version: r.version, deleted: r.deleted };
}

/** The role first (an outsider learns nothing about message ids), then the message must exist and be live. */
async function liveMessage(
  ctx: CommandContext,
  actor: SessionActor,
  messageId: string,
  rule: (typeof SOCKET_AUTHZ)[keyof typeof SOCKET_AUTHZ],
) {
  const stored = await loadMessage(ctx, actor.workspaceId, messageId);
  const access = await ctx.access.check(actor, rule, stored?.message.channelId ?? null);
  if (!stored || stored.deleted) throw new DomainError('MESSAGE_NOT_FOUND');
  return { ...stored, access };
}

const ensureAuthor = (actor: SessionActor, message: Message) => {
  if (message.authorId !== actor.userId) throw new DomainError('NOT_AUTHOR');
};

export async function decideEdit(
  ctx: CommandContext,
  actor: SessionActor,
  input: z.output<typeof EditMessageSchema>,
): Promise<Decision<Message>> {
  const { message, version, access } = await liveMessage(ctx, actor, input.messageId, SOCKET_AUTHZ[C.editMessage]);
  ensureAuthor(actor, message);
  // ...in a channel the author can still read (a member removed from a private channel cannot rewrite history there)
  const { channel } = requireReadable(actor, access);
  const content = input.newContent.trim(); // the schema trims too: this rule holds for every caller
  if (content.length === 0) throw new DomainError('MESSAGE_EMPTY');
  if (content === message.content) return { events: [], answer: message }; // nothing changed: nothing recorded
  const editedAt = ctx.now().toISOString();
  const key = await servingKey(ctx.keyring, actor.workspaceId);
  const mentioned = mentionedIds(message.type, content, await memberNames(ctx.pool, key, actor.workspaceId, [content]));
  const event = makeEvent(
    'message.edited',
    message.id,
    version + 1,
    {
      workspaceId: actor.workspaceId,
      channelId: message.channelId,
      messageId: message.id,
      content,
      editedAt,
      audience: channelAudience(channel),
      ...(mentioned.length > 0 ? { mentionedUserIds: mentioned } : {}),
    },
    userActor(actor.userId),
  );
  return { events: [event], answer: { ...message, content, isEdited: true, editedAt } };
}

export async function decideDelete(
  ctx: CommandContext,
  actor: SessionActor,
  input: z.output<typeof DeleteMessageSchema>,
): Promise<Decision<{ messageId: string }>> {
  const { message, version, access } = await liveMessage(ctx, actor, input.messageId, SOCKET_AUTHZ[C.deleteMessage]);
  ensureAuthor(actor, message);
  // Everyone who could see the message hears that it is gone (the channel exists while its messages do).
  const audience = access.channel
    ? channelAudience(access.channel)
    : { kind: 'users' as const, userIds: [actor.userId] };
  const events: AnyEventEnvelope[] = [
    makeEvent(
      'message.deleted',
      message.id,
      version + 1,
      {
        workspaceId: actor.workspaceId,
        channelId: message.channelId,
        messageId: message.id,
        audience,
      },
      userActor(actor.userId),
    ),
  ];
  // Its file goes with it, bytes included (not only hidden): removed from the read model, then from storage.
  const file = message.file ? await storedObjectsOf(ctx, actor.workspaceId, message.file.id) : null;
  if (file)
    events.push(
      makeEvent(
        'file.removed',
        file.id,
        2,
        { workspaceId: actor.workspaceId, fileId: file.id, reason: 'message-deleted' },
        userActor(actor.userId),
      ),
    );
  return { events, answer: { messageId: message.id }, objects: file?.objects };
}

/** A file still stored (not yet removed by retention) and the storage keys of its bytes and thumbnail. */
async function storedObjectsOf(
  ctx: CommandContext,
  workspaceId: string,
  fileId: string,
): Promise<{ id: string; objects: string[] } | null> {
  const objects = await storageKeysOfFile(ctx.pool, workspaceId, fileId);
  return objects ? { id: fileId, objects } : null;
}

export async function decideReaction(
  ctx: CommandContext,
  actor: SessionActor,
  input: z.output<typeof AddReactionSchema>,
): Promise<Decision<{ messageId: string; reactions: Record<string, string[]> }>> {
  const { message, version, access } = await liveMessage(ctx, actor, input.messageId, SOCKET_AUTHZ[C.addReaction]);
  // a message of a channel the caller can read
  const { channel } = requireReadable(actor, access);
  const { reactions, emoji } = react(message.reactions ?? {}, actor.userId, input.emoji);
  const event = makeEvent(
    'reaction.changed',
    message.id,
    version + 1,
    {
      workspaceId: actor.workspaceId,
      channelId: message.channelId,
      messageId: message.id,
      userId: actor.userId,
      emoji,
      reactions,
      audience: channelAudience(channel),
    },
    userActor(actor.userId),
  );
  return { events: [event], answer: { messageId: message.id, reactions } };
}
