/**
 * PresenceService on both ephemeral adapters (Redis: distributed, memory: embedded): first and last connection of
 * users with many connections, expiry and heartbeats, status kept per user per room across connections, a cost
 * per connect that does not grow with the room's connections, typing signals, and the sweep that stops the
 * indicators of a typer whose gateway vanished without saying stop. End-to-end behaviour through real sockets:
 * test/suites/presence.suite.ts.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { sharedInfra } from '../../../test/helpers/infra.ts';
import { LIMITS, PRESENCE_CHANNEL, type PresenceSignal } from '@ephemera/proto';
import { MemoryEphemeralStore, RedisEphemeralStore, type EphemeralStore } from '@ephemera/platform';
import { CONNECTION_TTL_MS, PresenceService } from '../src/presence-service.ts';

const adapters: [string, () => EphemeralStore][] = [
  ['memory', () => new MemoryEphemeralStore()],
  ['redis', () => new RedisEphemeralStore(sharedInfra('redisUrl'))],
];

for (const [name, makeStore] of adapters) {
  describe(`presence service (${name})`, () => {
    const open: EphemeralStore[] = [];
    afterEach(async () => {
      await Promise.all(open.splice(0).map((s) => s.close()));
    });

    async function setup(wrap: (store: EphemeralStore) => EphemeralStore = (store) => store) {
      const store = makeStore();
      open.push(store);
      let clock = Date.now();
      const presence = new PresenceService(wrap(store), { now: () => clock, typingSweepMs: 0 });
      const signals: PresenceSignal[] = [];
      const ws = `ws-${randomUUID()}`;
      // Other tests share the Redis channel: keep only this room's signals.
      await store.subscribe(PRESENCE_CHANNEL, (raw) => {
        const s = JSON.parse(raw) as PresenceSignal;
        if (s.workspaceId === ws) signals.push(s);
      });
      const user = (id: string) => ({ id, username: id, isAdmin: false, presenceStatus: 'online' as const });
      return {
        presence,
        signals,
        ws,
        store,
        user,
        advance: (ms: number) => {
          clock += ms;
        },
      };
    }
    const ids = (users: { id: string }[]) => users.map((u) => u.id).sort();
    /** the signals of this room once published ones have arrived (delivery is asynchronous) */
    const settled = async (signals: PresenceSignal[]) => {
      await new Promise((r) => setTimeout(r, 50));
      return signals.map((s) => `${s.kind}:${s.kind === 'joined' ? s.user.id : 'userId' in s ? s.userId : ''}`);
    };

    it('many connections per user: first and last are per user, the list has each user once with their status', async () => {
      const { presence, signals, ws, user } = await setup();
      const connect = (u: string, c: string) =>
        presence.connect({ workspaceId: ws, user: user(u), connectionId: `${c}-${ws}`, gatewayId: 'g1' });
      const disconnect = (u: string, c: string) =>
        presence.disconnect({ workspaceId: ws, userId: u, connectionId: `${c}-${ws}` });
      expect((await connect('ann', 'a1')).firstConnection).toBe(true);
      expect((await connect('ann', 'a2')).firstConnection).toBe(false);
      expect((await connect('bob', 'b1')).firstConnection).toBe(true);
      await presence.setStatus({ workspaceId: ws, userId: 'ann', status: 'away' });
      const third = await connect('ann', 'a3');
      expect(third.firstConnection).toBe(false);
      expect(third.online.map((u) => [u.id, u.presenceStatus]).sort()).toEqual([
        ['ann', 'away'],
        ['bob', 'online'],
      ]);
      expect(ids(await presence.online(ws))).toEqual(['ann', 'bob']);

      expect(await disconnect('ann', 'a1')).toEqual({ lastConnection: false });
      expect(await disconnect('ann', 'a1')).toEqual({ lastConnection: false }); // twice, or a connection never seen
      expect(await disconnect('ann', 'never')).toEqual({ lastConnection: false });
      expect(await disconnect('ann', 'a3')).toEqual({ lastConnection: false });
      expect((await presence.online(ws)).find((u) => u.id === 'ann')?.presenceStatus).toBe('away');
      expect(await disconnect('ann', 'a2')).toEqual({ lastConnection: true });
      expect(ids(await presence.online(ws))).toEqual(['bob']);
      expect(await settled(signals)).toEqual(['joined:ann', 'joined:bob', 'status:ann', 'left:ann']);

      // Back later: a first connection again, online again.
      const back = await connect('ann', 'a4');
      expect(back.firstConnection).toBe(true);
      expect(back.online.find((u) => u.id === 'ann')?.presenceStatus).toBe('online');
    });

    it('a connection that expires without a disconnect (a crashed gateway) stops counting; heartbeats keep others live', async () => {
      const { presence, signals, ws, user, advance } = await setup();
      await presence.connect({ workspaceId: ws, user: user('ann'), connectionId: `a1-${ws}`, gatewayId: 'crashed' });
      await presence.connect({ workspaceId: ws, user: user('bob'), connectionId: `b1-${ws}`, gatewayId: 'g1' });
      await presence.setStatus({ workspaceId: ws, userId: 'ann', status: 'busy' });
      advance(CONNECTION_TTL_MS - 1_000);
      expect(
        await presence.heartbeat({
          gatewayId: 'g1',
          connections: [{ workspaceId: ws, userId: 'bob', connectionId: `b1-${ws}` }],
        }),
      ).toEqual({ missing: [] });
      advance(2_000); // ann's connection expired, bob's was refreshed
      expect(ids(await presence.online(ws))).toEqual(['bob']);
      expect(ids(await presence.online(ws))).toEqual(['bob']); // and stays gone once dropped from the index

      // ann's next connection is a first one: joined again, the crashed connections' status dropped.
      const again = await presence.connect({
        workspaceId: ws,
        user: user('ann'),
        connectionId: `a2-${ws}`,
        gatewayId: 'g1',
      });
      expect(again.firstConnection).toBe(true);
      expect(again.online.map((u) => [u.id, u.presenceStatus]).sort()).toEqual([
        ['ann', 'online'],
        ['bob', 'online'],
      ]);
      expect((await presence.online(ws)).find((u) => u.id === 'ann')?.presenceStatus).toBe('online'); // dropped from the store too
      advance(CONNECTION_TTL_MS - 1_000);
      expect(ids(await presence.online(ws))).toEqual(['ann']); // bob's refreshed expiry has passed too
      expect(await settled(signals)).toEqual(['joined:ann', 'joined:bob', 'status:ann', 'joined:ann']);
    });

    it("disconnecting the last live connection is the last connection when the user's other connections expired", async () => {
      const { presence, signals, ws, user, advance } = await setup();
      await presence.connect({ workspaceId: ws, user: user('ann'), connectionId: `a1-${ws}`, gatewayId: 'crashed' });
      advance(CONNECTION_TTL_MS / 2);
      expect(
        (await presence.connect({ workspaceId: ws, user: user('ann'), connectionId: `a2-${ws}`, gatewayId: 'g1' }))
          .firstConnection,
      ).toBe(false);
      await presence.setStatus({ workspaceId: ws, userId: 'ann', status: 'away' });
      advance(CONNECTION_TTL_MS / 2 + 1); // a1 expired, a2 live
      expect(ids(await presence.online(ws))).toEqual(['ann']);
      expect(await presence.disconnect({ workspaceId: ws, userId: 'ann', connectionId: `a2-${ws}` })).toEqual({
        lastConnection: true,
      });
      expect(await presence.online(ws)).toEqual([]);
      expect(await settled(signals)).toEqual(['joined:ann', 'status:ann', 'left:ann']);
      const back = await presence.connect({
        workspaceId: ws,
        user: user('ann'),
        connectionId: `a3-${ws}`,
        gatewayId: 'g1',
      });
      expect(back).toMatchObject({ firstConnection: true, online: [{ id: 'ann', presenceStatus: 'online' }] });
    });

    it('a heartbeat that comes late lists its user again; a connection registered by the earlier layout reads as missing', async () => {
      const { presence, ws, store, user, advance } = await setup();
      const held = { workspaceId: ws, userId: 'ann', connectionId: `a1-${ws}` };
      await presence.connect({ workspaceId: ws, user: user('ann'), connectionId: held.connectionId, gatewayId: 'g1' });
      advance(CONNECTION_TTL_MS + 1); // the clock only: the store still holds the connection's registration
      expect(await presence.online(ws)).toEqual([]);
      expect(await presence.heartbeat({ gatewayId: 'g1', connections: [held] })).toEqual({ missing: [] });
      expect(ids(await presence.online(ws))).toEqual(['ann']);

      const old = { workspaceId: ws, userId: 'bob', connectionId: `old-${ws}` };
      await store.set(
        `presence:conn:${old.connectionId}`,
        JSON.stringify({ workspaceId: ws, member: JSON.stringify({ c: old.connectionId, u: user('bob') }) }),
        60_000,
      );
      expect(await presence.heartbeat({ gatewayId: 'g1', connections: [held, old] })).toEqual({
        missing: [old.connectionId],
      });
      expect(await presence.disconnect(old)).toEqual({ lastConnection: false });
    });

    it("connect reads what the room's users take, not its connections: the 1001st connection costs what the 2nd does", async () => {
      /** store calls and the entries they returned (members, fields) */
      const cost = { calls: 0, entries: 0 };
      const counting = (store: EphemeralStore) =>
        new Proxy(store, {
          get(target, prop, receiver) {
            const value = Reflect.get(target, prop, receiver) as unknown;
            if (typeof value !== 'function') return value;
            return async (...args: unknown[]) => {
              cost.calls++;
              const result = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
              if (Array.isArray(result)) cost.entries += result.length;
              else if (result && typeof result === 'object') cost.entries += Object.keys(result).length;
              return result;
            };
          },
        });
      const { presence, ws, user } = await setup(counting);
      const connect = (room: string, u: string, c: string) =>
        presence.connect({ workspaceId: room, user: user(u), connectionId: `${c}-${room}`, gatewayId: 'g1' });
      const measure = async (step: () => Promise<unknown>) => {
        const start = { ...cost };
        await step();
        return { calls: cost.calls - start.calls, entries: cost.entries - start.entries };
      };

      // A small room: ann's 2nd connection, bob online too.
      const small = `${ws}-small`;
      await connect(small, 'ann', 'a0');
      await connect(small, 'bob', 'b0');
      const second = await measure(() => connect(small, 'ann', 'a1'));

      // A big room: ann has 1,000 connections, bob one.
      await connect(ws, 'ann', 'a0');
      await connect(ws, 'bob', 'b0');
      for (let i = 1; i < 1_000; i += 100)
        await Promise.all(Array.from({ length: 100 }, (_, j) => connect(ws, 'ann', `a${i + j}`)));
      const thousandFirst = await measure(() => connect(ws, 'ann', 'a1000'));
      expect(thousandFirst).toEqual(second);
      // the page's 2 ids, their 2 index entries and 2 status fields (HMGET answers one per field asked)
      expect(thousandFirst.entries).toBeLessThanOrEqual(6);
      expect(
        await measure(() => presence.disconnect({ workspaceId: ws, userId: 'ann', connectionId: `a1000-${ws}` })),
      ).toEqual(
        await measure(() => presence.disconnect({ workspaceId: small, userId: 'ann', connectionId: `a1-${small}` })),
      );
      expect(await measure(() => presence.online(ws))).toEqual(await measure(() => presence.online(small)));
    });

    it('a heartbeat renews each connection with two commands, reads one registration and sets one TTL per user, not per connection', async () => {
      const calls: Record<string, number> = {};
      const counting = (store: EphemeralStore) =>
        new Proxy(store, {
          get(target, prop, receiver) {
            const value = Reflect.get(target, prop, receiver) as unknown;
            if (typeof value !== 'function') return value;
            return (...args: unknown[]) => {
              calls[String(prop)] = (calls[String(prop)] ?? 0) + 1;
              return (value as (...a: unknown[]) => unknown).apply(target, args);
            };
          },
        });
      const { presence, ws, user, advance } = await setup(counting);
      const held = ['ann', 'bob', 'cy'].flatMap((u) =>
        Array.from({ length: 100 }, (_, i) => ({ workspaceId: ws, userId: u, connectionId: `${u}${i}-${ws}` })),
      );
      for (const c of held)
        await presence.connect({
          workspaceId: ws,
          user: user(c.userId),
          connectionId: c.connectionId,
          gatewayId: 'g1',
        });
      advance(CONNECTION_TTL_MS - 1_000);
      for (const k of Object.keys(calls)) delete calls[k];
      expect(await presence.heartbeat({ gatewayId: 'g1', connections: held })).toEqual({ missing: [] });
      // expire: each connection's registration, each user's connections, the room's index, ids and statuses once;
      // zadd: each connection's expiry, and each user's id in the room's id set with their index entry
      expect(calls).toEqual({ expire: 300 + 3 + 3, zadd: 300 + 3, get: 3, hset: 3 });
      advance(2_000); // past the connections' first expiry: the beat renewed them
      expect(ids(await presence.online(ws))).toEqual(['ann', 'bob', 'cy']);
    });

    it('heartbeat refreshes the connections it holds and names the ones the store lost (a Redis restart)', async () => {
      const { presence, ws, user } = await setup();
      await presence.connect({ workspaceId: ws, user: user('ann'), connectionId: `h1-${ws}`, gatewayId: 'g1' });
      const held = { workspaceId: ws, userId: 'ann', connectionId: `h1-${ws}` };
      const lost = { workspaceId: ws, userId: 'bob', connectionId: `h2-${ws}` }; // never stored: as after a restart
      expect(await presence.heartbeat({ gatewayId: 'g1', connections: [held, lost] })).toEqual({
        missing: [`h2-${ws}`],
      });
      expect((await presence.online(ws)).map((u) => u.id)).toEqual(['ann']);
    });

    it('status belongs to the user: every connection shows it, a new tab keeps it, a later return starts online', async () => {
      const { presence, signals, ws, user } = await setup();
      await presence.connect({ workspaceId: ws, user: user('ann'), connectionId: `c1-${ws}`, gatewayId: 'g1' });
      await presence.connect({ workspaceId: ws, user: user('bob'), connectionId: `c2-${ws}`, gatewayId: 'g2' });
      await presence.setStatus({ workspaceId: ws, userId: 'ann', status: 'busy' });
      await expect
        .poll(() => signals.find((s) => s.kind === 'status'))
        .toEqual({ kind: 'status', workspaceId: ws, userId: 'ann', status: 'busy' });
      const online = await presence.online(ws);
      expect(online.find((u) => u.id === 'ann')?.presenceStatus).toBe('busy');
      expect(online.find((u) => u.id === 'bob')?.presenceStatus).toBe('online');

      // A second tab of ann keeps busy, and the list it gets says so.
      const second = await presence.connect({
        workspaceId: ws,
        user: user('ann'),
        connectionId: `c3-${ws}`,
        gatewayId: 'g2',
      });
      expect(second.firstConnection).toBe(false);
      expect(second.online.find((u) => u.id === 'ann')?.presenceStatus).toBe('busy');

      // Both tabs go: the next visit is online again.
      await presence.disconnect({ workspaceId: ws, userId: 'ann', connectionId: `c1-${ws}` });
      await presence.disconnect({ workspaceId: ws, userId: 'ann', connectionId: `c3-${ws}` });
      const back = await presence.connect({
        workspaceId: ws,
        user: user('ann'),
        connectionId: `c4-${ws}`,
        gatewayId: 'g1',
      });
      expect(back.online.find((u) => u.id === 'ann')?.presenceStatus).toBe('online');

      await presence.setStatus({ workspaceId: ws, userId: 'ann', status: 'away' });
      await presence.setStatus({ workspaceId: ws, userId: 'ann', status: 'online' });
      expect((await presence.online(ws)).find((u) => u.id === 'ann')?.presenceStatus).toBe('online');
    });

    it('typing: start and refresh signal, one stop is announced once, an unrefreshed indicator is swept once', async () => {
      const { presence, signals, ws, advance } = await setup();
      const base = {
        workspaceId: ws,
        channelId: 'ch1',
        userId: 'ann',
        username: 'ann',
        audience: { kind: 'workspace' as const },
      };
      await presence.typing({ ...base, typing: true });
      await presence.typing({ ...base, typing: true }); // refresh
      await presence.typing({ ...base, typing: false });
      await presence.typing({ ...base, typing: false }); // a second stop says nothing
      await expect.poll(() => signals.length).toBe(3);
      await new Promise((r) => setTimeout(r, 50));
      expect(signals.map((s) => s.kind === 'typing' && s.typing)).toEqual([true, true, false]);

      // A typer whose gateway crashed: nobody says stop. Before the expiry the sweep leaves it alone...
      await presence.typing({ ...base, channelId: 'ch2', typing: true });
      await presence.typing({
        ...base,
        channelId: 'ch3',
        userId: 'bob',
        username: 'bob',
        audience: { kind: 'users', userIds: ['bob', 'cy'] },
        typing: true,
      });
      advance(LIMITS.typingExpireMs - 100);
      expect(await presence.sweepTyping()).toBe(0);
      // ...a refresh moves one expiry on; after the other's expiry it alone is stopped, with its audience.
      await presence.typing({ ...base, channelId: 'ch2', typing: true });
      advance(200);
      await presence.sweepTyping();
      await expect.poll(() => signals.length).toBe(7);
      expect(signals.at(-1)).toEqual({
        ...base,
        channelId: 'ch3',
        userId: 'bob',
        username: 'bob',
        audience: { kind: 'users', userIds: ['bob', 'cy'] },
        typing: false,
        kind: 'typing',
      });
      advance(LIMITS.typingExpireMs);
      await presence.sweepTyping();
      await expect.poll(() => signals.length).toBe(8);
      expect(signals.at(-1)).toMatchObject({ kind: 'typing', channelId: 'ch2', userId: 'ann', typing: false });
      expect(await presence.sweepTyping()).toBe(0);
    });
  });
}
