/**
 * A join (authenticate) reuses the room's opened member list while the room's lastSeq stays the same
 * (repository.ts membersAt): a second join of the same room reads no member list, and every change of the room's
 * members (a profile change, a new member, a member leaving) is seen by the next join. Over new members only
 * (AppliedJoins: the joins this process applied) the kept list gains their rows alone, so a room filling up does not
 * read its whole list once per newcomer. Without the cache every join reads the list; without the advance every
 * newcomer's join reads it (this test then fails).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { AppliedJoins } from '../src/at-seq-cache.ts';
import type { SessionActor } from '@ephemera/proto';
import { startRoomWorld } from '../../../test/helpers/room-world.ts';
import { queryCounts } from '../../../test/helpers/query-counts.ts';

describe('the member list of a join', async () => {
  // count the member-list reads (repository.membersAt) on the pool the room module uses
  const reads = queryCounts({
    list: /FROM room\.members WHERE workspace_id = \$1 ORDER BY joined_at/,
    newcomers: /FROM room\.members WHERE workspace_id = \$1 AND user_id = ANY\(\$2\) ORDER BY joined_at/,
  });
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
    expect(reads.counts.list - before).toBe(3); // the first, after the profile change, after the departure
  });

  it('gains only the rows of members who joined since, and reads the whole list after anything else', async () => {
    const created = await room.service.createWorkspace({ name: `fill-${Date.now().toString(36)}`, username: 'owner' });
    const ws = created.workspaceId;
    const owner: SessionActor = { workspaceId: ws, userId: created.user.id, username: 'owner' };
    await room.service.changeTier({ workspaceId: ws, tier: 'business', reason: 'upgrade' }); // no member cap
    const as = async (j: { userToken: string }, username: string) =>
      (await room.service.authenticate({ workspaceId: ws, userToken: j.userToken, username })).workspace.users.map(
        (u) => u.username,
      );
    expect(await as(created, 'owner')).toEqual(['owner']);
    const before = { ...reads.counts };
    const names = ['n1', 'n2', 'n3', 'n4', 'n5'];
    for (const name of names) {
      const j = await room.service.joinWorkspace(ws, { username: name });
      expect(await as(j, name)).toEqual(['owner', ...names.slice(0, names.indexOf(name) + 1)]); // in joining order
    }
    expect(reads.counts.list - before.list).toBe(0);
    expect(reads.counts.newcomers - before.newcomers).toBe(5);
    // three joins, then one read: one read of the three rows
    const three = await Promise.all(['m1', 'm2', 'm3'].map((username) => room.service.joinWorkspace(ws, { username })));
    expect((await as(three[2]!, 'm3')).slice(6).sort()).toEqual(['m1', 'm2', 'm3']);
    expect(reads.counts.newcomers - before.newcomers).toBe(6);
    // a kick is not a join: the whole list again, without the kicked member
    await room.service.kickUser(owner, { workspaceId: ws, userId: three[0]!.user.id });
    expect(await as(created, 'owner')).not.toContain('m1');
    expect(reads.counts.list - before.list).toBe(1);
  });

  it('advances only over numbers that are all noted joins', () => {
    const joins = new AppliedJoins(10);
    joins.note('r', 4, 'u4');
    joins.note('r', 5, 'u5');
    joins.note('r', 7, 'u7');
    expect(joins.between('r', 3, 5)).toEqual(['u4', 'u5']);
    expect(joins.between('r', 5, 7)).toBeNull(); // 6 was not a join this process applied
    expect(joins.between('other', 3, 4)).toBeNull();
    expect(joins.between('r', 6, 7)).toEqual(['u7']);
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
