/**
 * The named rate limits and their defaults (rate-limit.ts enforces them). Each can be overridden per deployment
 * with RATE_LIMIT_<NAME>=<points>/<seconds>, declared with the other variables in config-vars.ts.
 */
export interface LimitSpec {
  points: number;
  durationSec: number;
  /** extra points drawn once the main window is used up, refilled over their own (longer) window */
  burst?: { points: number; durationSec: number };
}

/** The named limits with their defaults. */
export const RATE_LIMIT_DEFAULTS = {
  /** new socket connections (handshakes) per client address: reconnect storms and NAT'd offices stay well below */
  connectionsPerAddress: { points: 600, durationSec: 60 },
  /** every socket command of one user (typing refreshes every 3 s, presence, reads...) */
  eventsPerUser: { points: 200, durationSec: 10 },
  /** send-message of one user: 30 per 10 s, with a burst of 60 more a minute (a pasted list, a quick exchange) */
  messagesPerUser: { points: 30, durationSec: 10, burst: { points: 60, durationSec: 60 } },
  /** wrong room passwords per client address (only failures count: a typo or two never shows) */
  passwordFailuresPerAddress: { points: 10, durationSec: 900 },
  /** wrong passwords for one room from everywhere: slows a distributed guesser without locking the room quickly */
  passwordFailuresPerRoom: { points: 100, durationSec: 900 },
  /** POST /api/workspaces per client address */
  roomCreationsPerAddress: { points: 100, durationSec: 3600 },
  /** check-name and check-username per client address (the forms debounce to one check per pause) */
  nameChecksPerAddress: { points: 300, durationSec: 60 },
  /** POST /api/workspaces/extend-room per client address (an owner extends a room a few times at most) */
  roomExtensionsPerAddress: { points: 30, durationSec: 3600 },
  /** POST /api/link-preview/fetch per user (the composer asks after a 1 s typing pause) */
  linkPreviewsPerUser: { points: 30, durationSec: 60 },
  /** GET /api/link-preview/image fetches (cache misses) per client address: a room page shows many previews at once */
  linkPreviewImagesPerAddress: { points: 120, durationSec: 60 },
  /** POST /api/workspaces/{id}/files per user (files, voice messages, profile pictures): a batch of photos fits */
  uploadsPerUser: { points: 60, durationSec: 60 },
  /** sign-in codes mailed per client address (POST /api/auth/request-code) */
  signInCodesPerAddress: { points: 20, durationSec: 3600 },
  /** sign-in codes mailed to one address: a stranger cannot flood someone's inbox */
  signInCodesPerEmail: { points: 5, durationSec: 3600 },
  /** wrong sign-in codes per client address (only failures count) */
  signInFailuresPerAddress: { points: 20, durationSec: 900 },
  /** username recovery mails per client address */
  usernameRecoveriesPerAddress: { points: 10, durationSec: 3600 },
  /** contact messages stored (POST /api/contact) per client address: a person writes once or twice, not a stream */
  contactMessagesPerAddress: { points: 5, durationSec: 3600 },
  /** page views reported (POST /api/admin/analytics/pageview) per client address: a route change each, a busy office fits */
  pageviewsPerAddress: { points: 300, durationSec: 60 },
} satisfies Record<string, LimitSpec>;

export type LimitName = keyof typeof RATE_LIMIT_DEFAULTS;
export type LimitConfig = Record<LimitName, LimitSpec>;

/** The variable that overrides a limit: messagesPerUser -> RATE_LIMIT_MESSAGES_PER_USER. */
export const rateLimitEnvName = (name: string) => `RATE_LIMIT_${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;

/** The env variable of each limit, for docs and error messages. */
export const rateLimitEnvNames = (): Record<LimitName, string> =>
  Object.fromEntries(Object.keys(RATE_LIMIT_DEFAULTS).map((n) => [n, rateLimitEnvName(n)])) as Record<
    LimitName,
    string
  >;
