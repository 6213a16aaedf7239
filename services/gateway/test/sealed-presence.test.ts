/**
 * Presence under the room key (docs/crypto.md): through the gateway's SealedPresence, nothing the presence service
 * writes to Redis (keys and values of connection entries, typing details, statuses, signals) holds a username in
 * the clear, while the gateway still gets the online list and the signals with the names opened. A signal of a
 * room whose key is gone is dropped.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { PRESENCE_CHANNEL, type PresenceSignal } from '@ephemera/proto';
import { RedisEphemeralStore, RoomKey, RoomKeyring, type EphemeralStore } from '@ephemera/platform';
import { PresenceService } from '@ephemera/presence';
import { SealedPresence } from '../src/sealed-presence.ts';

describe('presence through the gateway holds sealed names only', () => {
  const store = new RedisEphemeralStore(inject('redisUrl'));
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
  afterAll(async () => { presence.stop(); await store.close(); });

  it('seals names on the way in, opens them on the way out', async () => {
    const ws = `ws-${randomUUID()}`;
    const name = `canary${randomBytes(6).toString('hex')}`;
    const keyring = new RoomKeyring(async (id) => (id === ws ? RoomKey.generate(ws) : null));
    const sealed = new SealedPresence(presence, keyring);
    const signals: PresenceSignal[] = [];
    await store.subscribe(PRESENCE_CHANNEL, (text) => {
      const s = JSON.parse(text) as PresenceSignal;
      if (s.workspaceId === ws) void sealed.openSignal(s).then((o) => { if (o) signals.push(o); });
    });

    const user = { id: 'u1', username: name, isAdmin: false, presenceStatus: 'online' as const };
    const { online } = await sealed.connect({ workspaceId: ws, user, connectionId: `c-${randomUUID()}`, gatewayId: 'g1' });
    expect(online).toEqual([user]);
    expect(await sealed.online(ws)).toEqual([user]);
    await sealed.typing({ workspaceId: ws, channelId: 'ch1', userId: 'u1', username: name, typing: true, audience: { kind: 'workspace' } });

    const stored = written.join('\n');
    expect(stored).toContain(ws); // the room's entries were written...
    expect(stored).not.toContain(name); // ...without the name
    await expect.poll(() => signals.map((s) => s.kind)).toEqual(['joined', 'typing']);
    expect(signals[0]).toMatchObject({ kind: 'joined', user: { username: name } });
    expect(signals[1]).toMatchObject({ kind: 'typing', username: name, typing: true });

    // The room's key destroyed: its signals are dropped, and nothing new is stored for it.
    keyring.forget(ws);
    expect(await sealed.openSignal({ kind: 'left', workspaceId: ws, userId: 'u1', username: 'x' })).toBeNull();
    await expect(sealed.typing({ workspaceId: ws, channelId: 'ch1', userId: 'u1', username: name, typing: false, audience: { kind: 'workspace' } }))
      .rejects.toMatchObject({ code: 'WORKSPACE_NOT_FOUND' });
  });
});
