/**
 * Presence's per-room keys expire by themselves: a room nobody touches again after its users' gateway crashed (no
 * disconnect, no list that drops them) must not keep its connections set, index and statuses in the store for good.
 * Redis: each write gives the keys a TTL of CONNECTION_TTL_MS, read back with PTTL. Memory: with the clock moved on
 * (Date only; the service reads the same clock), the keys read as absent CONNECTION_TTL_MS after the last refresh.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, expect, it, vi } from 'vitest';
import { sharedInfra } from '../../../test/helpers/infra.ts';
import { MemoryEphemeralStore, RedisEphemeralStore, type EphemeralStore } from '@ephemera/platform';
import { CONNECTION_TTL_MS, PresenceService } from '../src/presence-service.ts';

const user = (id: string) => ({ id, username: id, isAdmin: false, presenceStatus: 'online' as const });
/** the user's connections, the room's index, the room's statuses (the layout in presence-service.ts) */
const roomKeys = (ws: string, userId: string) => [
  `presence:conns:${ws}:${userId}`,
  `presence:users:${ws}`,
  `presence:status:${ws}`,
];

const cleanup: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const done of cleanup.splice(0).reverse()) await done();
});

it('redis: connect, setStatus and heartbeat give the conns, users and status keys a TTL of CONNECTION_TTL_MS', async () => {
  const store = new RedisEphemeralStore(sharedInfra('redisUrl'));
  const raw = new Redis(sharedInfra('redisUrl'));
  cleanup.push(
    () => store.close(),
    () => raw.quit(),
  );
  const presence = new PresenceService(store, { typingSweepMs: 0 });
  const ws = `ws-${randomUUID()}`;
  const [conns, users, status] = roomKeys(ws, 'ann');
  const ttls = (keys: string[]) => Promise.all(keys.map((k) => raw.pttl(k)));
  const expectTtls = async (keys: string[], above: number) => {
    for (const ttl of await ttls(keys)) {
      expect(ttl).toBeGreaterThan(above);
      expect(ttl).toBeLessThanOrEqual(CONNECTION_TTL_MS);
    }
  };

  await presence.connect({ workspaceId: ws, user: user('ann'), connectionId: `a1-${ws}`, gatewayId: 'g1' });
  await expectTtls([conns, users], 0);
  expect(await raw.exists(status)).toBe(0); // no status set yet: nothing to expire
  await presence.setStatus({ workspaceId: ws, userId: 'ann', status: 'away' });
  await expectTtls([conns, users, status], 0);

  // Each write renews them: shortened by hand, a heartbeat, a status, a further connection set them anew.
  const shorten = () => Promise.all([conns, users, status].map((k) => raw.pexpire(k, 1_000)));
  await shorten();
  expect(
    await presence.heartbeat({
      gatewayId: 'g1',
      connections: [{ workspaceId: ws, userId: 'ann', connectionId: `a1-${ws}` }],
    }),
  ).toEqual({ missing: [] });
  await expectTtls([conns, users, status], 1_000);
  await shorten();
  await presence.setStatus({ workspaceId: ws, userId: 'ann', status: 'busy' });
  await expectTtls([status], 1_000);
  await shorten();
  await presence.connect({ workspaceId: ws, user: user('ann'), connectionId: `a2-${ws}`, gatewayId: 'g1' });
  await expectTtls([conns, users, status], 1_000);
  // A user joining the room renews the room's hashes as well as their own connections.
  await shorten();
  await presence.connect({ workspaceId: ws, user: user('bob'), connectionId: `b1-${ws}`, gatewayId: 'g1' });
  await expectTtls([roomKeys(ws, 'bob')[0], users, status], 1_000);
});

it('memory: the keys read as absent CONNECTION_TTL_MS after the last connect, status or heartbeat', async () => {
  vi.useFakeTimers({ toFake: ['Date'] }); // the store's TTLs run on Date.now; its timers stay real (and unref'd)
  cleanup.push(() => {
    vi.useRealTimers();
  });
  const store: EphemeralStore = new MemoryEphemeralStore();
  cleanup.push(() => store.close());
  const presence = new PresenceService(store, { typingSweepMs: 0 });
  const advance = (ms: number) => vi.setSystemTime(Date.now() + ms);
  const ws = `ws-${randomUUID()}`;
  const [conns, users, status] = roomKeys(ws, 'ann');
  const held = { workspaceId: ws, userId: 'ann', connectionId: `a1-${ws}` };
  const stored = async () => [
    await store.zcount(conns, -Infinity),
    Object.keys(await store.hgetall(users)),
    Object.keys(await store.hgetall(status)),
  ];

  await presence.connect({ workspaceId: ws, user: user('ann'), connectionId: held.connectionId, gatewayId: 'g1' });
  advance(CONNECTION_TTL_MS / 2);
  await presence.setStatus({ workspaceId: ws, userId: 'ann', status: 'away' });
  advance(CONNECTION_TTL_MS / 2 - 1_000);
  expect(await presence.heartbeat({ gatewayId: 'g1', connections: [held] })).toEqual({ missing: [] });
  advance(CONNECTION_TTL_MS - 1); // past the connect's TTL, within the heartbeat's
  expect(await stored()).toEqual([1, ['ann'], ['ann']]);
  advance(1); // the gateway crashed after its heartbeat: nothing refreshed the room since
  expect(await stored()).toEqual([0, [], []]);
});
