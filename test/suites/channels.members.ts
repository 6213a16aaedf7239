/**
 * The member part of the channels suite (test/suites/channels.suite.ts): update-profile (identity keys, the spec's
 * texts) and leave-workspace (the spec's logout: revocation on every replica).
 */
import { it, expect, describe } from 'vitest';
import { API, C, S, ERRORS, INVISIBLE_CHARACTERS_MESSAGE } from '@ephemera/proto';
import { collect, next, request, joinRoom, connect, http } from '../helpers/clients.ts';
import { type TestRoom, expectRefused } from './channels.setup.ts';

export function memberTests(room: (names: string[]) => Promise<TestRoom>) {
  describe('profile', () => {
    it('update-profile: user-profile-updated to everyone; the new name and picture in every fresh join', async () => {
      const r = await room(['bob', 'carol']);
      const [bob, carol] = r.members;
      const seen = [r.owner.socket, carol.socket, bob.socket].map((s) =>
        next<any>(s, S.userProfileUpdated, (p) => p.userId === bob.id),
      );
      const picture = 'https://example.com/bob.png';
      const ack = await request(bob.socket, C.updateProfile, {
        workspaceId: r.workspaceId,
        userId: bob.id,
        username: 'Robert the Builder',
        profilePicture: picture,
      });
      expect(ack.success && ack.user).toMatchObject({
        id: bob.id,
        username: 'Robert the Builder',
        profilePicture: picture,
      });
      for (const p of await Promise.all(seen))
        expect(p).toMatchObject({
          workspaceId: r.workspaceId,
          username: 'Robert the Builder',
          profilePicture: picture,
        });
      const join = await r.freshJoin(carol);
      expect(join.success && join.workspace.users.find((u) => u.id === bob.id)).toMatchObject({
        username: 'Robert the Builder',
        profilePicture: picture,
      });

      // Unchanged: acked, nothing broadcast.
      const carolUpdates = collect(carol.socket, S.userProfileUpdated);
      expect(
        (await request(bob.socket, C.updateProfile, { workspaceId: r.workspaceId, username: 'Robert the Builder' }))
          .success,
      ).toBe(true);
      await r.roomBarrier([carol.socket]);
      expect(carolUpdates).toEqual([]);
      // The old name is free again.
      expect(
        (await request(carol.socket, C.updateProfile, { workspaceId: r.workspaceId, username: 'bob' })).success,
      ).toBe(true);
    });

    it('taken and lookalike usernames are refused with the spec text; bad input changes nothing', async () => {
      const r = await room(['bob']);
      const [bob] = r.members;
      const update = (fields: Record<string, unknown>) =>
        request(bob.socket, C.updateProfile, { workspaceId: r.workspaceId, ...fields });
      for (const name of ['alice', 'ALICE', 'ａｌｉｃｅ', ' Alice ']) {
        expectRefused(await update({ username: name }), 'USERNAME_TAKEN', ERRORS.USERNAME_TAKEN);
      }
      expectRefused(await update({ username: 'ali\u200bce' }), 'VALIDATION', INVISIBLE_CHARACTERS_MESSAGE);
      expectRefused(await update({ username: '\u202eecila' }), 'VALIDATION');
      expectRefused(await update({ username: 'x'.repeat(31) }), 'VALIDATION');
      expectRefused(await update({ username: '  ' }), 'VALIDATION', 'Username is required');
      expectRefused(
        await update({ profilePicture: 'javascript:alert(1)' }),
        'VALIDATION',
        'Please select an image file',
      );
      expectRefused(await update({ username: 'bobby', userId: r.owner.id }), 'FORBIDDEN');
      expect((await update({ username: 'y'.repeat(30) })).success).toBe(true); // profile names may be up to 30
      // The same identity rule on joining the room.
      await expect(joinRoom(bob.base, r.workspaceId, 'ＡＬＩＣＥ')).rejects.toThrow(/already taken/);
      expect((await http(bob.base, API.checkUsername(r.workspaceId, 'ＡＬＩＣＥ'))).body).toEqual({
        available: false,
        message: ERRORS.USERNAME_TAKEN,
      });
      expect((await http(bob.base, API.checkUsername(r.workspaceId, 'ali\u200bce'))).body).toEqual({
        available: false,
        message: INVISIBLE_CHARACTERS_MESSAGE,
      });
      const join = await r.freshJoin(r.owner);
      expect(join.success && join.workspace.users.map((u) => u.username).sort()).toEqual(['alice', 'y'.repeat(30)]);
    });
  });

  describe('leave-workspace', () => {
    it("revokes the token, ends the user's other sockets on the other replica, tells everyone, frees the name", async () => {
      const r = await room(['bob', 'carol']);
      const [bob, carol] = r.members;
      const bobElsewhere = await r.secondSocket(bob, r.owner.base); // bob's first socket is on B, this one on A
      const leftSeen = [r.owner.socket, carol.socket].map((s) =>
        next<any>(s, S.userLeft, (p) => p.userId === bob.id && p.membershipEnded === true),
      );
      const disconnected = new Promise<number>((resolve) => bobElsewhere.once('disconnect', () => resolve(Date.now())));

      const start = Date.now();
      expect(await request(bob.socket, C.leaveWorkspace, { workspaceId: r.workspaceId })).toEqual({ success: true });
      expect((await disconnected) - start).toBeLessThan(1_000);
      for (const p of await Promise.all(leftSeen))
        expect(p).toMatchObject({ workspaceId: r.workspaceId, username: 'bob' });

      expectRefused(await r.send(bob, r.general?.id ?? 'any-channel', 'still here?'), 'NOT_AUTHENTICATED');
      expect((await r.freshJoin(bob)).success).toBe(false);
      const join = await r.freshJoin(carol);
      expect(join.success && join.workspace.users.map((u) => u.id)).not.toContain(bob.id);
      // The name is free again: a newcomer takes it and gets a different identity.
      const again = await joinRoom(bob.base, r.workspaceId, 'BOB');
      expect(again.user.id).not.toBe(bob.id);
      expect(again.user.username).toBe('BOB');
    });

    it("a departed user's token is refused for every command; others are not affected", async () => {
      const r = await room(['bob']);
      const [bob] = r.members;
      const topic = await r.createChannel(r.owner, 'after');
      expect((await request(bob.socket, C.leaveWorkspace, { workspaceId: r.workspaceId })).success).toBe(true);
      const rejoin = await connect(bob.base);
      expectRefused(
        await request(rejoin, C.joinWorkspace, { workspaceId: r.workspaceId, username: 'bob', userToken: bob.token }),
        'NOT_AUTHENTICATED',
      );
      expectRefused(
        await request(rejoin, C.createDmChannel, { workspaceId: r.workspaceId, targetUserId: r.owner.id }),
        'NOT_AUTHENTICATED',
      );
      expectRefused(await request(rejoin, C.leaveWorkspace, { workspaceId: r.workspaceId }), 'NOT_AUTHENTICATED');
      rejoin.disconnect();
      expect((await r.send(r.owner, topic.id, 'carry on')).success).toBe(true);
      expectRefused(
        await request(r.owner.socket, C.createDmChannel, { workspaceId: r.workspaceId, targetUserId: bob.id }),
        'USER_NOT_FOUND',
      );
    });
  });
}
