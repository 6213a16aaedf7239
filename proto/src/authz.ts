/**
 * THE authorization table: for every client event (SOCKET_AUTHZ, here) and every HTTP route (HTTP_AUTHZ,
 * http-authz.ts), which roles may call it (docs/product/security.md S1); the roles in authz-roles.ts.
 * The gateway refuses anonymous sockets from it; each service resolves the caller's role from its own read model
 * and calls authorize() before deciding anything. Resource rules beyond the role (author only, DM members only,
 * private channel members only) are enforced by the owning service and named in `also`.
 * test/authz/ walks every row with real clients in every role the row refuses; an event or route without a row
 * fails the suite (both maps are typed to have every key).
 */
import { DomainError } from './errors.ts';
import { C } from './names.ts';
import type { ClientEventName } from './commands.ts';
import { MEMBERS, ADMINS, OWNER, type Role, type Rule } from './authz-roles.ts';

export { ROLES, type Role, type Rule } from './authz-roles.ts';

export const SOCKET_AUTHZ: { readonly [E in ClientEventName]: Rule } = {
  [C.joinWorkspace]: {
    allow: MEMBERS,
    also: "the role is the one the user token names; a revoked token (left, kicked) or another room's token is refused",
  },
  [C.createChannel]: { allow: ADMINS, also: 'private channel members must be members of the room' },
  [C.joinChannel]: { allow: MEMBERS, also: 'private channels and DMs: their members only' },
  [C.sendMessage]: {
    allow: MEMBERS,
    also: 'private channels and DMs: their members only; a reply quotes a live message of a channel the sender can read',
  },
  [C.fetchMessages]: { allow: MEMBERS, also: 'private channels and DMs: their members only' },
  [C.syncMessages]: { allow: MEMBERS, also: 'answers only messages of channels the caller can read' },
  [C.leaveWorkspace]: { allow: MEMBERS, also: 'own room only' },
  [C.createDmChannel]: { allow: MEMBERS, also: 'the target is another member of the same room' },
  [C.deleteDm]: { allow: MEMBERS, also: "the caller is one of the DM's two members; hides it for the caller only" },
  [C.deleteChannel]: { allow: ADMINS, also: 'topic channels only (DMs use delete-dm)' },
  [C.renameChannel]: { allow: ADMINS, also: 'topic channels only' },
  [C.updateChannelMembers]: {
    allow: ADMINS,
    also: 'private topic channels only; added users must be members of the room',
  },
  [C.editMessage]: { allow: MEMBERS, also: "the message's author only, in a channel the author can still read" },
  [C.deleteMessage]: { allow: MEMBERS, also: "the message's author only" },
  [C.addReaction]: { allow: MEMBERS, also: 'a message of a channel the caller can read' },
  [C.markRead]: { allow: MEMBERS, also: 'a channel the caller can read' },
  [C.fetchChannelSummaries]: { allow: MEMBERS, also: 'own room; channels the caller can read' },
  [C.searchMessages]: { allow: MEMBERS, also: 'own room; only channels the caller can read' },
  [C.typingStart]: { allow: MEMBERS, also: 'a channel the caller can read; heard only by those who can read it' },
  [C.typingStop]: { allow: MEMBERS, also: 'a channel the caller can read' },
  [C.updatePresence]: { allow: MEMBERS, also: 'own room, own status' },
  [C.updateProfile]: { allow: MEMBERS, also: 'own profile; the username unique in the room' },
  [C.fetchOnlineUsers]: { allow: MEMBERS, also: 'own room' },
  [C.renameWorkspace]: { allow: ADMINS, also: 'own room; the new name free and not reserved' },
  [C.setWorkspacePassword]: { allow: ADMINS, also: 'own room' },
  [C.setWorkspaceMaxUsers]: {
    allow: ADMINS,
    also: 'own room; the tier must allow a custom cap (and "unlimited": business)',
  },
  [C.extendWorkspace]: {
    allow: OWNER,
    also: 'own room; free of charge for pro and business (ENTITLEMENTS.freeExtension), else payment',
  },
  [C.deleteWorkspace]: { allow: OWNER, also: 'own room' },
  [C.kickUser]: { allow: ADMINS, also: 'own room; not oneself; an admin cannot kick the owner' },
  [C.setMemberRole]: { allow: OWNER, also: 'own room; another member (the owner stays owner)' },
  [C.broadcastTheme]: { allow: ADMINS, also: "own room; a theme the room's tier includes (custom: business)" },
  // calls: the room service checks the DM and the tier (authorizeCall); the call state (gateway calls.ts) the parties
  [C.startCall]: {
    allow: MEMBERS,
    also: 'the two members of a DM only, the target being the other one; the tier allows the call type (ENTITLEMENTS voiceCalls/videoCalls); neither party in another call',
  },
  [C.acceptCall]: { allow: MEMBERS, also: "the DM's other member, while the caller's call to them rings" },
  [C.rejectCall]: { allow: MEMBERS, also: "the DM's other member, while the caller's call to them rings" },
  [C.endCall]: { allow: MEMBERS, also: "a party of the DM's call (ringing or active)" },
  [C.webrtcSignal]: { allow: MEMBERS, also: "a party of the DM's active call, to the other party only" },
};

/** Refuse a caller whose role the rule does not allow: not signed in (or revoked) vs signed in without the right. */
export function authorize(rule: Rule, role: Role): void {
  if (rule.allow.includes(role)) return;
  if (role === 'owner' || role === 'admin' || role === 'member') throw new DomainError('FORBIDDEN');
  if (role === 'kicked') throw new DomainError('KICKED');
  throw new DomainError('NOT_AUTHENTICATED');
}

/** The role of a user in a room, from the owning service's read model. */
export function roleOf(
  member: { userId: string; isAdmin: boolean } | null,
  createdBy: string,
  departed: 'left' | 'kicked' | null = null,
): Role {
  if (member) return memberRole(member, createdBy);
  return departed ?? 'non-member';
}

/** The role of a current member of a room. */
export function memberRole(
  member: { userId: string; isAdmin: boolean },
  createdBy: string,
): 'owner' | 'admin' | 'member' {
  return member.userId === createdBy ? 'owner' : member.isAdmin ? 'admin' : 'member';
}

/** What the owning service's read model knows of a caller in a room: the inputs of roleOf. */
export interface CallerRecord {
  /** the caller's member row; null when not (or no longer) a member */
  member: { userId: string; isAdmin: boolean } | null;
  /** the room's creator (its owner) */
  createdBy: string;
  /** why a former member is gone; null or absent for someone who never was a member */
  departed?: 'left' | 'kicked' | null;
}

/**
 * THE check every service makes before deciding anything: the caller's role resolved from its read model (roleOf)
 * against one row of the table. Socket events pass their own row, SOCKET_AUTHZ[event], never another event's.
 * Returns the role for resource rules that depend on it.
 */
export function authorizeCaller(rule: Rule, caller: CallerRecord): Role {
  const role = roleOf(caller.member, caller.createdBy, caller.departed ?? null);
  authorize(rule, role);
  return role;
}
