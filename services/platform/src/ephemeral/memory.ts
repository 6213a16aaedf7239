/**
 * The ephemeral store in process memory (embedded mode: one process, so nothing needs sharing).
 * Mirrors the Redis adapter's semantics, including the ones callers could come to rely on by accident:
 * expired keys read as absent, SET without a TTL clears an earlier one, a zset emptied by ZREM disappears,
 * and published messages arrive asynchronously, never inside the publish() call. Every operation completes inside
 * the call (no await in their bodies), so operations issued together run in the order issued, as on Redis.
 */
import { EventEmitter } from 'node:events';
import type { EphemeralStore } from './port.ts';

const MAX_TIMER_MS = 2 ** 31 - 1;

interface StringEntry { value: string; expiresAt: number | null; timer?: NodeJS.Timeout }

export class MemoryEphemeralStore implements EphemeralStore {
  private readonly strings = new Map<string, StringEntry>();
  private readonly zsets = new Map<string, Map<string, number>>();
  private readonly hashes = new Map<string, Map<string, string>>();
  private readonly bus = new EventEmitter().setMaxListeners(0); // one listener per subscriber is expected

  async zadd(key: string, score: number, member: string): Promise<void> {
    this.deleteString(key); // one key, one type, as in Redis (which would refuse; callers never mix them)
    let set = this.zsets.get(key);
    if (!set) this.zsets.set(key, (set = new Map()));
    set.set(member, score);
  }

  async zrem(key: string, member: string): Promise<number> {
    const set = this.zsets.get(key);
    const removed = set?.delete(member) ? 1 : 0;
    if (set?.size === 0) this.zsets.delete(key);
    return removed;
  }

  async zrangeByScore(key: string, min: number): Promise<{ member: string; score: number }[]> {
    const set = this.zsets.get(key);
    if (!set) return [];
    return [...set]
      .filter(([, score]) => score >= min)
      .map(([member, score]) => ({ member, score }))
      // Redis orders equal scores by member, bytewise
      .sort((a, b) => a.score - b.score || (a.member < b.member ? -1 : a.member > b.member ? 1 : 0));
  }

  async zcount(key: string, min: number): Promise<number> {
    let count = 0;
    for (const score of this.zsets.get(key)?.values() ?? []) if (score >= min) count++;
    return count;
  }

  async zremRangeByScoreBelow(key: string, max: number): Promise<number> {
    const set = this.zsets.get(key);
    if (!set) return 0;
    let removed = 0;
    for (const [member, score] of set) {
      if (score < max && set.delete(member)) removed++;
    }
    if (set.size === 0) this.zsets.delete(key);
    return removed;
  }

  async ztakeBelow(key: string, max: number): Promise<{ member: string; score: number }[]> {
    // No await between reading and removing: concurrent takers cannot interleave and take a member twice.
    const set = this.zsets.get(key);
    if (!set) return [];
    const below = [...set].filter(([, score]) => score < max).map(([member, score]) => ({ member, score }))
      .sort((a, b) => a.score - b.score || (a.member < b.member ? -1 : a.member > b.member ? 1 : 0));
    for (const { member } of below) set.delete(member);
    if (set.size === 0) this.zsets.delete(key);
    return below;
  }

  async hset(key: string, field: string, value: string): Promise<void> {
    let hash = this.hashes.get(key);
    if (!hash) this.hashes.set(key, (hash = new Map()));
    hash.set(field, value);
  }

  async hdel(key: string, field: string): Promise<void> {
    const hash = this.hashes.get(key);
    hash?.delete(field);
    if (hash?.size === 0) this.hashes.delete(key); // an emptied hash disappears, as in Redis
  }

  async hgetall(key: string): Promise<Record<string, string>> {
    return Object.fromEntries(this.hashes.get(key) ?? []);
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    this.zsets.delete(key);
    this.putString(key, value, ttlMs === undefined ? null : Date.now() + ttlMs);
  }

  async get(key: string): Promise<string | null> {
    return this.liveString(key)?.value ?? null;
  }

  async expire(key: string, ttlMs: number): Promise<boolean> {
    const entry = this.liveString(key);
    if (!entry) return false;
    this.putString(key, entry.value, Date.now() + ttlMs);
    return true;
  }

  async del(key: string): Promise<void> {
    this.deleteString(key);
    this.zsets.delete(key);
    this.hashes.delete(key);
  }

  async incrWithTtl(key: string, ttlMs: number): Promise<number> {
    const current = this.liveString(key);
    const next = (current ? Number(current.value) : 0) + 1;
    if (!Number.isSafeInteger(next)) throw new Error(`ERR value is not an integer or out of range (${key})`);
    // Keep the window's original expiry: later increments must not extend it.
    this.putString(key, String(next), current?.expiresAt ?? Date.now() + ttlMs);
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
    for (const entry of this.strings.values()) clearTimeout(entry.timer);
    this.strings.clear();
    this.zsets.clear();
    this.hashes.clear();
    this.bus.removeAllListeners();
  }

  /** The entry if present and not yet expired (the timer may lag behind the clock by a few ms). */
  private liveString(key: string): StringEntry | undefined {
    const entry = this.strings.get(key);
    if (entry && entry.expiresAt !== null && entry.expiresAt <= Date.now()) {
      this.deleteString(key);
      return undefined;
    }
    return entry;
  }

  private putString(key: string, value: string, expiresAt: number | null): void {
    this.deleteString(key);
    const entry: StringEntry = { value, expiresAt };
    const delay = expiresAt === null ? Infinity : Math.max(0, expiresAt - Date.now());
    // The timer only frees memory (reads check expiresAt); unref so it never keeps the process alive.
    // Node timers overflow past ~24.8 days and would fire at once, so longer TTLs rely on reads alone.
    if (delay <= MAX_TIMER_MS) {
      entry.timer = setTimeout(() => this.strings.get(key) === entry && this.strings.delete(key), delay);
      entry.timer.unref();
    }
    this.strings.set(key, entry);
  }

  private deleteString(key: string): void {
    clearTimeout(this.strings.get(key)?.timer);
    this.strings.delete(key);
  }
}
