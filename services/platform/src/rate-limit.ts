/**
 * Rate limits (SECURITY.md 6), shared by every gateway and service replica: rate-limiter-flexible with Redis
 * (RateLimiterRedis over ioredis) when REDIS_URL is configured, in process memory (RateLimiterMemory) when
 * embedded. If Redis is unreachable a per-process memory limiter stands in (the library's insurance limiter), so
 * an outage degrades the limits instead of failing every request.
 *
 * Every limit is named configuration with a default that a normal user never reaches, overridden per deployment
 * with RATE_LIMIT_<NAME>=<points>/<seconds> (e.g. RATE_LIMIT_MESSAGES_PER_USER=20/10), documented in the README.
 * When a limit is reached: a socket ack { success: false, code: 'RATE_LIMITED', message }, HTTP 429 with the same
 * body and Retry-After; the command does nothing.
 *
 * Every count is taken atomically BEFORE the work it limits (one INCR in Redis, one synchronous step in memory):
 * a burst of concurrent requests can never all pass a check made before any of them is counted. Limits that count
 * only failures (wrong passwords, wrong sign-in codes) go through attempt(): the point is taken first and given back
 * when the work did not fail. Limits named ...PerAddress count an IPv6 client by its /64 (addressKey).
 */
import { Redis } from 'ioredis';
import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { DomainError } from '@ephemera/proto';
import { addressKey } from './client-address.ts';

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

const envName = (name: string) => `RATE_LIMIT_${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;

/** RATE_LIMIT_<NAME>=<points>/<seconds> overrides; a malformed value fails at start-up with its variable's name. */
export function rateLimitConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<LimitConfig> = {}): LimitConfig {
  const config = { ...RATE_LIMIT_DEFAULTS } as LimitConfig;
  for (const name of Object.keys(RATE_LIMIT_DEFAULTS) as LimitName[]) {
    const raw = env[envName(name)];
    if (raw === undefined || raw === '') continue;
    const m = /^(\d+)\/(\d+)$/.exec(raw.trim());
    if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) throw new Error(`Invalid configuration: ${envName(name)} must be <points>/<seconds>, e.g. 20/10 (got "${raw}")`);
    // An explicit setting replaces the default's burst too: what is configured is what applies.
    config[name] = { points: Number(m[1]), durationSec: Number(m[2]) };
  }
  return { ...config, ...overrides };
}

/** The env variable of each limit, for docs and error messages. */
export const rateLimitEnvNames = (): Record<LimitName, string> =>
  Object.fromEntries(Object.keys(RATE_LIMIT_DEFAULTS).map((n) => [n, envName(n)])) as Record<LimitName, string>;

/** A refusal: RATE_LIMITED with how long to wait (Retry-After). */
export class RateLimitedError extends DomainError {
  constructor(readonly retryAfterSec: number) { super('RATE_LIMITED'); }
}

interface Limiter { consume(key: string): Promise<RateLimiterRes>; main: RateLimiterAbstract }

export interface RateLimits {
  readonly config: LimitConfig;
  /** take one point for key, or throw RateLimitedError */
  consume(name: LimitName, key: string): Promise<void>;
  /**
   * A limit that counts failures only: take a point for key (or throw RateLimitedError) before running work, and
   * give it back unless work threw an error that `failed` counts. Of N concurrent attempts at most `points` run.
   */
  attempt<T>(name: LimitName, key: string, work: () => Promise<T>, failed: (err: unknown) => boolean): Promise<T>;
  /**
   * The same count, never refusing: work learns how many points the key has used with this try counted (more than
   * the limit's points: over it), for a rule that slows down rather than refuses (a room's password back-off).
   */
  tally<T>(name: LimitName, key: string, work: (used: number) => Promise<T>, failed: (err: unknown) => boolean): Promise<T>;
  /** the points key has used in its current window (0 when none) */
  used(name: LimitName, key: string): Promise<number>;
  /** forget key's count (e.g. a right password after a typo); tests and the benchmark use it too */
  reset(name: LimitName, key: string): Promise<void>;
  /** the keys the named limits refuse right now (their window not yet over), e.g. the blocked client addresses */
  blocked(names: LimitName[]): Promise<string[]>;
  close(): Promise<void>;
}

export interface RateLimitOptions {
  /** shared counters for every replica; absent: per-process memory */
  redisUrl?: string;
  /** key prefix: deployments (or test stacks) sharing one Redis keep separate counters */
  namespace?: string;
  config?: LimitConfig;
}

export function createRateLimits(options: RateLimitOptions = {}): RateLimits {
  const config = options.config ?? rateLimitConfig();
  // Commands wait for the connection at start-up (offline queue), and fail after one retry when Redis is down,
  // so the insurance limiter answers instead of requests hanging. Auto-pipelining: the limits asked in one
  // event-loop turn (a burst of joins, a send's two buckets, many users' sends) leave in one write; one write per
  // limit was the gateway's largest single cost in a join burst (a CPU profile: 10 % of its busy time).
  const redis = options.redisUrl ? new Redis(options.redisUrl, { maxRetriesPerRequest: 1, enableAutoPipelining: true }) : null;
  redis?.on('error', () => { /* the insurance limiter covers an outage; ioredis reconnects by itself */ });
  const prefix = `${options.namespace ? `${options.namespace}:` : ''}rl`;

  const make = (name: string, spec: { points: number; durationSec: number }): RateLimiterAbstract => {
    const base = { keyPrefix: `${prefix}:${name}`, points: spec.points, duration: spec.durationSec };
    if (!redis) return new RateLimiterMemory(base);
    return new RateLimiterRedis({ ...base, storeClient: redis, insuranceLimiter: new RateLimiterMemory(base) });
  };

  const limiters = new Map<LimitName, Limiter>();
  for (const name of Object.keys(config) as LimitName[]) {
    const spec = config[name];
    const main = make(name, spec);
    if (spec.burst) {
      const bursty = new BurstyRateLimiter(main, make(`${name}:burst`, spec.burst));
      limiters.set(name, { main, consume: (key) => bursty.consume(key) });
    } else {
      limiters.set(name, { main, consume: (key) => main.consume(key) });
    }
  }
  const limiter = (name: LimitName) => limiters.get(name)!;
  // Per-address limits count an IPv6 client by its /64: the one place every address-keyed count passes.
  const keyFor = (name: LimitName, key: string) => (name.endsWith('PerAddress') ? addressKey(key) : key);
  // A point given back late (Redis briefly away) costs the caller one try at most; it never fails the request.
  const giveBack = (name: LimitName, key: string) => limiter(name).main.reward(key, 1).then(() => {}, () => {});
  /** work for a point already taken: given back unless work threw an error that `failed` counts */
  const settle = async <T>(name: LimitName, key: string, work: () => Promise<T>, failed: (err: unknown) => boolean): Promise<T> => {
    try {
      const result = await work();
      await giveBack(name, key);
      return result;
    } catch (err) {
      if (!failed(err)) await giveBack(name, key);
      throw err;
    }
  };

  // Refusals are remembered until their window ends, for the superadmin's security figures: in Redis (a sorted set
  // scored by the end, shared by every replica) or in memory (bounded).
  const blockedKey = `${prefix}:blocked`;
  const blockedHere = new Map<string, number>();
  const noteBlocked = (name: LimitName, key: string, until: number) => {
    const member = `${name}|${key}`;
    if (redis) { void redis.zadd(blockedKey, until, member).then(() => redis.zremrangebyscore(blockedKey, 0, Date.now())).catch(() => {}); return; }
    blockedHere.delete(member);
    if (blockedHere.size >= 10_000) blockedHere.delete(blockedHere.keys().next().value!);
    blockedHere.set(member, until);
  };
  const refuse = (name: LimitName, key: string) => (e: unknown): never => {
    if (e instanceof RateLimiterRes) {
      noteBlocked(name, key, Date.now() + e.msBeforeNext);
      throw new RateLimitedError(Math.max(1, Math.ceil(e.msBeforeNext / 1000)));
    }
    throw e;
  };

  return {
    config,
    async consume(name, key) {
      const k = keyFor(name, key);
      await limiter(name).consume(k).catch(refuse(name, k));
    },
    async attempt(name, key, work, failed) {
      const k = keyFor(name, key);
      await limiter(name).main.consume(k).catch(refuse(name, k));
      return settle(name, k, work, failed);
    },
    async tally(name, key, work, failed) {
      const k = keyFor(name, key);
      const counted = await limiter(name).main.penalty(k, 1);
      return settle(name, k, () => work(counted.consumedPoints), failed);
    },
    async used(name, key) {
      return (await limiter(name).main.get(keyFor(name, key)))?.consumedPoints ?? 0;
    },
    async reset(name, key) {
      await limiter(name).main.delete(keyFor(name, key));
    },
    async blocked(names) {
      const now = Date.now();
      const members = redis
        ? await redis.zrangebyscore(blockedKey, now, '+inf').catch(() => [] as string[])
        : [...blockedHere].filter(([, until]) => until > now).map(([member]) => member);
      const wanted = new Set<string>(names);
      const keys = members.map((m) => m.split('|')).filter(([name]) => wanted.has(name)).map(([, ...key]) => key.join('|'));
      return [...new Set(keys)];
    },
    async close() {
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** Limits that never refuse (tools that must not be limited, e.g. internal callers in unit tests). */
export function unlimited(): RateLimits {
  const config = Object.fromEntries(Object.keys(RATE_LIMIT_DEFAULTS).map((n) => [n, { points: Number.MAX_SAFE_INTEGER, durationSec: 1 }])) as LimitConfig;
  const none = async () => {};
  return { config, consume: none, attempt: (_n, _k, work) => work(), tally: (_n, _k, work) => work(0), used: async () => 0, reset: none, blocked: async () => [], close: none };
}
