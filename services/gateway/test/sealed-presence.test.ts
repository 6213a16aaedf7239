/**
 * Presence under the room key (docs/crypto.md): through the gateway's SealedPresence, the presence store in Redis
 * holds no username in the clear (connection entries, typing details, every key under presence:), while the
 * gateway still gets the online list and the signals with the names opened. A signal of a room whose key is gone
 * is dropped.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { Redis } from 'ioredis';
import { PRESENCE_CHANNEL, type PresenceSignal } from '@ephemera/proto';
import { RedisEphemeralStore, RoomKey, RoomKeyring } from '@ephemera/platform';
import { PresenceService } from '@ephemera/presence';
import { SealedPresence } from '../src/sealed-presence.ts';

describe('presence through the gateway holds sealed names only', () => {
  const store = new RedisEphemeralStore(inject('redisUrl'));
  const raw = new Redis(inject('redisUrl'));
  const presence = new PresenceService(store, { typingSweepMs: 0 });
  afterAll(async () => { presence.stop(); await store.close(); raw.disconnect(); });

  /** every value under presence:* in Redis, as text */
  async function presenceBytes(): Promise<string> {
    const parts: string[] = [];
    for (const key of await raw.keys('presence:*')) {
      const type = await raw.type(key);
      if (type === 'string') parts.push((await raw.get(key)) ?? '');
      else if (type === 'zset') parts.push(...(await raw.zrange(key, '0', '-1')));
      else if (type === 'hash') parts.push(JSON.stringify(await raw.hgetall(key)));
    }
    return parts.join('\n');
  }

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

    const stored = await presenceBytes();
    expect(stored).toContain(ws); // the room's entries are there...
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
