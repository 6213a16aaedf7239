/**
 * The ephemeral store and bus: presence, typing and other signals that never enter the durable log.
 * Adapters: Redis via ioredis (distributed) and in-memory (embedded). Same contract suite for both.
 * Only the operations the services use are here, with Redis semantics.
 * Operations called without awaiting the previous ones run in the order called and share round trips (ioredis
 * writes them back to back on one connection; the memory store completes each inside the call): a caller may issue
 * a write and a read of it together, or rely on the order of two writes, without a transaction.
 */
export interface EphemeralStore {
  /** sorted set: add or update member with score */
  zadd(key: string, score: number, member: string): Promise<void>;
  zrem(key: string, member: string): Promise<number>;
  /** members with score >= min, ascending by score */
  zrangeByScore(key: string, min: number): Promise<{ member: string; score: number }[]>;
  /** how many members have score >= min, without reading them (O(log n) in Redis) */
  zcount(key: string, min: number): Promise<number>;
  /** how many members the sorted set has */
  zcard(key: string): Promise<number>;
  /**
   * members of a sorted set whose scores are all equal, in bytewise order: those after `after` (exclusive; null: from
   * the first), at most `limit` (ZRANGEBYLEX with LIMIT: a page of a large set without reading the rest)
   */
  zrangeByLexAfter(key: string, after: string | null, limit: number): Promise<string[]>;
  /** remove members with score < max; returns the removed count */
  zremRangeByScoreBelow(key: string, max: number): Promise<number>;
  /**
   * atomically remove and return the members with score < max, ascending by score: of several replicas sweeping
   * the same set, each member goes to exactly one (expired typing indicators are announced once)
   */
  ztakeBelow(key: string, max: number): Promise<{ member: string; score: number }[]>;
  /** hashes: one field per user (presence status of a room), read whole in one call */
  hset(key: string, field: string, value: string): Promise<void>;
  hdel(key: string, field: string): Promise<void>;
  hgetall(key: string): Promise<Record<string, string>>;
  /** these fields' values, in order, null for a missing one (HMGET: a few fields of a large hash) */
  hmget(key: string, fields: string[]): Promise<(string | null)[]>;
  /** plain string values with optional TTL in ms */
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  get(key: string): Promise<string | null>;
  /**
   * a key's TTL set anew (PEXPIRE), whatever its type (string, sorted set, hash), its value untouched; false when the
   * key is missing (or expired). An expired key reads as absent and a write to it starts from empty. ZADD and HSET keep
   * a key's TTL; SET replaces it (none without ttlMs), and DEL or emptying a sorted set or hash drops it with the key.
   */
  expire(key: string, ttlMs: number): Promise<boolean>;
  del(key: string): Promise<void>;
  /** atomic increment with an expiry set on creation (rate limits) */
  incrWithTtl(key: string, ttlMs: number): Promise<number>;
  publish(channel: string, message: string): Promise<void>;
  /** returns an unsubscribe function */
  subscribe(channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /**
   * Called each time the store's connection comes back after it was lost (a Redis restart loses every key):
   * owners of ephemeral state write theirs again. Absent in stores that cannot lose it (memory).
   */
  onReconnect?(listener: () => void): void;
}
