/**
 * The rate-limit kit on both stores: a limit counted across two instances sharing Redis (two replicas), bursts,
 * failure-counted limits (attempt: counted before the work, given back on success) under bursts, IPv6 by /64, configuration from RATE_LIMIT_* variables, and the client address rule
 * (X-Forwarded-For only through a trusted proxy).
 */
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { sharedInfra } from '../../../test/helpers/infra.ts';
import { createRateLimits, RateLimitedError, RATE_LIMIT_DEFAULTS, type LimitConfig } from '../src/rate-limit.ts';
import { rateLimitConfig } from '../src/config-vars.ts';
import { addressKey, clientAddress, fromTrustedProxy, trustProxy } from '../src/client-address.ts';

const low = (): LimitConfig => ({
  ...RATE_LIMIT_DEFAULTS,
  eventsPerUser: { points: 3, durationSec: 60 },
  messagesPerUser: { points: 2, durationSec: 60, burst: { points: 2, durationSec: 60 } },
  passwordFailuresPerAddress: { points: 2, durationSec: 60 },
});

describe('rate limits', () => {
  it('redis: two replicas share one count; a refusal says how long to wait', async () => {
    const namespace = `t${randomUUID().slice(0, 8)}`;
    const a = createRateLimits({ redisUrl: sharedInfra('redisUrl'), namespace, config: low() });
    const b = createRateLimits({ redisUrl: sharedInfra('redisUrl'), namespace, config: low() });
    try {
      await a.consume('eventsPerUser', 'u1');
      await b.consume('eventsPerUser', 'u1');
      await a.consume('eventsPerUser', 'u1');
      const refused = await b.consume('eventsPerUser', 'u1').catch((e) => e);
      expect(refused).toBeInstanceOf(RateLimitedError);
      expect(refused.code).toBe('RATE_LIMITED');
      expect(refused.retryAfterSec).toBeGreaterThan(0);
      await b.consume('eventsPerUser', 'u2'); // another key has its own count
      // Another namespace (deployment, test stack) counts apart.
      const c = createRateLimits({ redisUrl: sharedInfra('redisUrl'), namespace: `${namespace}x`, config: low() });
      await c.consume('eventsPerUser', 'u1');
      await c.close();
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('redis: the limits asked in one event-loop turn leave in one write to Redis', async () => {
    const redisPort = Number(new URL(sharedInfra('redisUrl')).port);
    const limits = createRateLimits({ redisUrl: sharedInfra('redisUrl'), namespace: `t${randomUUID().slice(0, 8)}` });
    const write = net.Socket.prototype.write;
    let writes = 0;
    try {
      await limits.consume('eventsPerUser', 'warm-up'); // connected, and the script loaded on the connection
      net.Socket.prototype.write = function countedWrite(this: net.Socket, ...args: unknown[]) {
        if (this.remotePort === redisPort) writes += 1;
        return (write as (...a: unknown[]) => boolean).apply(this, args);
      } as typeof write;
      // 40 users' events and a send's two buckets, asked together.
      await Promise.all([
        ...Array.from({ length: 40 }, (_, i) => limits.consume('eventsPerUser', `user-${i}`)),
        limits.consume('messagesPerUser', 'user-0'),
      ]);
    } finally {
      net.Socket.prototype.write = write;
      await limits.close();
    }
    expect(writes).toBeGreaterThan(0);
    expect(writes).toBeLessThanOrEqual(2); // 41 without auto-pipelining
  });

  it('memory: a burst adds points after the main window is used up', async () => {
    const limits = createRateLimits({ config: low() });
    for (let i = 0; i < 4; i++) await limits.consume('messagesPerUser', 'u');
    await expect(limits.consume('messagesPerUser', 'u')).rejects.toBeInstanceOf(RateLimitedError);
  });

  /** 50 concurrent tries of which only `rightAt` is right; how many ran, and how the right one ended. */
  async function burst(limits: ReturnType<typeof createRateLimits>, key: string, rightAt: number) {
    let evaluated = 0;
    const wrong = new Error('wrong');
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        limits.attempt(
          'passwordFailuresPerAddress',
          key,
          async () => {
            evaluated++;
            await new Promise((r) => setTimeout(r, 5)); // the work takes a while: every try is in flight at once
            if (i !== rightAt) throw wrong;
            return 'in';
          },
          (err) => err === wrong,
        ),
      ),
    );
    return { evaluated, right: outcomes[rightAt] };
  }

  for (const store of ['memory', 'redis'] as const) {
    it(`${store}: failure-counted limits hold under a burst: of 50 concurrent tries only the limit is evaluated, the right one sent 40th is refused`, async () => {
      const limits = createRateLimits({
        config: low(),
        ...(store === 'redis' ? { redisUrl: sharedInfra('redisUrl'), namespace: `t${randomUUID().slice(0, 8)}` } : {}),
      });
      try {
        const { evaluated, right } = await burst(limits, 'ip', 39);
        expect(evaluated).toBe(2);
        expect(right.status).toBe('rejected');
        expect((right as PromiseRejectedResult).reason).toBeInstanceOf(RateLimitedError);
      } finally {
        await limits.close();
      }
    });
  }

  it('failure-counted limits: a success gives its point back (typos never add up with right answers); reset forgets', async () => {
    const limits = createRateLimits({ config: low() });
    const wrong = new Error('wrong');
    const isWrong = (e: unknown) => e === wrong;
    for (let i = 0; i < 5; i++)
      expect(await limits.attempt('passwordFailuresPerAddress', 'ip', async () => 'ok', isWrong)).toBe('ok');
    await expect(
      limits.attempt(
        'passwordFailuresPerAddress',
        'ip',
        async () => {
          throw wrong;
        },
        isWrong,
      ),
    ).rejects.toBe(wrong);
    // another error than a failure (the room is gone, say) does not count either
    await expect(
      limits.attempt(
        'passwordFailuresPerAddress',
        'ip',
        async () => {
          throw new Error('other');
        },
        isWrong,
      ),
    ).rejects.toThrow('other');
    await expect(
      limits.attempt(
        'passwordFailuresPerAddress',
        'ip',
        async () => {
          throw wrong;
        },
        isWrong,
      ),
    ).rejects.toBe(wrong);
    await expect(limits.attempt('passwordFailuresPerAddress', 'ip', async () => 'ok', isWrong)).rejects.toBeInstanceOf(
      RateLimitedError,
    );
    expect(await limits.used('passwordFailuresPerAddress', 'ip')).toBeGreaterThanOrEqual(2); // a refused try counts too
    await limits.reset('passwordFailuresPerAddress', 'ip');
    expect(await limits.attempt('passwordFailuresPerAddress', 'ip', async () => 'ok', isWrong)).toBe('ok');
  });

  it('per-address limits count an IPv6 client by its /64; IPv4 and IPv4-mapped addresses by the address', async () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(addressKey('198.51.100.7')).toBe('198.51.100.7');
    expect(addressKey('unknown')).toBe('unknown');
    const limits = createRateLimits({ config: low() });
    for (let i = 1; i <= 3; i++) await limits.consume('roomCreationsPerAddress', `2001:db8:1:2::${i}`);
    expect(await limits.used('roomCreationsPerAddress', '2001:db8:1:2::ffff')).toBe(3);
    expect(await limits.used('roomCreationsPerAddress', '2001:db8:1:3::1')).toBe(0);
    // a per-user limit keys what it is given
    await limits.consume('eventsPerUser', '2001:db8:1:2::1');
    expect(await limits.used('eventsPerUser', '2001:db8:1:2::2')).toBe(0);
  });

  it('configuration: RATE_LIMIT_<NAME>=points/seconds overrides a default; a bad value fails with the variable name', () => {
    const config = rateLimitConfig({ RATE_LIMIT_MESSAGES_PER_USER: '50/5', RATE_LIMIT_CONNECTIONS_PER_ADDRESS: '' });
    expect(config.messagesPerUser).toEqual({ points: 50, durationSec: 5 });
    expect(config.connectionsPerAddress).toEqual(RATE_LIMIT_DEFAULTS.connectionsPerAddress);
    expect(() => rateLimitConfig({ RATE_LIMIT_EVENTS_PER_USER: 'lots' })).toThrow(/RATE_LIMIT_EVENTS_PER_USER/);
    expect(() => rateLimitConfig({ RATE_LIMIT_EVENTS_PER_USER: '0/10' })).toThrow(/RATE_LIMIT_EVENTS_PER_USER/);
  });

  it('client address: X-Forwarded-For only from a trusted proxy', () => {
    const none = trustProxy([]);
    const loopback = trustProxy(['loopback']);
    const xff = { 'x-forwarded-for': '203.0.113.9' };
    expect(clientAddress('198.51.100.7', xff, none)).toBe('198.51.100.7'); // a client's own header is ignored
    expect(clientAddress('127.0.0.1', xff, none)).toBe('127.0.0.1');
    expect(clientAddress('127.0.0.1', xff, loopback)).toBe('203.0.113.9');
    expect(clientAddress('::ffff:127.0.0.1', xff, loopback)).toBe('203.0.113.9');
    // A chain: only the hops the trusted proxy vouches for; a spoofed first entry is not the answer.
    expect(clientAddress('127.0.0.1', { 'x-forwarded-for': '1.2.3.4, 203.0.113.9' }, loopback)).toBe('203.0.113.9');
    expect(clientAddress('198.51.100.7', xff, loopback)).toBe('198.51.100.7');
    expect(fromTrustedProxy('127.0.0.1', loopback)).toBe(true);
    expect(fromTrustedProxy('198.51.100.7', loopback)).toBe(false);
    expect(fromTrustedProxy('127.0.0.1', none)).toBe(false);
  });
});
