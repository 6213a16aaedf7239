/**
 * The roles of the authorization table and the sets of them its rows allow; apart from the tables (authz.ts for
 * socket events, http-authz.ts for HTTP routes) so that both tables and the check share one list of roles.
 */
export const ROLES = [
  'owner',
  'admin',
  'member',
  'non-member',
  'kicked',
  'left',
  'anonymous',
  'account',
  'room-owner-account',
  'superadmin',
] as const;
/**
 * owner: the room's creator. admin: isAdmin. member: anyone else in the room.
 * non-member: authenticated in another room (or naming a room it is not in). kicked / left: was a member, its token
 * is revoked. anonymous: no session (socket not joined, HTTP without a token).
 * Accounts (billing): account: a signed-in account session (Bearer session token, proven by an e-mail code
 * or Google). room-owner-account: the account that claimed the room the route names. superadmin: the account of
 * SUPERADMIN_EMAIL, signed in.
 */
export type Role = (typeof ROLES)[number];

export interface Rule {
  allow: readonly Role[];
  /** what the owning service checks beyond the role */
  also?: string;
}

export const EVERYONE: readonly Role[] = ROLES;
export const MEMBERS: readonly Role[] = ['owner', 'admin', 'member'];
export const ADMINS: readonly Role[] = ['owner', 'admin'];
export const OWNER: readonly Role[] = ['owner'];
export const ACCOUNTS: readonly Role[] = ['account', 'room-owner-account', 'superadmin'];
export const ROOM_OWNER_ACCOUNT: readonly Role[] = ['room-owner-account'];
export const SUPERADMIN: readonly Role[] = ['superadmin'];
