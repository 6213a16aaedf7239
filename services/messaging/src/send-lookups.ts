/**
 * The send batch's lookups, one query each for the whole batch (messaging-service.ts sendBatch): messages already
 * stored under the batch's client ids (a retried send is answered with its stored message), and the messages the
 * batch's replies quote. Both open the stored rows with the room's key (the quote is sealed again in the reply).
 */
import type { Message, SessionActor } from '@ephemera/proto';
import type { Pool, RoomKey } from '@ephemera/platform';
import { openStored } from './sealed-messages.ts';
import { messagesByClientIds, messagesByIds } from './messages-repository.ts';

interface Send {
  actor: SessionActor;
  input: { clientMessageId: string; replyTo?: { messageId: string } | null };
}
/** What a reply quotes, read from the stored message. */
export interface ReplyTarget {
  channelId: string;
  deleted: boolean;
  content: string;
  authorName: string;
}

export const clientKey = (authorId: string, clientMessageId: string) => `${authorId}\u0000${clientMessageId}`;

/** Stored messages by (author, client id). */
export async function storedByClientIds(
  pool: Pool,
  key: RoomKey,
  workspaceId: string,
  sends: Send[],
): Promise<Map<string, Message>> {
  const rows = await messagesByClientIds(
    pool,
    workspaceId,
    sends.map((s) => s.actor.userId),
    sends.map((s) => s.input.clientMessageId),
  );
  return new Map(
    rows.map((r) => {
      const m = openStored(key, r);
      return [clientKey(m.authorId, m.clientMessageId), m];
    }),
  );
}

/** The messages the batch's replies quote (no query when no send is a reply: the usual case). */
export async function replyTargets(
  pool: Pool,
  key: RoomKey,
  workspaceId: string,
  sends: Send[],
): Promise<Map<string, ReplyTarget>> {
  const ids = [...new Set(sends.flatMap((s) => (s.input.replyTo ? [s.input.replyTo.messageId] : [])))];
  if (ids.length === 0) return new Map();
  const rows = await messagesByIds(pool, workspaceId, ids);
  return new Map(
    rows.map((r) => {
      const m = openStored(key, r);
      return [r.id, { channelId: r.channel_id, deleted: r.deleted, content: m.content, authorName: m.authorName }];
    }),
  );
}
