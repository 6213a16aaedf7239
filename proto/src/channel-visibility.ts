/**
 * Who sees a channel (docs/security.md, "Who sees a channel"), the one rule every service calls:
 *   - a public topic channel: every member of the room;
 *   - a private topic channel: its members (memberIds);
 *   - a DM: its two parties (memberIds), whatever its isPrivate flag says.
 * A room's owner and admins see no more than anyone else: a private channel or DM they are not in does not exist for
 * them. Whether the caller is in the room at all, and with a role the command allows, is the authorization table's
 * check (authorizeCaller in authz.ts), made before this one.
 *
 * Seeing a channel covers listing it, reading and searching its messages, writing in it, typing in it and hearing
 * its events: the audience of a channel's events is exactly the users who see it.
 *
 * Type imports only (erased): no zod is reached from here.
 */
import type { Audience } from './message-events.ts';
import type { Channel } from './models.ts';

/** What the rule reads of a channel. */
export type ChannelVisibilityFields = Pick<Channel, 'type' | 'isPrivate' | 'memberIds'>;

/**
 * A channel as a read model may keep it: whether it is for its members only (channelIsMembersOnly) and who they are.
 * Messaging stores only this (messaging.channels.is_private, member_ids).
 */
export interface ChannelReach {
  membersOnly: boolean;
  memberIds: string[];
}

/** Whether only a channel's members see it: a private topic channel or a DM; a public topic channel is the room's. */
export function channelIsMembersOnly(channel: Pick<Channel, 'type' | 'isPrivate'>): boolean {
  return channel.type === 'dm' || channel.isPrivate;
}

const membersOnly = (channel: ChannelVisibilityFields | ChannelReach): boolean =>
  'membersOnly' in channel ? channel.membersOnly : channelIsMembersOnly(channel);

/** Whether the room member `userId` sees the channel. */
export function channelVisibleTo(channel: ChannelVisibilityFields | ChannelReach, userId: string): boolean {
  return !membersOnly(channel) || channel.memberIds.includes(userId);
}

/** Who hears about the channel (its messages, edits, reactions, receipts, typing, renames): the users who see it. */
export function channelAudience(channel: ChannelVisibilityFields | ChannelReach): Audience {
  return membersOnly(channel) ? { kind: 'users', userIds: channel.memberIds } : { kind: 'workspace' };
}
