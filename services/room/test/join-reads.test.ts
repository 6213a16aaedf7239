/**
 * What a join (authenticate) reads: the room's channel list is reused while the room's lastSeq stays the same
 * (repository.ts channelsAt), and joins of one burst share one read of the room's row (workspaceById) and one of
 * each list. Every change of the channels a member sees (a channel created, made private, renamed or deleted, a DM
 * hidden and reopened) is seen by the next join, and a newcomer's join alone reads none again. Without the channel cache every join reads the channels; without
 * the shared row read every join of the burst reads the row (this test then fails).
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { SessionActor } from '@ephemera/proto';
import { startRoomWorld } from '../../../test/helpers/room-world.ts';
import { queryCounts } from '../../../test/helpers/query-counts.ts';

describe('the reads of a join', async () => {
  const { counts: reads, watch } = queryCounts({
    row: /FROM room\.workspaces WHERE id = \$1$/,
    channels: /FROM room\.channels c WHERE c\.workspace_id = \$1 ORDER BY/,
    members: /FROM room\.members WHERE workspace_id = \$1 ORDER BY joined_at/,
  });
  const world = await startRoomWorld({ onPool: watch });
  const { room } = world;
  afterAll(() => world.stop());

  it("a burst of joins reads the room's row, members and channels once", async () => {
    const created = await room.service.createWorkspace({ name: `burst-${Date.now().toString(36)}`, username: 'owner' });
    const ws = created.workspaceId;
    const owner: SessionActor = { workspaceId: ws, userId: created.user.id, username: 'owner' };
    await room.service.createChannel(owner, {
      workspaceId: ws,
      name: 'lobby',
      type: 'topic',
      isPrivate: false,
      memberIds: [],
    });
    const before = { ...reads };
    const joins = await Promise.all(
      Array.from({ length: 20 }, () =>
        room.service.authenticate({ workspaceId: ws, userToken: created.userToken, username: 'owner' }),
      ),
    );
    expect(joins.every((j) => j.user.username === 'owner' && j.workspace.channels.length === 1)).toBe(true);
    expect(reads.row - before.row).toBe(1);
    expect(reads.members - before.members).toBe(1);
    expect(reads.channels - before.channels).toBe(1);
  });

  it('sees every change of the channels a member sees, and reads them again only after a change', async () => {
    const created = await room.service.createWorkspace({ name: `chan-${Date.now().toString(36)}`, username: 'owner' });
    const ws = created.workspaceId;
    const owner: SessionActor = { workspaceId: ws, userId: created.user.id, username: 'owner' };
    const ann = await room.service.joinWorkspace(ws, { username: 'ann' });
    const annActor: SessionActor = { workspaceId: ws, userId: ann.user.id, username: 'ann' };
    const annSees = async () =>
      (
        await room.service.authenticate({ workspaceId: ws, userToken: ann.userToken, username: 'ann' })
      ).workspace.channels
        .map((c) => (c.type === 'dm' ? 'dm' : c.name))
        .sort();

    const before = reads.channels;
    expect(await annSees()).toEqual([]);
    expect(await annSees()).toEqual([]);
    expect(reads.channels - before).toBe(1); // the first read them (her join moved lastSeq), the second reused them
    const bo = await room.service.joinWorkspace(ws, { username: 'bo' });
    await room.service.authenticate({ workspaceId: ws, userToken: bo.userToken, username: 'bo' });
    expect(reads.channels - before).toBe(1); // a join changes no channel: the kept list advanced over it

    const team = await room.service.createChannel(owner, {
      workspaceId: ws,
      name: 'team',
      type: 'topic',
      isPrivate: false,
      memberIds: [],
    });
    expect(await annSees()).toEqual(['team']);
    const secret = await room.service.createChannel(owner, {
      workspaceId: ws,
      name: 'secret',
      type: 'topic',
      isPrivate: true,
      memberIds: [],
    });
    expect(await annSees()).toEqual(['team']); // private, and she is not in it
    await room.service.updateChannelMembers(owner, {
      workspaceId: ws,
      channelId: secret.id,
      add: [ann.user.id],
      remove: [],
    });
    expect(await annSees()).toEqual(['secret', 'team']);
    await room.service.renameChannel(owner, { workspaceId: ws, channelId: team.id, newName: 'crew' });
    expect(await annSees()).toEqual(['crew', 'secret']);
    await room.service.deleteChannel(owner, { workspaceId: ws, channelId: team.id });
    expect(await annSees()).toEqual(['secret']);

    const dm = await room.service.createDmChannel(owner, { workspaceId: ws, targetUserId: ann.user.id });
    expect(await annSees()).toEqual(['dm', 'secret']);
    await room.service.deleteDm(annActor, { workspaceId: ws, channelId: dm.id, userId: ann.user.id }); // hidden for her
    expect(await annSees()).toEqual(['secret']);
    await room.service.createDmChannel(annActor, { workspaceId: ws, targetUserId: owner.userId }); // reopened
    expect(await annSees()).toEqual(['dm', 'secret']);
  });
});
