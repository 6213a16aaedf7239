/**
 * The settings controls' input rules (docs/product/rooms.md R24-R25) and who sees which control (R21). The
 * client only hides controls and checks input for a quick answer; the server decides every change itself.
 */
import { ENTITLEMENTS, ERRORS, LIMITS, newRoomPasswordProblem, themeAllowed, type Tier } from '@ephemera/proto/client';

export const MSG_MAX_USERS = 'Please enter a number 2 or higher, or "unlimited"';
export const MSG_PASSWORD_REQUIRED = 'Please enter a password';
export const MSG_PASSWORD_TOO_LONG = `Password must be at most ${LIMITS.roomPasswordMax} characters`;
export const MIN_MAX_USERS = 2;

export type MaxUsersInput = { ok: true; maxUsers: number | 'unlimited' } | { ok: false; message: string };

/** Max users: an integer of at least 2, or "unlimited" (case-insensitive) where the tier allows it (business). */
export function parseMaxUsers(text: string, tier: Tier): MaxUsersInput {
  const t = text.trim();
  const e = ENTITLEMENTS[tier];
  if (/^unlimited$/i.test(t))
    return e.unlimitedUsers ? { ok: true, maxUsers: 'unlimited' } : { ok: false, message: MSG_MAX_USERS };
  if (!/^\d+$/.test(t)) return { ok: false, message: MSG_MAX_USERS };
  const n = Number(t);
  if (!Number.isSafeInteger(n) || n < MIN_MAX_USERS || n > 100_000) return { ok: false, message: MSG_MAX_USERS };
  return { ok: true, maxUsers: n };
}

/** A new room password (the settings modal, creating a room): trimmed, required, 6 to 50 characters. */
export function checkRoomPassword(text: string): { ok: true; password: string } | { ok: false; message: string } {
  const p = text.trim();
  const problem = newRoomPasswordProblem(p);
  if (problem) return { ok: false, message: ERRORS[problem] };
  if (p.length > LIMITS.roomPasswordMax) return { ok: false, message: MSG_PASSWORD_TOO_LONG };
  return { ok: true, password: p };
}

/** A room rename: trimmed; empty or unchanged cancels (null); at most 50 characters. */
export function renameTarget(input: string, current: string): { name: string | null; error?: string } {
  const name = input.trim();
  if (!name || name === current) return { name: null };
  if (name.length > LIMITS.roomNameMax)
    return { name: null, error: `Room name must be at most ${LIMITS.roomNameMax} characters` };
  return { name };
}

interface Actor {
  isOwner: boolean;
  isAdmin: boolean;
}

/** What the settings panel and the sidebar offer to whom (docs/product/rooms.md R21). */
export function adminControls(user: Actor | null | undefined, tier: Tier, expiresAt: string | null) {
  const owner = Boolean(user?.isOwner);
  const admin = owner || Boolean(user?.isAdmin);
  const e = ENTITLEMENTS[tier];
  return {
    rename: admin,
    kick: admin,
    password: admin,
    maxUsers: admin && e.customMaxUsers,
    /** Extend Room Duration: shown when the room expires */
    extend: owner && expiresAt !== null,
    upgrade: owner && tier !== 'business',
    deleteRoom: owner,
    setRole: owner,
    broadcastTheme: admin,
    ownerControls: admin,
  };
}

/** Only the room owner or an admin may broadcast; the tier decides which themes exist. */
export function canUseTheme(tier: Tier, themeId: string): boolean {
  return themeAllowed(tier, themeId);
}
