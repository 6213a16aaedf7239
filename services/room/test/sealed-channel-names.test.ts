/**
 * Channel names at rest (docs/crypto.md): the room read model holds a channel's name sealed under the room's key and
 * compares topic names by a keyed hash, so no row says what a room's channels are called once its key is gone.
 * Rows stored in plain text before are sealed at start, and uniqueness holds across both while that runs.
 */
import { describe, it, expect, afterAll } from 'vitest';
import type { SessionActor } from '@ephemera/proto';
import { startRoomWorld } from '../../../test/helpers/room-world.ts';
import { createLogger } from '@ephemera/platform';
import { startMessagingModule } from '../../messaging/src/index.ts';
import { openChannelName as openMessagingChannelName } from '../../messaging/src/channel-names.ts';
import { rehashChannelNames, sealChannelNames } from '../src/name-rehash.ts';
import { CHANNEL_NAME_PURPOSE, CHANNEL_NAME_PURPOSE_V1, channelNameHashV1 } from '../src/member-crypto.ts';

describe('sealed channel names', async () => {
  const world = await startRoomWorld();
  const { room, pool } = world;
  // messaging keeps its own sealed copy of each channel's name (the moderation viewer's): the skeleton is not in it
  const messaging = await startMessagingModule({
    databaseUrl: world.databaseUrl,
    pool,
    log: world.log,
    logger: createLogger('test', 'silent'),
    logSharesDatabase: true,
    keyring: world.keys.keyring,
  });
  world.stopFirst(() => messaging.stop());
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
    (
      await pool.query('SELECT name, name_key, name_key_purpose, name_sealed FROM room.channels WHERE id = $1', [
        channelId,
      ])
    ).rows[0];
  const topic = (owner: SessionActor, name: string) =>
    room.service.createChannel(owner, {
      workspaceId: owner.workspaceId,
      name,
      type: 'topic',
      isPrivate: false,
      memberIds: [],
    });

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

  it('names compare by their confusable skeleton; a name hashed under the earlier purpose is hashed again at start', async () => {
    const owner = await newRoom();
    const lookalike = 'g\u0435neral'; // a Cyrillic е
    const ch = await topic(owner, 'general');
    expect((await stored(ch.id)).name_key_purpose).toBe(CHANNEL_NAME_PURPOSE);
    await expect(topic(owner, lookalike)).rejects.toMatchObject({ code: 'CHANNEL_NAME_TAKEN' });
    await expect(topic(owner, 'GENERAL')).rejects.toMatchObject({ code: 'CHANNEL_NAME_TAKEN' });

    // as a row written before the skeleton holds it: the keyed hash of the lower case, under the earlier purpose
    const key = (await world.keys.keyring.key(owner.workspaceId))!;
    await pool.query('UPDATE room.channels SET name_key = $2, name_key_purpose = $3 WHERE id = $1', [
      ch.id,
      channelNameHashV1(key, 'general'),
      CHANNEL_NAME_PURPOSE_V1,
    ]);
    await expect(topic(owner, 'General')).rejects.toMatchObject({ code: 'CHANNEL_NAME_TAKEN' });
    expect(await rehashChannelNames(pool, world.keys.keyring)).toBeGreaterThanOrEqual(1);
    const row = await stored(ch.id);
    expect(row.name_key_purpose).toBe(CHANNEL_NAME_PURPOSE);
    await expect(topic(owner, lookalike)).rejects.toMatchObject({ code: 'CHANNEL_NAME_TAKEN' });
    expect((await room.service.repo.channelById(owner.workspaceId, ch.id))?.name).toBe('general');

    // The names stay as typed: a look-alike renamed in is kept as such, in room's and in messaging's sealed copy.
    await room.service.renameChannel(owner, { workspaceId: owner.workspaceId, channelId: ch.id, newName: lookalike });
    expect((await room.service.repo.channelById(owner.workspaceId, ch.id))?.name).toBe(lookalike);
    await expect
      .poll(async () => {
        const { rows } = await pool.query('SELECT sealed_name FROM messaging.channels WHERE id = $1', [ch.id]);
        return rows[0] ? openMessagingChannelName(key, ch.id, rows[0].sealed_name) : null;
      })
      .toBe(lookalike);
  });
});
