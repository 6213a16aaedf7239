/**
 * The ephemeral store in process memory (embedded mode: one process, so nothing needs sharing).
 * Mirrors the Redis adapter's semantics, including the ones callers could come to rely on by accident:
 * any key may carry a TTL and reads as absent once it passes, SET without a TTL clears an earlier one while ZADD and
 * HSET keep it, a zset or hash emptied by ZREM or HDEL disappears (and its TTL with it), and published messages
 * arrive asynchronously, never inside the publish() call. Every operation completes inside the call (no await in
 * their bodies), so operations issued together run in the order issued, as on Redis.
 */
import { EventEmitter } from 'node:events';
import type { EphemeralStore } from './port.ts';

const MAX_TIMER_MS = 2 ** 31 - 1;

/** A key's TTL. The timer only frees memory: every operation checks `at` itself first (reap). */
interface Deadline {
  at: number;
  timer?: NodeJS.Timeout;
}

export class MemoryEphemeralStore implements EphemeralStore {
  private readonly strings = new Map<string, string>();
  private readonly zsets = new Map<string, Map<string, number>>();
  private readonly hashes = new Map<string, Map<string, string>>();
  private readonly deadlines = new Map<string, Deadline>();
  private readonly bus = new EventEmitter().setMaxListeners(0); // one listener per subscriber is expected

  async zadd(key: string, score: number, member: string): Promise<void> {
    this.reap(key);
    if (this.strings.has(key)) this.drop(key); // one key, one type, as in Redis (which would refuse; callers never mix them)
    let set = this.zsets.get(key);
    if (!set) this.zsets.set(key, (set = new Map()));
    set.set(member, score);
  }

  async zrem(key: string, member: string): Promise<number> {
    const set = this.liveZset(key);
    const removed = set?.delete(member) ? 1 : 0;
    if (set?.size === 0) this.drop(key);
    return removed;
  }

  async zrangeByScore(key: string, min: number): Promise<{ member: string; score: number }[]> {
    const set = this.liveZset(key);
    if (!set) return [];
    return (
      [...set]
        .filter(([, score]) => score >= min)
        .map(([member, score]) => ({ member, score }))
        // Redis orders equal scores by member, bytewise
        .sort((a, b) => a.score - b.score || (a.member < b.member ? -1 : a.member > b.member ? 1 : 0))
    );
  }

  async zcount(key: string, min: number): Promise<number> {
    let count = 0;
    for (const score of this.liveZset(key)?.values() ?? []) if (score >= min) count++;
    return count;
  }

  async zcard(key: string): Promise<number> {
    return this.liveZset(key)?.size ?? 0;
  }

  async zrangeByLexAfter(key: string, after: string | null, limit: number): Promise<string[]> {
    const set = this.liveZset(key);
    if (!set || limit <= 0) return [];
    // sorted on each call: the embedded store's sets are one process's, and a page is asked once per join or scroll
    const bytewise = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
    const members = [...set.keys()].filter((m) => after === null || bytewise(m, after) > 0).sort(bytewise);
    return members.slice(0, limit);
  }

  async zremRangeByScoreBelow(key: string, max: number): Promise<number> {
    const set = this.liveZset(key);
    if (!set) return 0;
    let removed = 0;
    for (const [member, score] of set) {
      if (score < max && set.delete(member)) removed++;
    }
    if (set.size === 0) this.drop(key);
    return removed;
  }

  async ztakeBelow(key: string, max: number): Promise<{ member: string; score: number }[]> {
    // No await between reading and removing: concurrent takers cannot interleave and take a member twice.
    const set = this.liveZset(key);
    if (!set) return [];
    const below = [...set]
      .filter(([, score]) => score < max)
      .map(([member, score]) => ({ member, score }))
      .sort((a, b) => a.score - b.score || (a.member < b.member ? -1 : a.member > b.member ? 1 : 0));
    for (const { member } of below) set.delete(member);
    if (set.size === 0) this.drop(key);
    return below;
  }

  async hset(key: string, field: string, value: string): Promise<void> {
    let hash = this.liveHash(key);
    if (!hash) this.hashes.set(key, (hash = new Map()));
    hash.set(field, value);
  }

  async hdel(key: string, field: string): Promise<void> {
    const hash = this.liveHash(key);
    hash?.delete(field);
    if (hash?.size === 0) this.drop(key); // an emptied hash disappears, as in Redis
  }

  async hgetall(key: string): Promise<Record<string, string>> {
    return Object.fromEntries(this.liveHash(key) ?? []);
  }

  async hmget(key: string, fields: string[]): Promise<(string | null)[]> {
    const hash = this.liveHash(key);
    return fields.map((f) => hash?.get(f) ?? null);
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    this.drop(key);
    this.strings.set(key, value);
    if (ttlMs !== undefined) this.expireAt(key, Date.now() + ttlMs);
  }

  async get(key: string): Promise<string | null> {
    this.reap(key);
    return this.strings.get(key) ?? null;
  }

  async expire(key: string, ttlMs: number): Promise<boolean> {
    this.reap(key);
    if (!this.strings.has(key) && !this.zsets.has(key) && !this.hashes.has(key)) return false;
    this.expireAt(key, Date.now() + ttlMs);
    return true;
  }

  async del(key: string): Promise<void> {
    this.drop(key);
  }

  async incrWithTtl(key: string, ttlMs: number): Promise<number> {
    this.reap(key);
    const current = this.strings.get(key);
    const next = (current === undefined ? 0 : Number(current)) + 1;
    if (!Number.isSafeInteger(next)) throw new Error(`ERR value is not an integer or out of range (${key})`);
    if (current === undefined) this.drop(key); // a zset or hash under the name goes, as a string replaces it
    this.strings.set(key, String(next));
    // The window's expiry is set when it has none: later increments must not extend it.
    if (!this.deadlines.has(key)) this.expireAt(key, Date.now() + ttlMs);
    return next;
  }

  async publish(channel: string, message: string): Promise<void> {
    // Deliver on a later tick like Redis does; each listener separately, so one throwing handler (reported as
    // an uncaught exception, as with any EventEmitter) does not keep the message from the others.
    for (const listener of this.bus.listeners(channel) as ((m: string) => void)[]) {
      setImmediate(listener, message);
    }
  }

  async subscribe(channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>> {
    // A distinct wrapper per call, so subscribing the same function twice and unsubscribing once behaves.
    const listener = (message: string) => onMessage(message);
    this.bus.on(channel, listener);
    return async () => {
      this.bus.off(channel, listener);
    };
  }

  async close(): Promise<void> {
    for (const deadline of this.deadlines.values()) clearTimeout(deadline.timer);
    this.deadlines.clear();
    this.strings.clear();
    this.zsets.clear();
    this.hashes.clear();
    this.bus.removeAllListeners();
  }

  private liveZset(key: string): Map<string, number> | undefined {
    this.reap(key);
    return this.zsets.get(key);
  }

  private liveHash(key: string): Map<string, string> | undefined {
    this.reap(key);
    return this.hashes.get(key);
  }

  /** Remove the key if its TTL has passed: the timer may lag behind the clock by a few ms, or never run (unref). */
  private reap(key: string): void {
    const deadline = this.deadlines.get(key);
    if (deadline && deadline.at <= Date.now()) this.drop(key);
  }

  /** The key's TTL, replacing an earlier one. */
  private expireAt(key: string, at: number): void {
    clearTimeout(this.deadlines.get(key)?.timer);
    const deadline: Deadline = { at };
    const delay = Math.max(0, at - Date.now());
    // Unref so it never keeps the process alive. Node timers overflow past ~24.8 days and would fire at once, so
    // longer TTLs rely on reap alone.
    if (delay <= MAX_TIMER_MS) {
      deadline.timer = setTimeout(() => this.deadlines.get(key) === deadline && this.drop(key), delay);
      deadline.timer.unref();
    }
    this.deadlines.set(key, deadline);
  }

  /** The key gone, whatever its type, and its TTL with it. */
  private drop(key: string): void {
    clearTimeout(this.deadlines.get(key)?.timer);
    this.deadlines.delete(key);
    this.strings.delete(key);
    this.zsets.delete(key);
    this.hashes.delete(key);
  }
}
