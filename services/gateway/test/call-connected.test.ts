/**
 * An answered call is the one durable fact of a call: the gateway records call.connected (the superadmin's video-call
 * figure) in the event log when the callee accepts, and nothing while it only rings or is rejected.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Server } from 'socket.io';
import type { GatewaySocket } from '../src/socket-types.ts';
import { TOPICS, type AnyEventEnvelope, type RoomApi } from '@ephemera/proto';
import { EmbeddedEventLog, RoomKey, RoomKeyring, createLogger, createPool, newId } from '@ephemera/platform';
import { MemoryEphemeralStore } from '@ephemera/platform/src/ephemeral/memory.ts';
import { createTestDatabase } from '../../../test/helpers/db.ts';
import { Calls } from '../src/calls.ts';

const ice = { stunUrls: [], turnUrls: [], turnCredentialTtlSeconds: 600 };

describe('call.connected', async () => {
  const pool = createPool(await createTestDatabase(), 4);
  const log = new EmbeddedEventLog(pool);
  await log.init(Object.values(TOPICS));
  afterAll(async () => {
    await log.close();
    await pool.end();
  });

  it('is recorded once when a call is answered, with the call type, and not for a call that only rang', async () => {
    const workspaceId = newId();
    const key = RoomKey.generate(workspaceId);
    // the room service decides who may call whom; here every call is allowed (that decision is tested with the room)
    const rooms = {
      authorizeCall: async () => ({ workspaceId, channelId: 'dm', memberIds: ['alice', 'bob'] }),
    } as unknown as RoomApi;
    const calls = new Calls(new Server(), {
      rooms,
      store: new MemoryEphemeralStore(),
      keyring: new RoomKeyring(async () => key),
      logger: createLogger('calls-test', 'silent'),
      log,
      options: { ringTimeoutMs: 10_000, ice, sweepMs: 1000 },
    });
    const seen: AnyEventEnvelope[] = [];
    const sub = await log.subscribe({
      groupId: `calls-test-${newId()}`,
      topics: [TOPICS.room],
      fromBeginning: true,
      handler: async ({ event }) => {
        seen.push(event);
      },
    });
    const socket = (id: string) => ({ id, data: {} }) as unknown as GatewaySocket;
    const alice = { workspaceId, userId: 'alice', username: 'alice' };
    const bob = { workspaceId, userId: 'bob', username: 'bob' };

    await calls.startCall(socket('s-alice'), alice, { channelId: 'dm', targetUserId: 'bob', callType: 'video' });
    await sub.caughtUp();
    expect(seen.filter((e) => e.type === 'call.connected')).toHaveLength(0); // ringing is not a fact
    await calls.acceptCall(socket('s-bob'), bob, { channelId: 'dm', callerId: 'alice' });
    await expect(calls.acceptCall(socket('s-bob2'), bob, { channelId: 'dm', callerId: 'alice' })).rejects.toThrow(); // answered once
    // recorded after the ack (not awaited by it): wait for it to arrive
    await expect.poll(() => seen.filter((e) => e.type === 'call.connected').length, { timeout: 10_000 }).toBe(1);
    await sub.caughtUp();
    const connected = seen.filter((e) => e.type === 'call.connected');
    expect(connected).toHaveLength(1);
    expect(connected[0]!.payload).toMatchObject({ workspaceId, channelId: 'dm', callType: 'video' });
    expect(connected[0]!.actor).toEqual({ kind: 'user', userId: 'bob' });
    await calls.endCall(socket('s-alice'), alice, { channelId: 'dm' });
    await sub.stop();
    await calls.stop();
  });
});
