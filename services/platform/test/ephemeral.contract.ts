/**
 * The behaviour every EphemeralStore adapter must show, with Redis semantics (see ../src/ephemeral/port.ts).
 * Stores may share one server, so every test works on its own keys and channels.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { EphemeralStore } from '../src/ephemeral/port.ts';

export function ephemeralContract(name: string, makeStore: () => Promise<EphemeralStore>): void {
  describe(`EphemeralStore contract: ${name}`, () => {
    const opened: EphemeralStore[] = [];
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((s) => s.close()));
    });
    const open = async () => {
      const store = await makeStore();
      opened.push(store);
      return store;
    };
    const key = (label: string) => `contract:${randomUUID()}:${label}`;

    it('sorted sets: add, update, range from a minimum score, remove', async () => {
      const s = await open();
      const k = key('zset');
      expect(await s.zrangeByScore(k, 0)).toEqual([]);
      await s.zadd(k, 30, 'c');
      await s.zadd(k, 10, 'a');
      await s.zadd(k, 20, 'b');
      await s.zadd(k, 20, 'aa'); // equal scores order by member
      expect(await s.zrangeByScore(k, -Infinity)).toEqual([
        { member: 'a', score: 10 },
        { member: 'aa', score: 20 },
        { member: 'b', score: 20 },
        { member: 'c', score: 30 },
      ]);
      await s.zadd(k, 5, 'c'); // update moves the member
      expect(await s.zrangeByScore(k, 10)).toEqual([
        { member: 'a', score: 10 },
        { member: 'aa', score: 20 },
        { member: 'b', score: 20 },
      ]);
      expect(await s.zrangeByScore(k, 20.5)).toEqual([]);
      expect(await s.zrem(k, 'aa')).toBe(1);
      expect(await s.zrem(k, 'aa')).toBe(0);
      expect(await s.zrem(key('missing'), 'x')).toBe(0);
      // Scores are timestamps in practice: large values and fractions survive the round trip.
      await s.zadd(k, 1_750_000_000_123.5, 'late');
      expect((await s.zrangeByScore(k, 1_750_000_000_000)).at(-1)).toEqual({
        member: 'late',
        score: 1_750_000_000_123.5,
      });
    });

    it('sorted sets: count from a minimum score (inclusive) without reading the members', async () => {
      const s = await open();
      const k = key('count');
      expect(await s.zcount(k, -Infinity)).toBe(0);
      for (const [m, score] of [
        ['a', 1],
        ['b', 2],
        ['c', 2],
        ['d', 1_750_000_000_123.5],
      ] as const)
        await s.zadd(k, score, m);
      expect(await s.zcount(k, -Infinity)).toBe(4);
      expect(await s.zcount(k, 2)).toBe(3); // the minimum itself counts, as in zrangeByScore
      expect(await s.zcount(k, 2.5)).toBe(1);
      expect(await s.zcount(k, 1_750_000_000_123.5)).toBe(1);
      expect(await s.zcount(k, Infinity)).toBe(0);
      await s.zadd(k, 0, 'd'); // an update moves the member out of the range
      expect(await s.zcount(k, 2)).toBe(2);
      await s.zremRangeByScoreBelow(k, 100);
      expect(await s.zcount(k, -Infinity)).toBe(0);
    });

    it('operations issued together without awaiting run in the order issued', async () => {
      const s = await open();
      const z = key('order-z');
      const h = key('order-h');
      const str = key('order-s');
      const [, countAfterAdd, , countAfterRemove, , fields, , value] = await Promise.all([
        s.zadd(z, 5, 'm'),
        s.zcount(z, 0),
        s.zrem(z, 'm'),
        s.zcount(z, 0),
        s.hset(h, 'f', 'v'),
        s.hgetall(h),
        s.set(str, 'x'),
        s.get(str),
      ]);
      expect([countAfterAdd, countAfterRemove, fields, value]).toEqual([1, 0, { f: 'v' }, 'x']);
    });

    it('sorted sets: remove below a score (exclusive) and report how many went', async () => {
      const s = await open();
      const k = key('prune');
      for (const [m, score] of [
        ['a', 1],
        ['b', 2],
        ['c', 3],
        ['d', 4],
      ] as const)
        await s.zadd(k, score, m);
      expect(await s.zremRangeByScoreBelow(k, 3)).toBe(2);
      expect((await s.zrangeByScore(k, 0)).map((e) => e.member)).toEqual(['c', 'd']);
      expect(await s.zremRangeByScoreBelow(k, 3)).toBe(0);
      expect(await s.zremRangeByScoreBelow(key('missing'), 100)).toBe(0);
      expect(await s.zremRangeByScoreBelow(k, 100)).toBe(2);
      expect(await s.zrangeByScore(k, -Infinity)).toEqual([]);
    });

    it('sorted sets: take below a score removes and returns those members once, ascending', async () => {
      const s = await open();
      const k = key('take');
      for (const [m, score] of [
        ['c', 3],
        ['a', 1],
        ['b', 2],
        ['d', 4],
      ] as const)
        await s.zadd(k, score, m);
      expect(await s.ztakeBelow(k, 3)).toEqual([
        { member: 'a', score: 1 },
        { member: 'b', score: 2 },
      ]);
      expect(await s.ztakeBelow(k, 3)).toEqual([]);
      expect((await s.zrangeByScore(k, 0)).map((e) => e.member)).toEqual(['c', 'd']);
      expect(await s.ztakeBelow(key('missing'), 100)).toEqual([]);
      // Concurrent takers (several sweeping replicas) split the members: each goes to exactly one.
      const many = key('many');
      for (let i = 0; i < 40; i++) await s.zadd(many, i, `m${i}`);
      const takes = await Promise.all([s.ztakeBelow(many, 30), s.ztakeBelow(many, 30), s.ztakeBelow(many, 30)]);
      const taken = takes
        .flat()
        .map((e) => e.member)
        .sort();
      expect(taken).toEqual(Array.from({ length: 30 }, (_, i) => `m${i}`).sort());
      expect((await s.zrangeByScore(many, -Infinity)).length).toBe(10);
    });

    it('sorted sets of equal scores: their size, and pages in bytewise order after a member', async () => {
      const s = await open();
      const k = key('lex');
      expect(await s.zcard(k)).toBe(0);
      expect(await s.zrangeByLexAfter(k, null, 10)).toEqual([]);
      for (const m of ['b', 'a', 'B', 'ab', 'c', 'a']) await s.zadd(k, 0, m); // 'a' twice: one member
      expect(await s.zcard(k)).toBe(5);
      expect(await s.zrangeByLexAfter(k, null, 3)).toEqual(['B', 'a', 'ab']); // bytewise: upper case first
      expect(await s.zrangeByLexAfter(k, 'ab', 3)).toEqual(['b', 'c']);
      expect(await s.zrangeByLexAfter(k, 'aa', 1)).toEqual(['ab']); // after a value that is not a member
      expect(await s.zrangeByLexAfter(k, 'c', 3)).toEqual([]);
      expect(await s.zrangeByLexAfter(k, null, 0)).toEqual([]);
    });

    it('hashes: a few fields at once, null for a missing one', async () => {
      const s = await open();
      const k = key('hmget');
      expect(await s.hmget(k, ['u1'])).toEqual([null]);
      await s.hset(k, 'u1', 'one');
      await s.hset(k, 'u3', 'three');
      expect(await s.hmget(k, ['u3', 'u2', 'u1'])).toEqual(['three', null, 'one']);
      expect(await s.hmget(k, [])).toEqual([]);
    });

    it('hashes: set fields, read them all, delete one, del removes the hash', async () => {
      const s = await open();
      const k = key('hash');
      expect(await s.hgetall(k)).toEqual({});
      await s.hset(k, 'u1', 'away');
      await s.hset(k, 'u2', 'busy');
      await s.hset(k, 'u1', 'online'); // overwrite
      expect(await s.hgetall(k)).toEqual({ u1: 'online', u2: 'busy' });
      await s.hdel(k, 'u2');
      await s.hdel(k, 'missing');
      expect(await s.hgetall(k)).toEqual({ u1: 'online' });
      await s.hdel(k, 'u1');
      expect(await s.hgetall(k)).toEqual({});
      await s.hset(k, 'u3', 'away');
      await s.del(k);
      expect(await s.hgetall(k)).toEqual({});
    });

    it('strings: set, get, del, and a TTL that expires', async () => {
      const s = await open();
      const k = key('str');
      expect(await s.get(k)).toBeNull();
      await s.set(k, 'v1');
      expect(await s.get(k)).toBe('v1');
      await s.del(k);
      expect(await s.get(k)).toBeNull();
      await s.del(k); // deleting a missing key is fine

      const short = key('ttl');
      await s.set(short, 'soon gone', 150);
      expect(await s.get(short)).toBe('soon gone');
      await sleep(400);
      expect(await s.get(short)).toBeNull();

      // SET without a TTL replaces the value and clears an earlier TTL, as in Redis.
      const kept = key('kept');
      await s.set(kept, 'first', 150);
      await s.set(kept, 'second');
      await sleep(400);
      expect(await s.get(kept)).toBe('second');

      // expire sets a string's TTL anew and keeps its value; a missing key answers false and stays missing
      const renewed = key('renewed');
      await s.set(renewed, 'kept alive', 250);
      await sleep(150);
      expect(await s.expire(renewed, 400)).toBe(true);
      await sleep(200); // past the first TTL, within the second
      expect(await s.get(renewed)).toBe('kept alive');
      await sleep(400);
      expect(await s.get(renewed)).toBeNull();
      expect(await s.expire(renewed, 400)).toBe(false);
      expect(await s.get(renewed)).toBeNull();

      // del also removes sorted sets
      const z = key('zdel');
      await s.zadd(z, 1, 'm');
      await s.del(z);
      expect(await s.zrangeByScore(z, -Infinity)).toEqual([]);
    });

    it('expire on sorted sets and hashes: they read as absent after it, writes keep it, emptying or del drops it', async () => {
      const s = await open();
      const z = key('zttl');
      const h = key('httl');
      expect(await s.expire(z, 150)).toBe(false); // missing keys get no TTL and stay missing
      expect(await s.expire(h, 150)).toBe(false);
      expect([await s.zcount(z, -Infinity), await s.hgetall(h)]).toEqual([0, {}]);
      await s.zadd(z, 1, 'a');
      await s.hset(h, 'f', 'v');
      expect(await s.expire(z, 150)).toBe(true);
      expect(await s.expire(h, 150)).toBe(true);
      await s.zadd(z, 2, 'b'); // ZADD and HSET keep the TTL, as in Redis
      await s.hset(h, 'g', 'w');
      expect(await s.zcount(z, -Infinity)).toBe(2);
      expect(await s.hgetall(h)).toEqual({ f: 'v', g: 'w' });
      // Emptied or deleted keys lose their TTL: written again, they stay.
      const emptiedZ = key('emptied-z');
      const emptiedH = key('emptied-h');
      const deleted = key('deleted');
      await Promise.all([s.zadd(emptiedZ, 1, 'a'), s.hset(emptiedH, 'f', 'v'), s.hset(deleted, 'f', 'v')]);
      await Promise.all([s.expire(emptiedZ, 150), s.expire(emptiedH, 150), s.expire(deleted, 150)]);
      await Promise.all([s.zrem(emptiedZ, 'a'), s.hdel(emptiedH, 'f'), s.del(deleted)]);
      await Promise.all([s.zadd(emptiedZ, 2, 'b'), s.hset(emptiedH, 'g', 'w'), s.hset(deleted, 'g', 'w')]);

      await sleep(400);
      expect(await s.zcount(z, -Infinity)).toBe(0);
      expect(await s.zrangeByScore(z, -Infinity)).toEqual([]);
      expect(await s.zremRangeByScoreBelow(z, Infinity)).toBe(0);
      expect(await s.hgetall(h)).toEqual({});
      expect(await s.expire(z, 150)).toBe(false);
      expect(await s.expire(h, 150)).toBe(false);
      expect(await s.zrangeByScore(emptiedZ, -Infinity)).toEqual([{ member: 'b', score: 2 }]);
      expect(await s.hgetall(emptiedH)).toEqual({ g: 'w' });
      expect(await s.hgetall(deleted)).toEqual({ g: 'w' });

      // A write onto an expired key starts from empty, without a TTL; expire renews one.
      await s.zadd(z, 3, 'c');
      await s.hset(h, 'x', 'y');
      expect(await s.zrangeByScore(z, -Infinity)).toEqual([{ member: 'c', score: 3 }]);
      expect(await s.hgetall(h)).toEqual({ x: 'y' });
      await Promise.all([s.expire(z, 150), s.expire(h, 150)]);
      await sleep(100);
      await Promise.all([s.expire(z, 300), s.expire(h, 300)]);
      await sleep(150); // past the first TTL, within the second
      expect([await s.zcount(z, -Infinity), await s.hgetall(h)]).toEqual([1, { x: 'y' }]);
      await sleep(300);
      expect([await s.zcount(z, -Infinity), await s.hgetall(h)]).toEqual([0, {}]);
      expect(await s.ztakeBelow(z, Infinity)).toEqual([]);
    });

    it('incrWithTtl counts atomically and expires the window from its first increment', async () => {
      const s = await open();
      const k = key('rate');
      const results = await Promise.all(Array.from({ length: 50 }, () => s.incrWithTtl(k, 600)));
      expect([...results].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));

      const w = key('window');
      expect(await s.incrWithTtl(w, 400)).toBe(1);
      await sleep(250);
      expect(await s.incrWithTtl(w, 400)).toBe(2); // does not extend the window...
      await sleep(300);
      expect(await s.incrWithTtl(w, 400)).toBe(1); // ...so it has expired 400 ms after the first increment
    });

    it('pub/sub: subscribers get messages in order, asynchronously; unsubscribe stops delivery', async () => {
      const s = await open();
      const ch = key('chan');
      const other = key('other');
      const a: string[] = [];
      const b: string[] = [];
      const unsubA = await s.subscribe(ch, (m) => a.push(m));
      const unsubB = await s.subscribe(ch, (m) => b.push(m));
      const unsubOther = await s.subscribe(other, (m) => a.push(`other:${m}`));

      const published = s.publish(ch, 'm1');
      expect(a).toEqual([]); // never delivered inside publish()
      await published;
      for (let i = 2; i <= 20; i++) await s.publish(ch, `m${i}`);
      const expected = Array.from({ length: 20 }, (_, i) => `m${i + 1}`);
      await waitFor(() => a.length === 20 && b.length === 20);
      expect(a).toEqual(expected);
      expect(b).toEqual(expected);

      await unsubA();
      await s.publish(ch, 'after');
      await waitFor(() => b.length === 21);
      await sleep(50);
      expect(a).toEqual(expected); // A unsubscribed; the other channel's handler saw nothing either
      expect(b.at(-1)).toBe('after');
      await unsubB();
      await unsubOther();
      await s.publish(ch, 'nobody listens'); // publishing to a channel without subscribers is fine
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms`);
    await sleep(5);
  }
}
