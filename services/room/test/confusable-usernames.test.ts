/**
 * Usernames that render alike are one name (UTS #39 confusable skeleton, services/room/src/username-key.ts): a
 * look-alike of a member's name from another script is refused as taken, in joining, in a profile rename and in the
 * availability check; a name with any default-ignorable code point inside is refused with a clear message and
 * nothing is recorded. Members hashed under the older key are hashed again at start, so the rule covers them too.
 */
import { describe, it, expect, afterAll } from 'vitest';
import { INVISIBLE_CHARACTERS_MESSAGE, type SessionActor } from '@ephemera/proto';
import { startRoomWorld } from '../../../test/helpers/room-world.ts';
import { rehashUsernames } from '../src/username-rehash.ts';

describe('confusable usernames', async () => {
  const world = await startRoomWorld();
  const { room, pool } = world;
  afterAll(() => world.stop());
  const newRoom = async (owner: string) => {
    const created = await room.service.createWorkspace({ name: `conf-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`, username: owner });
    return created.workspaceId;
  };
  const memberCount = async (ws: string) => Number((await pool.query('SELECT count(*) FROM room.members WHERE workspace_id = $1', [ws])).rows[0].count);

  it('refuses a look-alike from another script as taken: join, check and rename', async () => {
    const ws = await newRoom('alice');
    await room.service.joinWorkspace(ws, { username: 'bob' });
    for (const lookalike of ['\u0430lice', 'b\u03bfb', 'ALICE', 'BOB']) { // Cyrillic а, Greek ο
      await expect(room.service.joinWorkspace(ws, { username: lookalike })).rejects.toMatchObject({ code: 'USERNAME_TAKEN' });
      expect(await room.service.checkUsername(ws, lookalike)).toMatchObject({ available: false });
    }
    const carol = await room.service.joinWorkspace(ws, { username: 'carol' });
    const actor: SessionActor = { workspaceId: ws, userId: carol.user.id, username: 'carol' };
    await expect(room.service.updateProfile(actor, { workspaceId: ws, username: '\u0430lice' })).rejects.toMatchObject({ code: 'USERNAME_TAKEN' });
    expect(await memberCount(ws)).toBe(3);
    expect(await room.service.checkUsername(ws, 'alicia')).toMatchObject({ available: true }); // a different name stays free
  });

  it('refuses every default-ignorable code point inside a name, with a clear message', async () => {
    const ws = await newRoom('dora');
    for (const hidden of ['al\uFEFFice', 'al\u200Bice', 'al\u2060ice', 'al\u2066ice', 'alice\uFE0F', 'al\u{E0041}ice', 'al\u00ADice', 'al\u180Bice']) {
      await expect(room.service.joinWorkspace(ws, { username: hidden })).rejects.toMatchObject({ code: 'VALIDATION', message: INVISIBLE_CHARACTERS_MESSAGE });
      expect(await room.service.checkUsername(ws, hidden)).toEqual({ available: false, message: INVISIBLE_CHARACTERS_MESSAGE });
    }
    expect(await memberCount(ws)).toBe(1);
  });

  it('hashes members admitted under the older key again, so their look-alikes are taken too', async () => {
    const ws = await newRoom('erin');
    await room.service.joinWorkspace(ws, { username: 'frank' });
    // As a row written before the skeleton: an unrelated hash, marked with the older purpose.
    await pool.query(`UPDATE room.members SET username_hash = 'older-' || user_id, username_hash_purpose = 'username-v1' WHERE workspace_id = $1`, [ws]);
    expect(await room.service.checkUsername(ws, 'fr\u0430nk')).toMatchObject({ available: true });
    expect(await rehashUsernames(pool, world.keys.keyring, world.logger)).toBe(2);
    await expect(room.service.joinWorkspace(ws, { username: 'fr\u0430nk' })).rejects.toMatchObject({ code: 'USERNAME_TAKEN' });
    await expect(room.service.joinWorkspace(ws, { username: '\u0435rin' })).rejects.toMatchObject({ code: 'USERNAME_TAKEN' }); // Cyrillic е
  });
});
