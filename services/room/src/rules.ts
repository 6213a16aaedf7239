/**
 * Pure rules of the room (no I/O), unit-tested in services/room/test/room-experience-rules.test.ts and
 * room-rules.test.ts. The use cases (room-service.ts, room-admin.ts, channels.ts, dms.ts, members.ts) call these after
 * the role check.
 */
import { DomainError, LIMITS, RESERVED_ROOM_NAMES, SERVICE_TEXTS, type Channel } from '@ephemera/proto';

/** Letters and digits of any script, hyphens and underscores: the name is a path segment. */
const ROOM_NAME_PATTERN = /^[\p{L}\p{N}_-]+$/u;

/** Why a room name cannot be used (create-workspace, rename-workspace), or null. */
export function roomNameProblem(name: string): DomainError | null {
  if (name.length === 0) return new DomainError('VALIDATION', 'Room name is required');
  if (name.length > LIMITS.roomNameMax) return new DomainError('VALIDATION', SERVICE_TEXTS.roomNameTooLong);
  if (!ROOM_NAME_PATTERN.test(name)) return new DomainError('ROOM_NAME_INVALID');
  if ((RESERVED_ROOM_NAMES as readonly string[]).includes(name.toLowerCase()))
    return new DomainError('ROOM_NAME_RESERVED');
  return null;
}

/** The one key of a pair's DM, whoever started it: the two user ids sorted. */
export function dmKeyOf(memberIds: readonly string[]): string {
  return [...memberIds].sort().join(' ');
}

/** rename-channel and delete-channel manage topic channels; a DM is removed per member with delete-dm. */
export function requireTopic(channel: Channel): void {
  if (channel.type !== 'topic') throw new DomainError('VALIDATION', SERVICE_TEXTS.dmNotRenamed);
}

/** delete-dm: the two refusals (docs/product/rooms.md R30). */
export function checkDmMember(channel: Channel, userId: string): void {
  if (channel.type !== 'dm') throw new DomainError('NOT_A_DM');
  if (!channel.memberIds.includes(userId)) throw new DomainError('NOT_DM_MEMBER');
}

/**
 * A private channel's members picked by its creator: unique, the creator always one, every one a current member
 * of the room (USER_NOT_FOUND names the first that is not). A public channel lists no members.
 */
export function initialMembers(
  isPrivate: boolean,
  creatorId: string,
  picked: readonly string[],
  roomMemberIds: ReadonlySet<string>,
): string[] {
  if (!isPrivate) return [];
  const ids = [...new Set([creatorId, ...picked])];
  const stranger = ids.find((id) => !roomMemberIds.has(id));
  if (stranger) throw new DomainError('USER_NOT_FOUND', `User not found: ${stranger}`);
  return ids;
}

/**
 * update-channel-members: the membership after adding and removing, and what actually changed. Added users must be
 * members of the room; a user may not be both added and removed; the channel keeps at least one member.
 */
export function changeMembers(
  current: readonly string[],
  add: readonly string[],
  remove: readonly string[],
  roomMemberIds: ReadonlySet<string>,
): { memberIds: string[]; added: string[]; removed: string[] } {
  const both = add.find((id) => remove.includes(id));
  if (both) throw new DomainError('VALIDATION', SERVICE_TEXTS.memberAddedAndRemoved);
  const stranger = add.find((id) => !roomMemberIds.has(id));
  if (stranger) throw new DomainError('USER_NOT_FOUND', `User not found: ${stranger}`);
  const added = [...new Set(add)].filter((id) => !current.includes(id));
  const removed = [...new Set(remove)].filter((id) => current.includes(id));
  const memberIds = [...current.filter((id) => !removed.includes(id)), ...added];
  if (memberIds.length === 0) throw new DomainError('VALIDATION', SERVICE_TEXTS.privateChannelNeedsMember);
  return { memberIds, added, removed };
}
