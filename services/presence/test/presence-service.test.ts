/**
 * PresenceService on both ephemeral adapters (Redis: distributed, memory: embedded): status kept per user per
 * room across connections, typing signals, and the sweep that stops the indicators of a typer whose gateway
 * vanished without saying stop. End-to-end behaviour through real sockets: test/suites/presence.suite.ts.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { LIMITS, PRESENCE_CHANNEL, type PresenceSignal } from '@ephemera/proto';
import { MemoryEphemeralStore, RedisEphemeralStore, type EphemeralStore } from '@ephemera/platform';
import { PresenceService } from '../src/presence-service.ts';

const adapters: [string, () => EphemeralStore][] = [
  ['memory', () => new MemoryEphemeralStore()],
  ['redis', () => new RedisEphemeralStore(inject('redisUrl'))],
];

for (const [name, makeStore] of adapters) {
  describe(`presence service (${name})`, () => {
    const open: EphemeralStore[] = [];
    afterEach(async () => { await Promise.all(open.splice(0).map((s) => s.close())); });

    async function setup() {
      const store = makeStore();
      open.push(store);
      let clock = Date.now();
      const presence = new PresenceService(store, { now: () => clock, typingSweepMs: 0 });
      const signals: PresenceSignal[] = [];
      const ws = `ws-${randomUUID()}`;
      // Other tests share the Redis channel: keep only this room's signals.
      await store.subscribe(PRESENCE_CHANNEL, (raw) => { const s = JSON.parse(raw) as PresenceSignal; if (s.workspaceId === ws) signals.push(s); });
      const user = (id: string) => ({ id, username: id, isAdmin: false, presenceStatus: 'online' as const });
      return { presence, signals, ws, user, advance: (ms: number) => { clock += ms; } };
    }

    it('heartbeat refreshes the connections it holds and names the ones the store lost (a Redis restart)', async () => {
      const { presence, ws, user } = await setup();
      await presence.connect({ workspaceId: ws, user: user('ann'), connectionId: `h1-${ws}`, gatewayId: 'g1' });
      const held = { workspaceId: ws, userId: 'ann', connectionId: `h1-${ws}` };
      const lost = { workspaceId: ws, userId: 'bob', connectionId: `h2-${ws}` }; // never stored: as after a restart
      expect(await presence.heartbeat({ gatewayId: 'g1', connections: [held, lost] })).toEqual({ missing: [`h2-${ws}`] });
      expect((await presence.online(ws)).map((u) => u.id)).toEqual(['ann']);
    });

    it('status belongs to the user: every connection shows it, a new tab keeps it, a later return starts online', async () => {
      const { presence, signals, ws, user } = await setup();
      await presence.connect({ workspaceId: ws, user: user('ann'), connectionId: `c1-${ws}`, gatewayId: 'g1' });
      await presence.connect({ workspaceId: ws, user: user('bob'), connectionId: `c2-${ws}`, gatewayId: 'g2' });
      await presence.setStatus({ workspaceId: ws, userId: 'ann', status: 'busy' });
      await expect.poll(() => signals.find((s) => s.kind === 'status')).toEqual({ kind: 'status', workspaceId: ws, userId: 'ann', status: 'busy' });
      const online = await presence.online(ws);
      expect(online.find((u) => u.id === 'ann')?.presenceStatus).toBe('busy');
      expect(online.find((u) => u.id === 'bob')?.presenceStatus).toBe('online');

      // A second tab of ann keeps busy, and the list it gets says so.
      const second = await presence.connect({ workspaceId: ws, user: user('ann'), connectionId: `c3-${ws}`, gatewayId: 'g2' });
      expect(second.firstConnection).toBe(false);
      expect(second.online.find((u) => u.id === 'ann')?.presenceStatus).toBe('busy');

      // Both tabs go: the next visit is online again.
      await presence.disconnect({ workspaceId: ws, userId: 'ann', connectionId: `c1-${ws}` });
      await presence.disconnect({ workspaceId: ws, userId: 'ann', connectionId: `c3-${ws}` });
      const back = await presence.connect({ workspaceId: ws, user: user('ann'), connectionId: `c4-${ws}`, gatewayId: 'g1' });
      expect(back.online.find((u) => u.id === 'ann')?.presenceStatus).toBe('online');

      await presence.setStatus({ workspaceId: ws, userId: 'ann', status: 'away' });
      await presence.setStatus({ workspaceId: ws, userId: 'ann', status: 'online' });
      expect((await presence.online(ws)).find((u) => u.id === 'ann')?.presenceStatus).toBe('online');
    });

    it('typing: start and refresh signal, one stop is announced once, an unrefreshed indicator is swept once', async () => {
      const { presence, signals, ws, advance } = await setup();
      const base = { workspaceId: ws, channelId: 'ch1', userId: 'ann', username: 'ann', audience: { kind: 'workspace' as const } };
      await presence.typing({ ...base, typing: true });
      await presence.typing({ ...base, typing: true }); // refresh
      await presence.typing({ ...base, typing: false });
      await presence.typing({ ...base, typing: false }); // a second stop says nothing
      await expect.poll(() => signals.length).toBe(3);
      await new Promise((r) => setTimeout(r, 50));
      expect(signals.map((s) => s.kind === 'typing' && s.typing)).toEqual([true, true, false]);

      // A typer whose gateway crashed: nobody says stop. Before the expiry the sweep leaves it alone...
      await presence.typing({ ...base, channelId: 'ch2', typing: true });
      await presence.typing({ ...base, channelId: 'ch3', userId: 'bob', username: 'bob', audience: { kind: 'users', userIds: ['bob', 'cy'] }, typing: true });
      advance(LIMITS.typingExpireMs - 100);
      expect(await presence.sweepTyping()).toBe(0);
      // ...a refresh moves one expiry on; after the other's expiry it alone is stopped, with its audience.
      await presence.typing({ ...base, channelId: 'ch2', typing: true });
      advance(200);
      await presence.sweepTyping();
      await expect.poll(() => signals.length).toBe(7);
      expect(signals.at(-1)).toEqual({ ...base, channelId: 'ch3', userId: 'bob', username: 'bob', audience: { kind: 'users', userIds: ['bob', 'cy'] }, typing: false, kind: 'typing' });
      advance(LIMITS.typingExpireMs);
      await presence.sweepTyping();
      await expect.poll(() => signals.length).toBe(8);
      expect(signals.at(-1)).toMatchObject({ kind: 'typing', channelId: 'ch2', userId: 'ann', typing: false });
      expect(await presence.sweepTyping()).toBe(0);
    });
  });
}
