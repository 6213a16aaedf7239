/**
 * The online list by pages (docs/protocol.md P22) on both ephemeral adapters: connect answers the first page and the
 * count, onlinePage the pages after it in id order, every live user once; a user whose connections all expired
 * without a disconnect (a crashed gateway's) is dropped where a page meets it, and the count with it.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { sharedInfra } from '../../../test/helpers/infra.ts';
import { MemoryEphemeralStore, RedisEphemeralStore, type EphemeralStore } from '@ephemera/platform';
import { CONNECTION_TTL_MS, PresenceService } from '../src/presence-service.ts';

const adapters: [string, () => EphemeralStore][] = [
  ['memory', () => new MemoryEphemeralStore()],
  ['redis', () => new RedisEphemeralStore(sharedInfra('redisUrl'))],
];

for (const [name, makeStore] of adapters) {
  describe(`presence pages (${name})`, () => {
    const open: EphemeralStore[] = [];
    afterEach(async () => {
      await Promise.all(open.splice(0).map((s) => s.close()));
    });

    async function room(users: string[]) {
      const store = makeStore();
      open.push(store);
      let clock = Date.now();
      const presence = new PresenceService(store, { now: () => clock, typingSweepMs: 0 });
      const ws = `ws-${randomUUID()}`;
      const user = (id: string) => ({ id, username: `n-${id}`, isAdmin: false, presenceStatus: 'online' as const });
      for (const id of users)
        await presence.connect({ workspaceId: ws, user: user(id), connectionId: `c-${id}`, gatewayId: 'g1' });
      return {
        presence,
        ws,
        user,
        advance: (ms: number) => {
          clock += ms;
        },
      };
    }
    const names = (n: number) => Array.from({ length: n }, (_, i) => `u${String(i).padStart(2, '0')}`);

    it('connect answers the first page and the count; the pages after it hold every user once, in id order', async () => {
      const { presence, ws, user } = await room(names(9));
      const joined = await presence.connect({
        workspaceId: ws,
        user: user('u99'),
        connectionId: 'c-99',
        gatewayId: 'g1',
        firstPage: 4,
      });
      expect(joined.online.map((u) => u.id)).toEqual(['u00', 'u01', 'u02', 'u03']);
      expect(joined.onlineCount).toBe(10);
      expect(joined.next).toBe('u03');
      const seen = [...joined.online.map((u) => u.id)];
      let after = joined.next;
      while (after !== null) {
        const page = await presence.onlinePage({ workspaceId: ws, after, limit: 4 });
        expect(page.onlineCount).toBe(10);
        seen.push(...page.users.map((u) => u.id));
        after = page.next;
      }
      expect(seen).toEqual([...names(9), 'u99']);
    });

    it('a room within one page: the whole list, an exact count and no next page', async () => {
      const { presence, ws } = await room(names(3));
      expect(await presence.onlinePage({ workspaceId: ws, after: null, limit: 100 })).toEqual({
        users: names(3).map((id) => expect.objectContaining({ id })),
        next: null,
        onlineCount: 3,
      });
    });

    it('users whose connections expired without a disconnect are dropped where a page meets them, and from the count', async () => {
      const { presence, ws, user, advance } = await room(names(4));
      advance(CONNECTION_TTL_MS + 1); // every connection so far lapses (their gateway crashed)
      for (const id of ['u10', 'u11'])
        await presence.connect({ workspaceId: ws, user: user(id), connectionId: `c-${id}`, gatewayId: 'g2' });
      const first = await presence.onlinePage({ workspaceId: ws, after: null, limit: 1 });
      expect(first.users.map((u) => u.id)).toEqual(['u10']); // u00..u03 were met and dropped on the way
      expect(first.onlineCount).toBe(2);
      const second = await presence.onlinePage({ workspaceId: ws, after: first.next, limit: 1 });
      expect(second.users.map((u) => u.id)).toEqual(['u11']);
      expect(second.next).toBeNull();
    });
  });
}
