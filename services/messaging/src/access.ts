/**
 * Who may do what, from messaging's own read model of room events: the caller's record checked against one row of
 * THE authorization table (authorizeCaller: roleOf, then authorize; socket events pass their own SOCKET_AUTHZ row),
 * then who sees the channel (channelVisibleTo in proto/src/channel-visibility.ts). One query per check; it is on the
 * send hot path.
 */
import {
  DomainError,
  authorizeCaller,
  channelVisibleTo,
  type CallerRecord,
  type ChannelReach,
  type Role,
  type Rule,
  type SessionActor,
} from '@ephemera/proto';
import type { Pool, Subscription } from '@ephemera/platform';
import { callerRow } from './rooms-repository.ts';

/** A channel as messaging keeps it: messaging.channels.is_private is channelIsMembersOnly of the room's channel. */
export interface ChannelAccess extends ChannelReach {
  id: string;
}
export interface Access {
  role: Role;
  channel: ChannelAccess | null;
}

/** The channel rule: the channel exists in the caller's room and the caller sees it. */
export function requireReadable(actor: SessionActor, access: Access): Access & { channel: ChannelAccess } {
  const channel = access.channel;
  if (!channel) throw new DomainError('CHANNEL_NOT_FOUND');
  if (!channelVisibleTo(channel, actor.userId)) throw new DomainError('NOT_A_MEMBER');
  return { ...access, channel };
}

interface Found {
  caller: CallerRecord;
  channel: ChannelAccess | null;
  expiresAt: Date | null;
  memberKnown: boolean;
}

export class AccessChecks {
  constructor(
    private readonly pool: Pool,
    private readonly now: () => Date,
    /** the room-events projection, to wait for room events not seen yet (set once the module is started) */
    private readonly roomProjection: () => Subscription | null,
  ) {}

  /**
   * The caller's role in the room, authorized for `rule`, and (optionally) the channel. Refuses an expired or
   * unknown room (WORKSPACE_NOT_FOUND) and a role the rule does not allow (NOT_AUTHENTICATED / FORBIDDEN).
   */
  async check(actor: SessionActor, rule: Rule, channelId: string | null): Promise<Access> {
    let found = await this.lookup(actor, channelId);
    // Room events reach us asynchronously: a room, member or channel created a moment ago may not be projected yet.
    const projection = this.roomProjection();
    if ((!found || !found.memberKnown || (channelId && !found.channel)) && projection) {
      await projection.caughtUp();
      found = await this.lookup(actor, channelId);
    }
    if (!found) throw new DomainError('WORKSPACE_NOT_FOUND');
    if (found.expiresAt && found.expiresAt.getTime() <= this.now().getTime())
      throw new DomainError('WORKSPACE_NOT_FOUND');
    return { role: authorizeCaller(rule, found.caller), channel: found.channel };
  }

  /** check() plus the channel rule: the channel exists in this room and the caller may read it. */
  async checkCanRead(actor: SessionActor, rule: Rule, channelId: string): Promise<Access & { channel: ChannelAccess }> {
    return requireReadable(actor, await this.check(actor, rule, channelId));
  }

  private async lookup(actor: SessionActor, channelId: string | null): Promise<Found | undefined> {
    const r = await callerRow(this.pool, actor.workspaceId, actor.userId, channelId);
    if (!r) return undefined;
    const member = r.member_id ? { userId: r.member_id, isAdmin: r.is_admin as boolean } : null;
    return {
      caller: { member, createdBy: r.created_by ?? '', departed: r.departed ?? null },
      expiresAt: r.expires_at,
      memberKnown: Boolean(member) || Boolean(r.departed),
      channel: r.channel_id
        ? { id: r.channel_id, membersOnly: r.is_private as boolean, memberIds: r.member_ids as string[] }
        : null,
    };
  }
}
