/**
 * Durability of the distributed mode (docs/protocol.md P2, P3): mid-conversation the messaging service and the
 * gateway replica of one user are killed with SIGKILL and started again. Every acknowledged message reaches every
 * member exactly once after client dedupe, in per-room sequence order, with a gap-free sequence.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { C } from '@ephemera/proto';
import { createRoom, joinRoom, socketJoin, request } from '../helpers/clients.ts';
import { ResilientClient } from '../helpers/resilient-client.ts';
import { startDistributedStack, ChildService } from '../distributed/stack.ts';

let stack: Awaited<ReturnType<typeof startDistributedStack>>;
beforeAll(async () => {
  stack = await startDistributedStack({ messagingProcess: true });
});
afterAll(async () => {
  await stack?.stop();
});

describe('distributed crash and restart', () => {
  it('P2/P3 killing messaging and a gateway replica loses and duplicates no acknowledged message', async () => {
    const room = await createRoom(stack.urlA, undefined, 'alice');
    const bobJoin = await joinRoom(stack.urlB, room.workspaceId, 'bob');
    const owner = await socketJoin(stack.urlA, room.workspaceId, 'alice', room.userToken);
    const created = await request(owner.socket, C.createChannel, {
      workspaceId: room.workspaceId,
      name: 'general',
      type: 'topic',
      isPrivate: false,
    });
    if (!created.success) throw new Error(created.message);
    owner.socket.close();
    const channelId = created.channel.id;

    const alice = new ResilientClient(stack.urlA, {
      workspaceId: room.workspaceId,
      username: 'alice',
      userToken: room.userToken,
    });
    const bob = new ResilientClient(stack.urlB, {
      workspaceId: room.workspaceId,
      username: 'bob',
      userToken: bobJoin.userToken,
    });
    await Promise.all([alice.waitJoined(), bob.waitJoined()]);

    const messaging = stack.messaging as ChildService;
    const acked: Promise<{ id: string; seq: number }>[] = [];
    for (let i = 0; i < 60; i++) {
      acked.push((i % 2 ? bob : alice).send(channelId, `msg ${i}`));
      if (i === 20) {
        await messaging.kill('SIGKILL');
        await messaging.start();
      }
      if (i === 40) {
        await stack.gateway2.kill('SIGKILL');
        await stack.gateway2.start();
      }
      await new Promise((r) => setTimeout(r, 15));
    }
    const stored = await Promise.all(acked);
    await Promise.all([alice.waitJoined(), bob.waitJoined()]);
    await Promise.all([alice.sync(), bob.sync()]);

    const seqs = stored.map((m) => m.seq).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    for (const client of [alice, bob]) {
      const contents = [...client.seen.values()].sort((a, b) => a.seq - b.seq).map((m) => m.content);
      expect(contents).toHaveLength(60);
      expect(new Set(contents).size).toBe(60);
      for (const m of stored) expect(client.seen.has(m.id)).toBe(true);
    }
    alice.close();
    bob.close();
  });
});
