/**
 * Read positions kept by the server, per (member, channel), only moving forward; and the sidebar's channel
 * summaries built from them (unread counts, the member's own position, the highest position of anyone else for
 * sent/read marks). Positions survive a reload and follow the user to another device.
 */
import {
  C,
  SOCKET_AUTHZ,
  channelAudience,
  type ChannelSummary,
  type MarkReadSchema,
  type SessionActor,
} from '@ephemera/proto';
import { makeEvent, userActor, type RoomKey } from '@ephemera/platform';
import type { z } from 'zod';
import { channelSummaryRows, readMarkState } from './read-positions-repository.ts';
import { openMessage } from './sealed-messages.ts';
import type { CommandContext, Decision } from './message-commands.ts';

/** The aggregate of one member's read positions in a room (all channels): its sequence is a version counter. */
export const readAggregateId = (workspaceId: string, userId: string) => `${workspaceId}:${userId}:read`;

/**
 * Moves the member's position in the channel forward to `seq`, capped at the channel's newest message. A mark that
 * does not move it forward records nothing and answers the current position.
 */
export async function decideMarkRead(
  ctx: CommandContext,
  actor: SessionActor,
  input: z.output<typeof MarkReadSchema>,
): Promise<Decision<{ channelId: string; seq: number }>> {
  const { channel } = await ctx.access.checkCanRead(actor, SOCKET_AUTHZ[C.markRead], input.channelId);
  const { newest, current, version } = await readMarkState(ctx.pool, actor.workspaceId, channel.id, actor.userId);
  const seq = Math.min(input.seq, newest);
  if (seq <= current) return { events: [], answer: { channelId: channel.id, seq: current } };
  // Live receipts matter in DMs and private channels; in a public channel the audience is the room, and the
  // fan-out sends it to nobody live (the summaries carry it) rather than to every member on every read.
  const event = makeEvent(
    'read.marked',
    readAggregateId(actor.workspaceId, actor.userId),
    version + 1,
    {
      workspaceId: actor.workspaceId,
      channelId: channel.id,
      userId: actor.userId,
      seq,
      audience: channelAudience(channel),
    },
    userActor(actor.userId),
  );
  return { events: [event], answer: { channelId: channel.id, seq } };
}

/**
 * Unread counts stop counting here: the badge shows 99+ above 99 (docs/product/messages.md M9), and a member new to a
 * room
 * with a long history should not make the server count all of it.
 */
export const UNREAD_COUNT_CAP = 100;

/**
 * One summary per channel the member can read, in one query: the newest live message, the unread count (live
 * messages after the member's position by other authors: own messages never count), how many of those mention the
 * member (their ids stored with the message: member-names.ts), the member's position and the highest position of
 * any other member. unreadCount and mentionCount are at most UNREAD_COUNT_CAP.
 */
export async function channelSummaries(
  ctx: CommandContext,
  key: RoomKey,
  actor: SessionActor,
): Promise<ChannelSummary[]> {
  const rows = await channelSummaryRows(ctx.pool, actor.workspaceId, actor.userId, UNREAD_COUNT_CAP);
  return rows.map((r) => ({
    channelId: r.id,
    lastMessage: r.last_id ? openMessage(key, { id: r.last_id, sealed_body: r.last_body as string }) : null,
    unreadCount: Number(r.unread),
    mentionCount: Number(r.mentions),
    readSeq: Number(r.read_seq),
    othersReadSeq: Number(r.others_read_seq),
  }));
}
