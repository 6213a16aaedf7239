/**
 * Who was in a room is sealed under the room's key in the room read model (docs/crypto.md): after members join,
 * rename themselves, set a picture, leave, are kicked and broadcast a theme, no row of the room schema holds any of
 * their names or the picture (read straight from PostgreSQL), while every read path still answers them in the
 * clear, and usernames stay unique case-insensitively through the keyed hash. Once the key is destroyed the rows
 * cannot be opened and the room reads as gone.
 */
import { describe, it, expect, afterAll } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { SessionActor } from '@ephemera/proto';
import { isSealed } from '@ephemera/platform';
import { startRoomWorld } from '../../../test/helpers/room-world.ts';

/** a name no fixture contains: letters only, so it passes the username rules and survives normalization */
const canary = (prefix: string) =>
  `${prefix}${randomBytes(6)
    .toString('hex')
    .replace(/\d/g, (d) => 'qrstuvwxyz'[Number(d)]!)}`;

describe('room read model under the room key', async () => {
  const world = await startRoomWorld();
  const { pool, keys, room } = world;
  afterAll(() => world.stop());

  /** every row of every table of the room schema, as text */
  const roomSchemaText = async () => {
    const tables = ['workspaces', 'members', 'departed_members', 'channels', 'hidden_dms'];
    const parts = await Promise.all(
      tables.map(
        async (t) =>
          (await pool.query(`SELECT coalesce(json_agg(t)::text, '') AS rows FROM room.${t} t`)).rows[0].rows as string,
      ),
    );
    return parts.join('\n');
  };

  it('stores no name and no picture in the clear, answers them to members, and keeps names unique by keyed hash', async () => {
    const [owner, member, renamed, leaver, kicked] = ['Ow', 'Me', 'Re', 'Le', 'Ki'].map(canary);
    const picture = `https://example.com/${canary('pic')}.png`;
    const created = await room.service.createWorkspace({ name: `sealed-${Date.now().toString(36)}`, username: owner! });
    const ws = created.workspaceId;
    const ownerActor: SessionActor = { workspaceId: ws, userId: created.user.id, username: owner! };
    const joined = await Promise.all(
      [member!, leaver!, kicked!].map((username) => room.service.joinWorkspace(ws, { username })),
    );
    const [memberActor, leaverActor] = joined.map((j, i) => ({
      workspaceId: ws,
      userId: j.user.id,
      username: [member, leaver][i]!,
    }));
    await room.service.updateProfile(memberActor!, { workspaceId: ws, username: renamed!, profilePicture: picture });
    await room.service.leaveWorkspace(leaverActor!);
    await room.service.kickUser(ownerActor, { workspaceId: ws, userId: joined[2]!.user.id });
    await room.service.broadcastTheme(ownerActor, { workspaceId: ws, themeId: 'dark' });

    const stored = await roomSchemaText();
    for (const secret of [owner!, member!, renamed!, leaver!, kicked!, picture]) {
      expect(stored).not.toContain(secret);
      expect(stored.toLowerCase()).not.toContain(secret.toLowerCase());
    }
    const { rows } = await pool.query(
      'SELECT username, username_hash, profile_picture FROM room.members WHERE workspace_id = $1',
      [ws],
    );
    for (const r of rows) {
      expect(isSealed(r.username)).toBe(true);
      expect(r.username_hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
    const departed = await pool.query('SELECT username FROM room.departed_members WHERE workspace_id = $1', [ws]);
    expect(departed.rows).toHaveLength(2);
    for (const r of departed.rows) expect(isSealed(r.username)).toBe(true);

    // Every read path answers the names in the clear.
    const view = await room.service.authenticate({
      workspaceId: ws,
      userToken: joined[0]!.userToken,
      username: renamed!,
    });
    expect(view.workspace.users.map((u) => u.username).sort()).toEqual([owner!, renamed!].sort());
    expect(view.workspace.users.find((u) => u.username === renamed)!.profilePicture).toBe(picture);
    expect(view.workspace.theme).toMatchObject({ themeId: 'dark', changedByName: owner });
    // Uniqueness through the keyed hash: the same name in other case is taken, the departed ones are free again.
    await expect(room.service.joinWorkspace(ws, { username: renamed!.toUpperCase() })).rejects.toMatchObject({
      code: 'USERNAME_TAKEN',
    });
    expect(await room.service.checkUsername(ws, owner!.toLowerCase())).toMatchObject({ available: false });
    expect(await room.service.checkUsername(ws, member!)).toMatchObject({ available: true });
    await expect(room.service.joinWorkspace(ws, { username: leaver! })).resolves.toMatchObject({
      user: { username: leaver },
    });

    // The key destroyed (what delete and expiry do first): nothing of the rows can be opened, the room reads as gone.
    await keys.store.destroy(ws);
    await expect(room.service.checkUsername(ws, 'someone')).rejects.toMatchObject({ code: 'WORKSPACE_NOT_FOUND' });
    await expect(
      room.service.authenticate({ workspaceId: ws, userToken: created.userToken, username: owner! }),
    ).rejects.toMatchObject({ code: 'WORKSPACE_NOT_FOUND' });
  });
});
