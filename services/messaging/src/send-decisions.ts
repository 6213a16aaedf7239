/**
 * send-message's decision for one batch of a room's sends (messaging-service.ts sendBatch gathers what it needs):
 * a retried send is answered with its stored message, a reply quotes a live message of the same channel as stored,
 * a file message names the sender's own upload to that channel, and every new message takes the room's next
 * sequence number in its message.sent event. No I/O: the checks and lookups were done for the whole batch.
 */
import {
  DomainError,
  channelAudience,
  type AnyEventEnvelope,
  type Message,
  type MessageLinkPreview,
  type SendMessageSchema,
  type SessionActor,
} from '@ephemera/proto';
import { makeEvent, newId, userActor } from '@ephemera/platform';
import type { z } from 'zod';
import type { ChannelAccess } from './access.ts';
import { describeFile, type StoredFile } from './files/index.ts';
import type { ReplyTarget } from './send-lookups.ts';
import { mentionedIds, type MemberNames } from './member-names.ts';

export interface PendingSend {
  actor: SessionActor;
  input: z.output<typeof SendMessageSchema>;
  resolve: (m: Message) => void;
  reject: (e: unknown) => void;
  /** performance.now() when it joined the room's queue (send-metrics.ts) */
  queuedAt: number;
}

/** A send's access check is per (author, channel): one check answers every send of the batch with the same pair. */
export const accessKey = (p: PendingSend) => `${p.actor.userId}\u0000${p.input.channelId}`;

/** What the batch's lookups found (send-lookups.ts, files/repository.ts). */
export interface SendLookups {
  /** the channel each allowed send may post to, by accessKey */
  channels: Map<string, ChannelAccess>;
  /** stored messages by (author, client id) */
  stored: Map<string, Message>;
  /** the messages the batch's replies quote */
  quoted: Map<string, ReplyTarget>;
  /** the uploads the batch's file messages name */
  uploads: Map<string, StoredFile>;
  /** the room's members by name, when a text of the batch may mention one (member-names.ts) */
  members: MemberNames;
}

/** New messages, each with the sends answered by it (the same send twice in one batch), and their events. */
export interface SendsDecided {
  events: AnyEventEnvelope[];
  fresh: { message: Message; waiters: PendingSend[] }[];
  /** the room's last sequence number once the events are recorded */
  seq: number;
}

/**
 * Each allowed send of the batch, in order: answered now (a retry of a stored message), refused (reply target or
 * file not valid), or a new message numbered after `seq`.
 */
export function decideSends(
  workspaceId: string,
  allowed: PendingSend[],
  found: SendLookups,
  seq: number,
  now: () => Date,
  linkPreviews: { cached(url: string): MessageLinkPreview | null } | undefined,
): SendsDecided {
  const attached = new Set<string>();
  const fresh = new Map<string, { message: Message; waiters: PendingSend[] }>();
  const events: AnyEventEnvelope[] = [];
  for (const p of allowed) {
    const key = `${p.actor.userId}\u0000${p.input.clientMessageId}`;
    const existing = found.stored.get(key);
    if (existing) {
      p.resolve(existing);
      continue;
    }
    const pending = fresh.get(key);
    if (pending) {
      pending.waiters.push(p);
      continue;
    } // the same send twice in one batch

    // a reply quotes a live message of the same channel, as stored (the client's quote is never read)
    const channel = found.channels.get(accessKey(p))!;
    let replyTo: Message['replyTo'] = null;
    if (p.input.replyTo) {
      const target = found.quoted.get(p.input.replyTo.messageId);
      if (!target || target.deleted || target.channelId !== channel.id) {
        p.reject(new DomainError('REPLY_TARGET_GONE'));
        continue;
      }
      replyTo = { messageId: p.input.replyTo.messageId, content: target.content, authorName: target.authorName };
    }
    // a file message names the sender's own upload to this channel, not yet sent; its type and text are the
    // stored file's (the client's type, url or size is never taken)
    let file: Message['file'] = null;
    let type = p.input.type;
    let content = p.input.content;
    if (p.input.fileId) {
      const f = found.uploads.get(p.input.fileId);
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
    // the next sequence number and the event
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
      timestamp: now().toISOString(),
      type,
      content,
      isEdited: false,
      replyTo,
      reactions: {},
      linkPreview: p.input.linkPreview ? (linkPreviews?.cached(p.input.linkPreview.url) ?? null) : null,
      editedAt: null,
      file,
    };
    const mentioned = mentionedIds(type, content, found.members);
    const payload = { message, audience: channelAudience(channel) };
    events.push(
      makeEvent(
        'message.sent',
        workspaceId,
        seq,
        mentioned.length > 0 ? { ...payload, mentionedUserIds: mentioned } : payload,
        userActor(p.actor.userId),
      ),
    );
    fresh.set(key, { message, waiters: [p] });
  }
  return { events, fresh: [...fresh.values()], seq };
}
