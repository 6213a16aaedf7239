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
import { channelVisibleSql } from './access.ts';
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
  const { rows } = await ctx.pool.query(
    `SELECT (SELECT coalesce(max(seq), 0) FROM messaging.messages WHERE channel_id = $1) AS newest,
            (SELECT seq FROM messaging.read_positions WHERE channel_id = $1 AND user_id = $2) AS current,
            (SELECT version FROM messaging.read_versions WHERE workspace_id = $3 AND user_id = $2) AS version`,
    [channel.id, actor.userId, actor.workspaceId],
  );
  const newest = Number(rows[0].newest);
  const current = Number(rows[0].current ?? 0);
  const seq = Math.min(input.seq, newest);
  if (seq <= current) return { events: [], answer: { channelId: channel.id, seq: current } };
  // Live receipts matter in DMs and private channels; in a public channel the audience is the room, and the
  // fan-out sends it to nobody live (the summaries carry it) rather than to every member on every read.
  const event = makeEvent(
    'read.marked',
    readAggregateId(actor.workspaceId, actor.userId),
    Number(rows[0].version ?? 0) + 1,
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
  const { rows } = await ctx.pool.query(
    `SELECT c.id,
            coalesce(own.seq, 0) AS read_seq,
            (SELECT coalesce(max(o.seq), 0) FROM messaging.read_positions o WHERE o.channel_id = c.id AND o.user_id <> $2) AS others_read_seq,
            (SELECT count(*) FROM (SELECT 1 FROM messaging.messages u
              WHERE u.channel_id = c.id AND u.seq > coalesce(own.seq, 0) AND NOT u.deleted AND u.author_id <> $2
              LIMIT $3) capped) AS unread,
            (SELECT count(*) FROM (SELECT 1 FROM messaging.messages u
              WHERE u.channel_id = c.id AND u.mentioned_user_ids @> ARRAY[$2::text] AND u.seq > coalesce(own.seq, 0)
                AND NOT u.deleted AND u.author_id <> $2
              LIMIT $3) capped) AS mentions,
            last.id AS last_id, last.sealed_body AS last_body
     FROM messaging.channels c
     LEFT JOIN messaging.read_positions own ON own.channel_id = c.id AND own.user_id = $2
     LEFT JOIN LATERAL (SELECT m.id, m.sealed_body FROM messaging.messages m WHERE m.channel_id = c.id AND NOT m.deleted
                        ORDER BY m.seq DESC LIMIT 1) last ON true
     WHERE c.workspace_id = $1 AND ${channelVisibleSql('$2')}
     ORDER BY c.id`,
    [actor.workspaceId, actor.userId, UNREAD_COUNT_CAP],
  );
  return rows.map((r) => ({
    channelId: r.id,
    lastMessage: r.last_id ? openMessage(key, { id: r.last_id, sealed_body: r.last_body }) : null,
    unreadCount: Number(r.unread),
    mentionCount: Number(r.mentions),
    readSeq: Number(r.read_seq),
    othersReadSeq: Number(r.others_read_seq),
  }));
}
