/**
 * Usernames that render alike are one name (UTS #39 confusable skeleton, services/room/src/name-keys.ts): a
 * look-alike of a member's name from another script is refused as taken, in joining, in a profile rename and in the
 * availability check; a name with any default-ignorable code point inside is refused with a clear message and
 * nothing is recorded. Members hashed under the older key are hashed again at start, so the rule covers them too.
 * Room names follow the same rule: a room cannot be made or renamed to a name that renders like a live room's, while
 * each room is still found at its own address only.
 */
import { describe, it, expect, afterAll } from 'vitest';
import { INVISIBLE_CHARACTERS_MESSAGE, type SessionActor } from '@ephemera/proto';
import { startRoomWorld } from '../../../test/helpers/room-world.ts';
import { fillRoomNameKeys, rehashUsernames } from '../src/name-rehash.ts';

describe('confusable usernames', async () => {
  const world = await startRoomWorld();
  const { room, pool } = world;
  afterAll(() => world.stop());
  const newRoom = async (owner: string) => {
    const created = await room.service.createWorkspace({
      name: `conf-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
      username: owner,
    });
    return created.workspaceId;
  };
  const memberCount = async (ws: string) =>
    Number((await pool.query('SELECT count(*) FROM room.members WHERE workspace_id = $1', [ws])).rows[0].count);

  it('refuses a look-alike from another script as taken: join, check and rename', async () => {
    const ws = await newRoom('alice');
    await room.service.joinWorkspace(ws, { username: 'bob' });
    for (const lookalike of ['\u0430lice', 'b\u03bfb', 'ALICE', 'BOB']) {
      // Cyrillic а, Greek ο
      await expect(room.service.joinWorkspace(ws, { username: lookalike })).rejects.toMatchObject({
        code: 'USERNAME_TAKEN',
      });
      expect(await room.service.checkUsername(ws, lookalike)).toMatchObject({ available: false });
    }
    const carol = await room.service.joinWorkspace(ws, { username: 'carol' });
    const actor: SessionActor = { workspaceId: ws, userId: carol.user.id, username: 'carol' };
    await expect(room.service.updateProfile(actor, { workspaceId: ws, username: '\u0430lice' })).rejects.toMatchObject({
      code: 'USERNAME_TAKEN',
    });
    expect(await memberCount(ws)).toBe(3);
    expect(await room.service.checkUsername(ws, 'alicia')).toMatchObject({ available: true }); // a different name stays free
  });

  it('refuses every default-ignorable code point inside a name, with a clear message', async () => {
    const ws = await newRoom('dora');
    for (const hidden of [
      'al\uFEFFice',
      'al\u200Bice',
      'al\u2060ice',
      'al\u2066ice',
      'alice\uFE0F',
      'al\u{E0041}ice',
      'al\u00ADice',
      'al\u180Bice',
    ]) {
      await expect(room.service.joinWorkspace(ws, { username: hidden })).rejects.toMatchObject({
        code: 'VALIDATION',
        message: INVISIBLE_CHARACTERS_MESSAGE,
      });
      expect(await room.service.checkUsername(ws, hidden)).toEqual({
        available: false,
        message: INVISIBLE_CHARACTERS_MESSAGE,
      });
    }
    expect(await memberCount(ws)).toBe(1);
  });

  it('hashes members admitted under the older key again, so their look-alikes are taken too', async () => {
    const ws = await newRoom('erin');
    await room.service.joinWorkspace(ws, { username: 'frank' });
    // As a row written before the skeleton: an unrelated hash, marked with the older purpose.
    await pool.query(
      `UPDATE room.members SET username_hash = 'older-' || user_id, username_hash_purpose = 'username-v1' WHERE workspace_id = $1`,
      [ws],
    );
    expect(await room.service.checkUsername(ws, 'fr\u0430nk')).toMatchObject({ available: true });
    expect(await rehashUsernames(pool, world.keys.keyring, world.logger)).toBe(2);
    await expect(room.service.joinWorkspace(ws, { username: 'fr\u0430nk' })).rejects.toMatchObject({
      code: 'USERNAME_TAKEN',
    });
    await expect(room.service.joinWorkspace(ws, { username: '\u0435rin' })).rejects.toMatchObject({
      code: 'USERNAME_TAKEN',
    }); // Cyrillic е
  });

  it("room names: a look-alike of a live room's name cannot be created or taken by a rename", async () => {
    const base = `cafe${Date.now().toString(36)}`;
    const lookalike = `\u0441\u0430${base.slice(2)}`; // Cyrillic с and а
    const created = await room.service.createWorkspace({ name: base, username: 'gina' });
    await expect(room.service.createWorkspace({ name: lookalike, username: 'hal' })).rejects.toMatchObject({
      code: 'ROOM_NAME_TAKEN',
    });
    await expect(room.service.createWorkspace({ name: base.toUpperCase(), username: 'hal' })).rejects.toMatchObject({
      code: 'ROOM_NAME_TAKEN',
    });
    expect(await room.service.checkName(lookalike)).toMatchObject({ available: false });
    const other = await room.service.createWorkspace({ name: `other${Date.now().toString(36)}`, username: 'ivy' });
    const ivy: SessionActor = { workspaceId: other.workspaceId, userId: other.user.id, username: 'ivy' };
    await expect(
      room.service.renameWorkspace(ivy, { workspaceId: other.workspaceId, newName: lookalike }),
    ).rejects.toMatchObject({ code: 'ROOM_NAME_TAKEN' });
    // Each room is found at its own address only: the look-alike address is not the room's.
    expect(await room.service.lookupByName(base)).toMatchObject({ workspaceId: created.workspaceId });
    await expect(room.service.lookupByName(lookalike)).rejects.toMatchObject({ code: 'ROOM_NOT_FOUND' });
  });

  it('room names: rooms made before the skeleton get theirs at start', async () => {
    const base = `dojo${Date.now().toString(36)}`;
    await room.service.createWorkspace({ name: base, username: 'jo' });
    await pool.query('UPDATE room.workspaces SET name_skeleton = NULL WHERE name = $1', [base]);
    expect(await room.service.checkName(`d\u043e${base.slice(2)}`)).toMatchObject({ available: true }); // Cyrillic о
    expect(await fillRoomNameKeys(pool)).toBeGreaterThanOrEqual(1);
    expect(await room.service.checkName(`d\u043e${base.slice(2)}`)).toMatchObject({ available: false });
  });
});
