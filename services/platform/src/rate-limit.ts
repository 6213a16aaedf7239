/**
 * Rate limits (docs/product/security.md S6), shared by every gateway and service replica: rate-limiter-flexible with
 * Redis
 * (RateLimiterRedis over ioredis) when REDIS_URL is configured, in process memory (RateLimiterMemory) when
 * embedded. If Redis is unreachable a per-process memory limiter stands in (the library's insurance limiter), so
 * an outage degrades the limits instead of failing every request.
 *
 * Every limit is named configuration with a default that a normal user never reaches, overridden per deployment
 * with RATE_LIMIT_<NAME>=<points>/<seconds> (e.g. RATE_LIMIT_MESSAGES_PER_USER=20/10): rate-limit-defaults.ts names them,
 * config-vars.ts declares the variables (docs/configuration.md).
 * When a limit is reached: a socket ack { success: false, code: 'RATE_LIMITED', message }, HTTP 429 with the same
 * body and Retry-After; the command does nothing.
 *
 * Every count is taken atomically BEFORE the work it limits (one INCR in Redis, one synchronous step in memory):
 * a burst of concurrent requests can never all pass a check made before any of them is counted. Limits that count
 * only failures (wrong passwords, wrong sign-in codes) go through attempt(): the point is taken first and given back
 * when the work did not fail. Limits named ...PerAddress count an IPv6 client by its /64 (addressKey).
 */
import { Redis } from 'ioredis';
import {
  BurstyRateLimiter,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { DomainError } from '@ephemera/proto';
import { addressKey } from './client-address.ts';

import { RATE_LIMIT_DEFAULTS, type LimitConfig, type LimitName } from './rate-limit-defaults.ts';
import { rateLimitsFromEnv } from './config-rate-limits.ts';

export {
  RATE_LIMIT_DEFAULTS,
  rateLimitEnvNames,
  type LimitSpec,
  type LimitName,
  type LimitConfig,
} from './rate-limit-defaults.ts';

/** A refusal: RATE_LIMITED with how long to wait (Retry-After). */
export class RateLimitedError extends DomainError {
  constructor(readonly retryAfterSec: number) {
    super('RATE_LIMITED');
  }
}

interface Limiter {
  consume(key: string): Promise<RateLimiterRes>;
  main: RateLimiterAbstract;
}

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
  tally<T>(
    name: LimitName,
    key: string,
    work: (used: number) => Promise<T>,
    failed: (err: unknown) => boolean,
  ): Promise<T>;
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
  const config = options.config ?? rateLimitsFromEnv();
  // Commands wait for the connection at start-up (offline queue), and fail after one retry when Redis is down,
  // so the insurance limiter answers instead of requests hanging. Auto-pipelining: the limits asked in one
  // event-loop turn (a burst of joins, a send's two buckets, many users' sends) leave in one write; one write per
  // limit was the gateway's largest single cost in a join burst (a CPU profile: 10 % of its busy time).
  const redis = options.redisUrl
    ? new Redis(options.redisUrl, { maxRetriesPerRequest: 1, enableAutoPipelining: true })
    : null;
  redis?.on('error', () => {
    /* the insurance limiter covers an outage; ioredis reconnects by itself */
  });
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
  const giveBack = (name: LimitName, key: string) =>
    limiter(name)
      .main.reward(key, 1)
      .then(
        () => {},
        () => {},
      );
  /** work for a point already taken: given back unless work threw an error that `failed` counts */
  const settle = async <T>(
    name: LimitName,
    key: string,
    work: () => Promise<T>,
    failed: (err: unknown) => boolean,
  ): Promise<T> => {
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
    if (redis) {
      void redis
        .zadd(blockedKey, until, member)
        .then(() => redis.zremrangebyscore(blockedKey, 0, Date.now()))
        .catch(() => {});
      return;
    }
    blockedHere.delete(member);
    if (blockedHere.size >= 10_000) blockedHere.delete(blockedHere.keys().next().value!);
    blockedHere.set(member, until);
  };
  const refuse =
    (name: LimitName, key: string) =>
    (e: unknown): never => {
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
      const keys = members
        .map((m) => m.split('|'))
        .filter(([name]) => wanted.has(name))
        .map(([, ...key]) => key.join('|'));
      return [...new Set(keys)];
    },
    async close() {
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** Limits that never refuse (tools that must not be limited, e.g. internal callers in unit tests). */
export function unlimited(): RateLimits {
  const config = Object.fromEntries(
    Object.keys(RATE_LIMIT_DEFAULTS).map((n) => [n, { points: Number.MAX_SAFE_INTEGER, durationSec: 1 }]),
  ) as LimitConfig;
  const none = async () => {};
  return {
    config,
    consume: none,
    attempt: (_n, _k, work) => work(),
    tally: (_n, _k, work) => work(0),
    used: async () => 0,
    reset: none,
    blocked: async () => [],
    close: none,
  };
}
