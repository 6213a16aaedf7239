import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { sharedInfra } from '../../../test/helpers/infra.ts';
import { RedisEphemeralStore } from '../src/ephemeral/redis.ts';
import { ephemeralContract } from './ephemeral.contract.ts';

ephemeralContract('redis', async () => new RedisEphemeralStore(sharedInfra('redisUrl')));

// What Redis is for in distributed mode: replicas see each other's signals and state.
it('redis: separate store instances share state and pub/sub', async () => {
  const a = new RedisEphemeralStore(sharedInfra('redisUrl'));
  const b = new RedisEphemeralStore(sharedInfra('redisUrl'));
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

// Auto-pipelining (redis.ts): the commands of one event-loop turn leave in one write, each with its own answer.
it('redis: the commands of one turn go out together, each answered on its own', async () => {
  const store = new RedisEphemeralStore(sharedInfra('redisUrl'));
  try {
    const key = `pipelined:${randomUUID()}`;
    await store.set(`${key}:warm`, 'x', 10_000); // connected before counting
    const stream = (store as unknown as { redis: { stream: { write: (...args: unknown[]) => boolean } } }).redis.stream;
    const write = stream.write;
    let writes = 0;
    stream.write = function countedWrite(this: unknown, ...args: unknown[]) {
      writes += 1;
      return write.apply(this, args);
    };
    try {
      await Promise.all(Array.from({ length: 20 }, (_, i) => store.set(`${key}:${i}`, String(i), 10_000)));
      const [values, members] = await Promise.all([
        Promise.all(Array.from({ length: 20 }, (_, i) => store.get(`${key}:${i}`))),
        store.zadd(`${key}:z`, 1, 'a').then(() => store.zcount(`${key}:z`, 0)),
      ]);
      expect(values).toEqual(Array.from({ length: 20 }, (_, i) => String(i)));
      expect(members).toBe(1);
    } finally {
      stream.write = write;
    }
    expect(writes).toBeLessThanOrEqual(4); // one per turn: the sets, the gets with the zadd, the zcount (42 without)
  } finally {
    await store.close();
  }
});
