/**
 * Presence under the room key (docs/crypto.md): through the gateway's SealedPresence, nothing the presence service
 * writes to Redis (keys and values of connection entries, typing details, statuses, signals) holds a username in
 * the clear, while the gateway still gets the online list and the signals with the names opened. A signal of a
 * room whose key is gone is dropped.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedInfra } from '../../../test/helpers/infra.ts';
import { PRESENCE_CHANNEL, type PresenceSignal } from '@ephemera/proto';
import { RedisEphemeralStore, RoomKey, RoomKeyring, type EphemeralStore } from '@ephemera/platform';
import { PresenceService } from '@ephemera/presence';
import { SealedPresence } from '../src/sealed-presence.ts';

describe('presence through the gateway holds sealed names only', () => {
  const store = new RedisEphemeralStore(sharedInfra('redisUrl'));
  /** every string the presence service hands to the store (keys, members, values, published signals) */
  const written: string[] = [];
  const recording = new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        for (const a of args) if (typeof a === 'string') written.push(a);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as EphemeralStore;
  const presence = new PresenceService(recording, { typingSweepMs: 0 });
  afterAll(async () => {
    presence.stop();
    await store.close();
  });

  it('seals names on the way in, opens them on the way out', async () => {
    const ws = `ws-${randomUUID()}`;
    const name = `canary${randomBytes(6).toString('hex')}`;
    const keyring = new RoomKeyring(async (id) => (id === ws ? RoomKey.generate(ws) : null));
    const sealed = new SealedPresence(presence, keyring);
    const signals: PresenceSignal[] = [];
    await store.subscribe(PRESENCE_CHANNEL, (text) => {
      const s = JSON.parse(text) as PresenceSignal;
      if (s.workspaceId === ws)
        void sealed.openSignal(s).then((o) => {
          if (o) signals.push(o);
        });
    });

    const user = { id: 'u1', username: name, isAdmin: false, presenceStatus: 'online' as const };
    const { online } = await sealed.connect({
      workspaceId: ws,
      user,
      connectionId: `c-${randomUUID()}`,
      gatewayId: 'g1',
    });
    expect(online).toEqual([user]);
    expect(await sealed.online(ws)).toEqual([user]);
    await sealed.typing({
      workspaceId: ws,
      channelId: 'ch1',
      userId: 'u1',
      username: name,
      typing: true,
      audience: { kind: 'workspace' },
    });

    const stored = written.join('\n');
    expect(stored).toContain(ws); // the room's entries were written...
    expect(stored).not.toContain(name); // ...without the name
    await expect.poll(() => signals.map((s) => s.kind)).toEqual(['joined', 'typing']);
    expect(signals[0]).toMatchObject({ kind: 'joined', user: { username: name } });
    expect(signals[1]).toMatchObject({ kind: 'typing', username: name, typing: true });

    // The room's key destroyed: its signals are dropped, and nothing new is stored for it.
    keyring.forget(ws);
    expect(await sealed.openSignal({ kind: 'left', workspaceId: ws, userId: 'u1', username: 'x' })).toBeNull();
    await expect(
      sealed.typing({
        workspaceId: ws,
        channelId: 'ch1',
        userId: 'u1',
        username: name,
        typing: false,
        audience: { kind: 'workspace' },
      }),
    ).rejects.toMatchObject({ code: 'WORKSPACE_NOT_FOUND' });
  });

  it('seals and opens each name once per room key, and still refuses a sealed name under another user', async () => {
    const ws = `ws-${randomUUID()}`;
    const key = RoomKey.generate(ws);
    const calls = { seal: 0, open: 0 };
    const seal = key.seal.bind(key);
    const open = key.open.bind(key);
    key.seal = (plain, aad) => {
      calls.seal += 1;
      return seal(plain, aad);
    };
    key.open = (sealedName, aad) => {
      calls.open += 1;
      return open(sealedName, aad);
    };
    const sealed = new SealedPresence(presence, new RoomKeyring(async (id) => (id === ws ? key : null)));
    const users = ['ann', 'bob', 'cy'].map((username, i) => ({
      id: `u${i}`,
      username,
      isAdmin: false,
      presenceStatus: 'online' as const,
    }));

    for (let round = 0; round < 4; round++) {
      for (const user of users) {
        const { online } = await sealed.connect({
          workspaceId: ws,
          user,
          connectionId: `c-${randomUUID()}`,
          gatewayId: 'g1',
        });
        expect(online.map((u) => u.username).sort()).toEqual(
          users
            .slice(0, round === 0 ? users.indexOf(user) + 1 : 3)
            .map((u) => u.username)
            .sort(),
        );
      }
      await sealed.typing({
        workspaceId: ws,
        channelId: 'ch1',
        userId: 'u0',
        username: 'ann',
        typing: round % 2 === 0,
        audience: { kind: 'workspace' },
      });
    }
    // 12 connects, 4 typing signals, 30 names listed: one seal per user, and nothing to open (this gateway sealed them)
    expect(calls).toEqual({ seal: 3, open: 0 });

    // A name sealed elsewhere is opened once; ann's sealed name under bob's id is refused, as without the cache.
    const bySomeoneElse = seal('dee', 'presence:u3:username');
    expect(
      await sealed.openSignal({ kind: 'left', workspaceId: ws, userId: 'u3', username: bySomeoneElse }),
    ).toMatchObject({ username: 'dee' });
    expect(
      await sealed.openSignal({ kind: 'left', workspaceId: ws, userId: 'u3', username: bySomeoneElse }),
    ).toMatchObject({ username: 'dee' });
    expect(calls.open).toBe(1);
    const annSealed = seal('ann', 'presence:u0:username');
    expect(await sealed.openSignal({ kind: 'left', workspaceId: ws, userId: 'u0', username: annSealed })).toMatchObject(
      { username: 'ann' },
    );
    await expect(
      sealed.openSignal({ kind: 'left', workspaceId: ws, userId: 'u1', username: annSealed }),
    ).rejects.toThrow();
  });
});
