/**
 * The ephemeral store on Redis (distributed mode): every gateway and presence replica shares it.
 * A connection in subscriber mode can run no other command, so pub/sub gets its own connection,
 * opened on the first subscribe(); ioredis re-subscribes by itself after a reconnect.
 */
import { Redis } from 'ioredis';
import type { EphemeralStore } from './port.ts';

// INCR then set the expiry when the key has none, in one atomic step: a window counter can never be left
// without a TTL (which would rate-limit a user forever) and later increments do not extend the window.
const INCR_WITH_TTL = `
local v = redis.call('INCR', KEYS[1])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return v`;

// ZRANGEBYSCORE then ZREMRANGEBYSCORE in one atomic step, so two sweepers never take the same member.
const ZTAKE_BELOW = `
local m = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1], 'WITHSCORES')
if #m > 0 then redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1]) end
return m`;

type Handler = (message: string) => void;

export class RedisEphemeralStore implements EphemeralStore {
  private readonly redis: Redis;
  private subscriber: Redis | undefined;
  private readonly handlers = new Map<string, Set<Handler>>();

  constructor(private readonly url: string) {
    // Auto-pipelining: the commands issued in one event-loop turn go out in one write and come back in one read. A
    // presence connect issues eight at once, a heartbeat batch 256 per turn; each had been its own round trip of
    // system calls in this process and in Redis. The order on the connection, and each command's own answer or
    // error, stay as they were.
    this.redis = new Redis(url, { maxRetriesPerRequest: 3, enableAutoPipelining: true });
    // While Redis is away ioredis reconnects by itself and each command rejects to its caller, who logs it; without
    // a listener every reconnect attempt would also print an "Unhandled error event" to stderr.
    this.redis.on('error', () => {});
  }

  onReconnect(listener: () => void): void {
    let connectedBefore = this.redis.status === 'ready';
    this.redis.on('ready', () => {
      if (connectedBefore) listener();
      connectedBefore = true;
    });
  }

  async zadd(key: string, score: number, member: string): Promise<void> {
    await this.redis.zadd(key, score, member);
  }

  zrem(key: string, member: string): Promise<number> {
    return this.redis.zrem(key, member);
  }

  async zrangeByScore(key: string, min: number): Promise<{ member: string; score: number }[]> {
    const flat = await this.redis.zrangebyscore(key, bound(min), '+inf', 'WITHSCORES');
    const out: { member: string; score: number }[] = [];
    for (let i = 0; i < flat.length; i += 2) out.push({ member: flat[i], score: Number(flat[i + 1]) });
    return out;
  }

  zcount(key: string, min: number): Promise<number> {
    return this.redis.zcount(key, bound(min), '+inf');
  }

  zcard(key: string): Promise<number> {
    return this.redis.zcard(key);
  }

  async zrangeByLexAfter(key: string, after: string | null, limit: number): Promise<string[]> {
    if (limit <= 0) return [];
    return this.redis.zrangebylex(key, after === null ? '-' : `(${after}`, '+', 'LIMIT', 0, limit);
  }

  zremRangeByScoreBelow(key: string, max: number): Promise<number> {
    return this.redis.zremrangebyscore(key, '-inf', `(${bound(max)}`); // "(" = exclusive: strictly below max
  }

  async ztakeBelow(key: string, max: number): Promise<{ member: string; score: number }[]> {
    const flat = (await this.redis.eval(ZTAKE_BELOW, 1, key, bound(max))) as string[];
    const out: { member: string; score: number }[] = [];
    for (let i = 0; i < flat.length; i += 2) out.push({ member: flat[i], score: Number(flat[i + 1]) });
    return out;
  }

  async hset(key: string, field: string, value: string): Promise<void> {
    await this.redis.hset(key, field, value);
  }

  async hdel(key: string, field: string): Promise<void> {
    await this.redis.hdel(key, field);
  }

  hgetall(key: string): Promise<Record<string, string>> {
    return this.redis.hgetall(key);
  }

  async hmget(key: string, fields: string[]): Promise<(string | null)[]> {
    if (fields.length === 0) return [];
    return this.redis.hmget(key, ...fields);
  }

  async expire(key: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.pexpire(key, Math.max(1, Math.ceil(ttlMs)))) === 1;
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    if (ttlMs !== undefined) await this.redis.set(key, value, 'PX', Math.max(1, Math.ceil(ttlMs)));
    else await this.redis.set(key, value);
  }

  get(key: string): Promise<string | null> {
    return this.redis.get(key);
  }

  async del(key: string): Promise<void> {
    await this.redis.del(key);
  }

  async incrWithTtl(key: string, ttlMs: number): Promise<number> {
    return Number(await this.redis.eval(INCR_WITH_TTL, 1, key, Math.max(1, Math.ceil(ttlMs))));
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.redis.publish(channel, message);
  }

  async subscribe(channel: string, onMessage: Handler): Promise<() => Promise<void>> {
    const subscriber = this.getSubscriber();
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
    }
    set.add(onMessage);
    // Resolve only once Redis confirmed the subscription, so a publish after this returns is received.
    await subscriber.subscribe(channel);
    return async () => {
      const current = this.handlers.get(channel);
      if (!current?.delete(onMessage) || current.size > 0) return;
      this.handlers.delete(channel);
      await subscriber.unsubscribe(channel);
    };
  }

  async close(): Promise<void> {
    this.handlers.clear();
    await Promise.all([this.redis.quit(), this.subscriber?.quit()]);
  }

  private getSubscriber(): Redis {
    if (!this.subscriber) {
      this.subscriber = new Redis(this.url, { maxRetriesPerRequest: 3 });
      this.subscriber.on('error', () => {}); // as the command connection: ioredis reconnects and re-subscribes itself
      this.subscriber.on('message', (channel: string, message: string) => {
        for (const handler of this.handlers.get(channel) ?? []) {
          // A throwing handler must neither starve the others nor unwind into ioredis' reply parser.
          try {
            handler(message);
          } catch (err) {
            queueMicrotask(() => {
              throw err;
            });
          }
        }
      });
    }
    return this.subscriber;
  }
}

/** A score bound as Redis spells it: JavaScript's Infinity would be sent as "Infinity". */
function bound(score: number): string {
  if (score === Infinity) return '+inf';
  if (score === -Infinity) return '-inf';
  return String(score);
}
