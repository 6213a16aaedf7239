/**
 * The rate limits' variables, RATE_LIMIT_<NAME>=<points>/<seconds> (docs/security.md "Rate limits"): one declaration
 * per limit of rate-limit-defaults.ts, read by every process, and the limits a parsed configuration gives. Apart
 * from the other shared variables (config-vars.ts, which re-exports these for the services' config.ts files).
 */
import { z } from 'zod';
import { envVar, loadConfig, configSpec } from './config.ts';
import { ENV_GROUPS } from './config-groups.ts';
import {
  RATE_LIMIT_DEFAULTS,
  rateLimitEnvName,
  type LimitConfig,
  type LimitName,
  type LimitSpec,
} from './rate-limit-defaults.ts';

/** What each rate limit counts: the reference's one line per RATE_LIMIT_<NAME>. */
const RATE_LIMIT_DOCS: Record<LimitName, string> = {
  connectionsPerAddress: 'socket handshakes per client address (gateway)',
  eventsPerUser: 'every socket command of a user (an anonymous socket counts on its own)',
  messagesPerUser: 'send-message per user; the default adds a burst of 60/60, which setting it drops',
  passwordFailuresPerAddress: 'wrong room passwords per client address (failures only)',
  passwordFailuresPerRoom:
    "password tries for one room from everywhere; past it the room's checks are paced (one per 250 ms per room-service process), never refused",
  roomCreationsPerAddress: 'POST /api/workspaces per client address',
  nameChecksPerAddress: 'check-name and check-username per client address',
  roomExtensionsPerAddress: 'POST /api/workspaces/extend-room per client address',
  linkPreviewsPerUser: 'POST /api/link-preview/fetch per user',
  linkPreviewImagesPerAddress: 'preview images fetched (GET /api/link-preview/image, cache misses) per client address',
  uploadsPerUser: 'uploads (files, voice messages, profile pictures) per user',
  signInCodesPerAddress: 'sign-in codes mailed (POST /api/auth/request-code) per client address',
  signInCodesPerEmail: 'sign-in codes mailed to one address',
  signInFailuresPerAddress: 'wrong sign-in codes per client address (failures only)',
  usernameRecoveriesPerAddress: 'username recovery mails per client address',
  contactMessagesPerAddress:
    'contact-form messages stored (POST /api/contact) per client address; a refused (400) body does not count',
  pageviewsPerAddress: 'page views reported (POST /api/admin/analytics/pageview) per client address',
};
const limitNames = Object.keys(RATE_LIMIT_DEFAULTS) as LimitName[];
const limitSpec = (spec: LimitSpec) => `${spec.points}/${spec.durationSec}`;

/** RATE_LIMIT_<NAME>=<points>/<seconds>, every process (counted in Redis with REDIS_URL, else in memory). */
export const rateLimitEnv = Object.fromEntries(
  limitNames.map((name) => [
    rateLimitEnvName(name),
    envVar(
      z
        .string()
        .trim()
        .regex(/^[1-9]\d*\/[1-9]\d*$/, 'expected <points>/<seconds>')
        .optional(),
      {
        group: ENV_GROUPS.LIMITS,
        doc: RATE_LIMIT_DOCS[name],
        accepts: '<points>/<seconds>, both at least 1 (e.g. 20/10)',
        defaultText: limitSpec(RATE_LIMIT_DEFAULTS[name]),
      },
    ),
  ]),
) as Record<string, z.ZodOptional<z.ZodString>>;

/** The limits from a parsed configuration: the defaults, each RATE_LIMIT_* set replacing its limit (burst included). */
export function rateLimitsOf(config: Record<string, unknown>): LimitConfig {
  const limits = { ...RATE_LIMIT_DEFAULTS } as LimitConfig;
  for (const name of limitNames) {
    const value = config[rateLimitEnvName(name)];
    if (typeof value !== 'string') continue;
    const [points, durationSec] = value.split('/').map(Number);
    limits[name] = { points, durationSec };
  }
  return limits;
}

/**
 * The limits of RATE_LIMIT_* in `env` (validated like a process's configuration), then `overrides`. A process's
 * main passes rateLimitsOf(config); this serves modules started in-process (tests, benchmarks).
 */
export function rateLimitConfig(env: NodeJS.ProcessEnv, overrides: Partial<LimitConfig> = {}): LimitConfig {
  return { ...rateLimitsOf(loadConfig(configSpec('rate limits', rateLimitEnv), env)), ...overrides };
}
export const rateLimitsFromEnv = (): LimitConfig => rateLimitConfig(process.env);
