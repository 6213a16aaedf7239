import { randomUUID } from 'node:crypto';
import { expect, inject, it } from 'vitest';
import { RedisEphemeralStore } from '../src/ephemeral/redis.ts';
import { ephemeralContract } from './ephemeral.contract.ts';

ephemeralContract('redis', async () => new RedisEphemeralStore(inject('redisUrl')));

// What Redis is for in distributed mode: replicas see each other's signals and state.
it('redis: separate store instances share state and pub/sub', async () => {
  const a = new RedisEphemeralStore(inject('redisUrl'));
  const b = new RedisEphemeralStore(inject('redisUrl'));
  try {
    const key = `shared:${randomUUID()}`;
    await a.zadd(key, 1, 'gateway-1');
    expect(await b.zrangeByScore(key, 0)).toEqual([{ member: 'gateway-1', score: 1 }]);

    const got: string[] = [];
    await b.subscribe(key, (m) => got.push(m));
    await a.publish(key, 'hello');
    await expect.poll(() => got, { timeout: 5_000 }).toEqual(['hello']);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});
