/**
 * A join (authenticate) reuses the room's opened member list while the room's lastSeq stays the same
 * (repository.ts membersAt): a second join of the same room reads no member list, and every change of the room's
 * members (a profile change, a new member, a member leaving) is seen by the next join. Without the cache every join
 * reads the list (this test then fails).
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { SessionActor } from '@ephemera/proto';
import { startRoomWorld } from '../../../test/helpers/room-world.ts';
import { queryCounts } from '../../../test/helpers/query-counts.ts';

describe('the member list of a join', async () => {
  // count the member-list reads (repository.membersAt) on the pool the room module uses
  const reads = queryCounts({ list: /FROM room\.members WHERE workspace_id = \$1 ORDER BY joined_at/ });
  const world = await startRoomWorld({ onPool: reads.watch });
  const { room } = world;
  afterAll(() => world.stop());

  it('is read once while nothing changes, and again after each change of the members', async () => {
    const created = await room.service.createWorkspace({ name: `cache-${Date.now().toString(36)}`, username: 'owner' });
    const ws = created.workspaceId;
    const joined = await room.service.joinWorkspace(ws, { username: 'alice' });
    const alice: SessionActor = { workspaceId: ws, userId: joined.user.id, username: 'alice' };
    const join = async () =>
      (
        await room.service.authenticate({ workspaceId: ws, userToken: created.userToken, username: 'owner' })
      ).workspace.users
        .map((u) => u.username)
        .sort();

    const before = reads.counts.list;
    expect(await join()).toEqual(['alice', 'owner']);
    expect(await join()).toEqual(['alice', 'owner']);
    expect(await join()).toEqual(['alice', 'owner']);
    expect(reads.counts.list - before).toBe(1);

    await room.service.updateProfile(alice, { workspaceId: ws, username: 'alicia' });
    expect(await join()).toEqual(['alicia', 'owner']);
    const bob = await room.service.joinWorkspace(ws, { username: 'bob' });
    expect(await join()).toEqual(['alicia', 'bob', 'owner']);
    await room.service.leaveWorkspace({ workspaceId: ws, userId: bob.user.id, username: 'bob' });
    expect(await join()).toEqual(['alicia', 'owner']);
    expect(await join()).toEqual(['alicia', 'owner']);
    expect(reads.counts.list - before).toBe(4);
  });

  it("names the token's member from the list, and refuses a left, kicked or unknown token", async () => {
    const created = await room.service.createWorkspace({
      name: `tokens-${Date.now().toString(36)}`,
      username: 'owner',
    });
    const ws = created.workspaceId;
    const owner: SessionActor = { workspaceId: ws, userId: created.user.id, username: 'owner' };
    const [dana, eve, finn] = await Promise.all(
      ['dana', 'eve', 'finn'].map((username) => room.service.joinWorkspace(ws, { username })),
    );
    const as = (j: { userToken: string }, username: string) =>
      room.service.authenticate({ workspaceId: ws, userToken: j.userToken, username });
    expect((await as(dana!, 'dana')).user.username).toBe('dana');
    expect((await as(eve!, 'eve')).user.username).toBe('eve'); // the same list: each token names its own member
    await room.service.kickUser(owner, { workspaceId: ws, userId: eve!.user.id });
    await expect(as(eve!, 'eve')).rejects.toMatchObject({ code: 'KICKED' });
    await room.service.leaveWorkspace({ workspaceId: ws, userId: finn!.user.id, username: 'finn' });
    await expect(as(finn!, 'finn')).rejects.toMatchObject({ code: 'NOT_AUTHENTICATED' });
    await expect(as({ userToken: 'x'.repeat(43) }, 'dana')).rejects.toMatchObject({ code: 'NOT_AUTHENTICATED' });
    expect((await as(dana!, 'dana')).workspace.users.map((u) => u.username).sort()).toEqual(['dana', 'owner']);
  });
});
