/**
 * History reads (P3, P4): a channel's older pages and a room's resync after a reconnect. Deleted messages are left
 * out of both; the room's lastSeq still counts them, so a client's position moves past them.
 */
import type { FetchMessagesSchema, Message, SessionActor, SyncMessagesSchema } from '@ephemera/proto';
import type { Pool, RoomKey } from '@ephemera/platform';
import type { z } from 'zod';
import { openMessage } from './sealed-messages.ts';
import { lastMessageSeq, liveMessagesBefore, visibleLiveMessagesAfter } from './messages-repository.ts';

/** Messages of one channel with seq < beforeSeq, newest page first (answered oldest first). */
export async function historyPage(pool: Pool, key: RoomKey, input: z.output<typeof FetchMessagesSchema>) {
  const rows = await liveMessagesBefore(pool, input.channelId, input.beforeSeq ?? 2 ** 31 - 1, input.limit + 1);
  const hasMore = rows.length > input.limit;
  const messages = rows
    .slice(0, input.limit)
    .map((r) => openMessage(key, r))
    .reverse();
  return { channelId: input.channelId, messages, hasMore };
}

/** Every message of the room the actor can read with seq > afterSeq, in order, and the room's last seq. */
export async function messagesAfter(
  pool: Pool,
  key: RoomKey,
  actor: SessionActor,
  input: z.output<typeof SyncMessagesSchema>,
) {
  const rows = await visibleLiveMessagesAfter(pool, actor.workspaceId, input.afterSeq, actor.userId, input.limit + 1);
  const hasMore = rows.length > input.limit;
  const messages: Message[] = rows.slice(0, input.limit).map((r) => openMessage(key, r));
  return { messages, hasMore, lastSeq: await lastMessageSeq(pool, actor.workspaceId) };
}
