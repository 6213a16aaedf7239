/**
 * The rate-limit kit on both stores: a limit counted across two instances sharing Redis (two replicas), bursts,
 * failure-counted limits (check/penalize), configuration from RATE_LIMIT_* variables, and the client address rule
 * (X-Forwarded-For only through a trusted proxy).
 */
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { describe, expect, inject, it } from 'vitest';
import { createRateLimits, rateLimitConfig, RateLimitedError, RATE_LIMIT_DEFAULTS, type LimitConfig } from '../src/rate-limit.ts';
import { clientAddress, fromTrustedProxy, trustProxy } from '../src/client-address.ts';

const low = (): LimitConfig => ({ ...RATE_LIMIT_DEFAULTS, eventsPerUser: { points: 3, durationSec: 60 }, messagesPerUser: { points: 2, durationSec: 60, burst: { points: 2, durationSec: 60 } }, passwordFailuresPerAddress: { points: 2, durationSec: 60 } });

describe('rate limits', () => {
  it('redis: two replicas share one count; a refusal says how long to wait', async () => {
    const namespace = `t${randomUUID().slice(0, 8)}`;
    const a = createRateLimits({ redisUrl: inject('redisUrl'), namespace, config: low() });
    const b = createRateLimits({ redisUrl: inject('redisUrl'), namespace, config: low() });
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
      const c = createRateLimits({ redisUrl: inject('redisUrl'), namespace: `${namespace}x`, config: low() });
      await c.consume('eventsPerUser', 'u1');
      await c.close();
    } finally {
      await a.close(); await b.close();
    }
  });

  it('redis: the limits asked in one event-loop turn leave in one write to Redis', async () => {
    const redisPort = Number(new URL(inject('redisUrl')).port);
    const limits = createRateLimits({ redisUrl: inject('redisUrl'), namespace: `t${randomUUID().slice(0, 8)}` });
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

  it('failure-counted limits: check refuses only once the failures reached the limit; reset forgets', async () => {
    const limits = createRateLimits({ config: low() });
    await limits.check('passwordFailuresPerAddress', 'ip');
    await limits.penalize('passwordFailuresPerAddress', 'ip');
    await limits.check('passwordFailuresPerAddress', 'ip'); // one typo: never noticed
    await limits.penalize('passwordFailuresPerAddress', 'ip');
    await expect(limits.check('passwordFailuresPerAddress', 'ip')).rejects.toBeInstanceOf(RateLimitedError);
    await limits.reset('passwordFailuresPerAddress', 'ip');
    await limits.check('passwordFailuresPerAddress', 'ip');
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
