/** Business constants from docs/product/limits.md L2. One place, imported by server and client. */
export const LIMITS = {
  roomNameMax: 50,
  roomNameCheckMin: 2,
  usernameMin: 2,
  usernameMax: 20,
  profileUsernameMax: 30,
  channelNameMax: 30,
  roomPasswordMax: 50,
  /** a new room password (create, set): short ones fall to guessing across many addresses despite the limits */
  roomPasswordMin: 6,
  messageMax: 2000,
  messageCounterFrom: 1800,
  defaultMaxUsers: 5,
  historyPageSize: 50,
  /** a message joins its author's group when it follows the previous one within this... */
  groupingWindowMs: 2 * 60 * 1000,
  /** ...and the group began at most this long before it (a steady stream still shows its author and time) */
  groupingSpanMs: 5 * 60 * 1000,
  searchResultsMax: 10,
  searchQueryMax: 100,
  emojiMax: 32,
  /** typing: the client stops after 2 s idle; a receiver drops an indicator not refreshed within this */
  typingStopMs: 2000,
  typingExpireMs: 6000,
  /** a client typing for long re-sends typing-start this often, so receivers keep the indicator */
  typingRefreshMs: 3000,
} as const;

/**
 * Big rooms (docs/architecture.md "Big rooms"). A gateway holding at least `coalesceFromSockets` sockets of a room
 * sends that room's presence changes (joins, leaves, statuses) as one presence-batch frame per `coalesceWindowMs`
 * instead of one frame per change, and forwards at most `typersShown` typers per public channel (the others are
 * counted: "Several people are typing"). The online list comes as its count and a first page of `onlinePageSize`;
 * fetch-online-users pages the rest. The threshold's measurement: docs/architecture.md "Big rooms".
 */
export const BIG_ROOM = {
  coalesceFromSockets: 100,
  coalesceWindowMs: 300,
  onlinePageSize: 100,
  typersShown: 3,
} as const;

export type Tier = 'free' | 'pro' | 'business';

/** Room lifetime by tier; null means permanent. (Also ENTITLEMENTS[tier].lifetimeMs in tiers.ts, the entitlement table.) */
export const LIFETIME_MS: Record<Tier, number | null> = {
  free: 24 * 60 * 60 * 1000,
  pro: 7 * 24 * 60 * 60 * 1000,
  business: null,
};

/** Expiry banner and countdown (docs/product/rooms.md R34). */
export const EXPIRY = {
  bannerHiddenFromMs: 4 * 60 * 60 * 1000,
  warningAtMs: 6 * 60 * 60 * 1000,
  criticalAtMs: 60 * 60 * 1000,
  recomputeMs: 60_000,
  countdownTickMs: 1000,
  countdownChipUnderMs: 24 * 60 * 60 * 1000,
  /** the extend modal's "Hurry!" line */
  hurryUnderMs: 2 * 60 * 60 * 1000,
} as const;

/** Paths the app itself uses; a room cannot take one of these names. */
export const RESERVED_ROOM_NAMES = [
  'api',
  'assets',
  'socket.io',
  'login',
  'register',
  'upgrade',
  'dashboard',
  'features',
  'join',
  'workspace',
  'about',
  'privacy',
  'terms',
  'contact',
  'subscription',
  'payment',
  'admin',
  'healthz',
  'readyz',
  'metrics',
  'internal', // service-to-service routes: refused on every public entry (docs/security.md)
] as const;

/**
 * What is wrong with a new room password (already trimmed), or null. Setting one (create, the settings modal, the
 * dashboard) checks it here, server and client; joining compares whatever was set, older short ones included.
 */
export function newRoomPasswordProblem(password: string): 'PASSWORD_REQUIRED' | 'PASSWORD_TOO_SHORT' | null {
  if (!password) return 'PASSWORD_REQUIRED';
  if ([...password].length < LIMITS.roomPasswordMin) return 'PASSWORD_TOO_SHORT';
  return null;
}
