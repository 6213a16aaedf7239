/**
 * Channel names at rest (docs/crypto.md): the room read model holds a channel's name sealed under the room's key and
 * compares topic names by a keyed hash, so no row says what a room's channels are called once its key is gone.
 * Rows stored in plain text before are sealed at start, and uniqueness holds across both while that runs.
 */
import { describe, it, expect, afterAll } from 'vitest';
import type { SessionActor } from '@ephemera/proto';
import { startRoomWorld } from '../../../test/helpers/room-world.ts';
import { sealChannelNames } from '../src/name-rehash.ts';

describe('sealed channel names', async () => {
  const world = await startRoomWorld();
  const { room, pool } = world;
  afterAll(() => world.stop());
  const newRoom = async () => {
    const created = await room.service.createWorkspace({
      name: `chn-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
      username: 'alice',
    });
    const actor: SessionActor = { workspaceId: created.workspaceId, userId: created.user.id, username: 'alice' };
    return actor;
  };
  const stored = async (channelId: string) =>
    (await pool.query('SELECT name, name_key, name_sealed FROM room.channels WHERE id = $1', [channelId])).rows[0];

  it('a created or renamed channel is stored sealed; members see its name; a topic name stays unique whatever its case', async () => {
    const owner = await newRoom();
    const ch = await room.service.createChannel(owner, {
      workspaceId: owner.workspaceId,
      name: 'Secret-Plans',
      type: 'topic',
      isPrivate: false,
      memberIds: [],
    });
    const row = await stored(ch.id);
    expect(row.name_sealed).toBe(true);
    expect(`${row.name} ${row.name_key}`.toLowerCase()).not.toContain('secret-plans');
    expect((await room.service.repo.channelById(owner.workspaceId, ch.id))?.name).toBe('Secret-Plans');
    await expect(
      room.service.createChannel(owner, {
        workspaceId: owner.workspaceId,
        name: 'secret-PLANS',
        type: 'topic',
        isPrivate: false,
        memberIds: [],
      }),
    ).rejects.toMatchObject({ code: 'CHANNEL_NAME_TAKEN' });
    await room.service.renameChannel(owner, {
      workspaceId: owner.workspaceId,
      channelId: ch.id,
      newName: 'Other-Plans',
    });
    const renamed = await stored(ch.id);
    expect(`${renamed.name} ${renamed.name_key}`.toLowerCase()).not.toContain('other-plans');
    expect((await room.service.repo.channelById(owner.workspaceId, ch.id))?.name).toBe('Other-Plans');
  });

  it('a name stored in plain text before is sealed at start, and is taken before and after', async () => {
    const owner = await newRoom();
    const ch = await room.service.createChannel(owner, {
      workspaceId: owner.workspaceId,
      name: 'legacy',
      type: 'topic',
      isPrivate: false,
      memberIds: [],
    });
    await pool.query(
      "UPDATE room.channels SET name = 'Legacy', name_key = 'legacy', name_sealed = false WHERE id = $1",
      [ch.id],
    );
    await expect(
      room.service.createChannel(owner, {
        workspaceId: owner.workspaceId,
        name: 'LEGACY',
        type: 'topic',
        isPrivate: false,
        memberIds: [],
      }),
    ).rejects.toMatchObject({ code: 'CHANNEL_NAME_TAKEN' });
    expect(await sealChannelNames(pool, world.keys.keyring)).toBeGreaterThanOrEqual(1);
    const row = await stored(ch.id);
    expect(row.name_sealed).toBe(true);
    expect(row.name).not.toBe('Legacy');
    expect((await room.service.repo.channelById(owner.workspaceId, ch.id))?.name).toBe('Legacy');
    await expect(
      room.service.createChannel(owner, {
        workspaceId: owner.workspaceId,
        name: 'legacy',
        type: 'topic',
        isPrivate: false,
        memberIds: [],
      }),
    ).rejects.toMatchObject({ code: 'CHANNEL_NAME_TAKEN' });
  });
});
