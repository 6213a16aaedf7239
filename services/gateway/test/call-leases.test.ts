/**
 * Call deadlines are swept per deployment (EVENT_LOG_NAMESPACE): a replica of another deployment (or test stack)
 * on the same Redis must leave a call's lease alone, since it cannot end a call of a room it does not know; when it
 * took the lease anyway, the call never ended (a distributed test's unanswered call outlived its ring timeout).
 */
import { describe, expect, it } from 'vitest';
import { Server } from 'socket.io';
import { createLogger, RoomKeyring } from '@ephemera/platform';
import { MemoryEphemeralStore } from '@ephemera/platform/src/ephemeral/memory.ts';
import type { RoomApi } from '@ephemera/proto';
import { Calls } from '../src/calls.ts';

const ice = { stunUrls: [], turnUrls: [], turnCredentialTtlSeconds: 600 };

describe('call leases', () => {
  it('each namespace sweeps only its own expired leases', async () => {
    const store = new MemoryEphemeralStore();
    const make = (namespace?: string) =>
      new Calls(new Server(), {
        rooms: {} as RoomApi,
        store,
        keyring: new RoomKeyring(async () => null),
        logger: createLogger('calls-test', 'silent'),
        options: { ringTimeoutMs: 1000, ice, sweepMs: 50, namespace },
      });
    const expired = Date.now() - 1000;
    await store.zadd('a:call:leases', expired, 'channel-a|call-a');
    await store.zadd('call:leases', expired, 'channel-x|call-x');
    const b = make('b');
    await new Promise((r) => setTimeout(r, 300)); // several sweeps of b
    await b.stop();
    expect(await store.zrangeByScore('a:call:leases', 0)).toEqual([{ member: 'channel-a|call-a', score: expired }]);
    expect(await store.zrangeByScore('call:leases', 0)).toHaveLength(1);
    const a = make('a');
    await new Promise((r) => setTimeout(r, 300));
    await a.stop();
    expect(await store.zrangeByScore('a:call:leases', 0), 'its own deployment takes it').toEqual([]);
  });
});
