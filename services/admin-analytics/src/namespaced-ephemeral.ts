/**
 * An ephemeral store whose keys and channels carry a prefix (EVENT_LOG_NAMESPACE), as the rate-limit keys do:
 * several deployments or test stacks on one Redis must not share admin-analytics' short-lived state (the page-view
 * reload filter would otherwise drop one deployment's view because another's visitor had the same address and path).
 */
import type { EphemeralStore } from '@ephemera/platform';

export function namespacedEphemeral(inner: EphemeralStore, namespace: string | undefined): EphemeralStore {
  if (!namespace) return inner;
  const k = (key: string) => `${namespace}:${key}`;
  const store: EphemeralStore = {
    zadd: (key, score, member) => inner.zadd(k(key), score, member),
    zrem: (key, member) => inner.zrem(k(key), member),
    zrangeByScore: (key, min) => inner.zrangeByScore(k(key), min),
    zcount: (key, min) => inner.zcount(k(key), min),
    zcard: (key) => inner.zcard(k(key)),
    zrangeByLexAfter: (key, after, limit) => inner.zrangeByLexAfter(k(key), after, limit),
    zremRangeByScoreBelow: (key, max) => inner.zremRangeByScoreBelow(k(key), max),
    ztakeBelow: (key, max) => inner.ztakeBelow(k(key), max),
    hset: (key, field, value) => inner.hset(k(key), field, value),
    hdel: (key, field) => inner.hdel(k(key), field),
    hgetall: (key) => inner.hgetall(k(key)),
    hmget: (key, fields) => inner.hmget(k(key), fields),
    set: (key, value, ttlMs) => inner.set(k(key), value, ttlMs),
    get: (key) => inner.get(k(key)),
    expire: (key, ttlMs) => inner.expire(k(key), ttlMs),
    del: (key) => inner.del(k(key)),
    incrWithTtl: (key, ttlMs) => inner.incrWithTtl(k(key), ttlMs),
    publish: (channel, message) => inner.publish(k(channel), message),
    subscribe: (channel, onMessage) => inner.subscribe(k(channel), onMessage),
    close: () => inner.close(),
  };
  if (inner.onReconnect) store.onReconnect = (listener) => inner.onReconnect!(listener);
  return store;
}
