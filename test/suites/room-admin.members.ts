/**
 * Room administration, the members side (registered by room-admin.suite.ts): kick-user (revocation on every gateway
 * replica within a second, docs/product/security.md S2, S3), set-member-role (ours) and delete-workspace. In
 * distributed mode
 * the TestRoom's first member is on replica B and the second on A.
 */
import { it, expect } from 'vitest';
import type { Socket } from 'socket.io-client';
import { API, C, S, ERRORS, type RoomUser } from '@ephemera/proto';
import { clientId, collect, connect, createRoom, http, next, request } from '../helpers/clients.ts';
import type { TargetRef } from './target-ref.ts';
import { expectRefused, type Person, type TestRoom } from './channels.setup.ts';

const disconnectedAt = (s: Socket) => new Promise<number>((resolve) => s.once('disconnect', () => resolve(Date.now())));

export function roomAdminMemberTests(
  target: TargetRef,
  room: (names?: string[]) => Promise<TestRoom>,
  promote: (r: TestRoom, who: Person) => Promise<void>,
) {
  it('kick-user: an admin on A kicks a member on B: kicked, disconnected within 1 s on every replica; others get user-kicked', async () => {
    const r = await room(['bob', 'carol']);
    const [bob, carol] = r.members; // bob on B, carol on A
    await promote(r, carol);
    const bobOtherTab = await r.secondSocket(bob, target().A);
    const general = await r.createChannel(r.owner, 'general');
    expect((await r.send(bob, general.id, 'before the kick')).success).toBe(true);
    const kicked = [next(bob.socket, S.kicked), next(bobOtherTab, S.kicked)];
    const gone = [disconnectedAt(bob.socket), disconnectedAt(bobOtherTab)];
    const ownerSees = next(r.owner.socket, S.userKicked);
    const bobSees = collect(bob.socket, S.userKicked);

    const ack = await request(carol.socket, C.kickUser, { workspaceId: r.workspaceId, userId: bob.id, reason: 'spam' });
    const ackedAt = Date.now();
    expect(ack).toEqual({ success: true, userId: bob.id });
    for (const p of await Promise.all(kicked))
      expect(p).toEqual({ workspaceId: r.workspaceId, reason: 'spam', kickedBy: carol.id });
    for (const at of await Promise.all(gone)) expect(at - ackedAt).toBeLessThan(1000);
    expect(await ownerSees).toEqual({ workspaceId: r.workspaceId, userId: bob.id, kickedBy: carol.id });
    expect(bobSees).toEqual([]);

    // Reconnecting with the old token fails on every replica; a resync from the old position delivers nothing.
    for (const base of [target().A, target().B]) {
      const s = await connect(base);
      expectRefused(
        await request(s, C.joinWorkspace, { workspaceId: r.workspaceId, username: 'bob', userToken: bob.token }),
        'KICKED',
        ERRORS.KICKED,
      );
      expectRefused(await request(s, C.syncMessages, { workspaceId: r.workspaceId, afterSeq: 0 }), 'NOT_AUTHENTICATED');
      expectRefused(
        await request(s, C.sendMessage, {
          clientMessageId: clientId(),
          channelId: general.id,
          content: 'back',
          type: 'text',
        }),
        'NOT_AUTHENTICATED',
      );
      s.disconnect();
    }
    const view = await r.freshJoin(r.owner);
    expect(view.success && view.workspace.users.map((u) => u.id)).not.toContain(bob.id);
    // the username is free again (a new member, a new token)
    expect((await http(target().B, API.join(r.workspaceId), { body: { username: 'bob' } })).status).toBe(200);
  });

  it('kick-user: not oneself, not the owner by an admin, not by a member, only current members; bad input changes nothing', async () => {
    const r = await room(['bob', 'carol']);
    const [bob, carol] = r.members;
    await promote(r, carol);
    const seen = collect(r.owner.socket, S.userKicked);
    const kick = (by: Person, userId: unknown, reason?: unknown) =>
      request(by.socket, C.kickUser, { workspaceId: r.workspaceId, userId, reason });
    expectRefused(await kick(r.owner, r.owner.id), 'CANNOT_KICK_SELF', ERRORS.CANNOT_KICK_SELF);
    expectRefused(await kick(carol, carol.id), 'CANNOT_KICK_SELF');
    expectRefused(await kick(carol, r.owner.id), 'CANNOT_KICK_OWNER', ERRORS.CANNOT_KICK_OWNER);
    expectRefused(await kick(bob, carol.id), 'FORBIDDEN');
    expectRefused(await kick(r.owner, 'nobody-here'), 'USER_NOT_FOUND');
    expectRefused(await kick(r.owner, 'not an id'), 'VALIDATION');
    expectRefused(await kick(r.owner, bob.id, 'x'.repeat(201)), 'VALIDATION');
    const other = await createRoom(target().A);
    expectRefused(
      await request(r.owner.socket, C.kickUser, { workspaceId: other.workspaceId, userId: other.user.id }),
      'FORBIDDEN',
    );
    await r.roomBarrier([r.owner.socket, bob.socket]);
    expect(seen).toEqual([]);
    expect((await r.freshJoin(bob)).success).toBe(true);

    // The owner may remove an admin; the default reason names who did it.
    const why = next<{ reason: string }>(carol.socket, S.kicked);
    expect((await kick(r.owner, carol.id)).success).toBe(true);
    expect((await why).reason).toContain('alice');
  });

  it('set-member-role (ours): the owner promotes and demotes; everyone gets user-updated; the new role takes effect', async () => {
    const r = await room(['bob', 'carol']);
    const [bob, carol] = r.members;
    expectRefused(
      await request(bob.socket, C.createChannel, {
        workspaceId: r.workspaceId,
        name: 'by-bob',
        type: 'topic',
        isPrivate: false,
      }),
      'FORBIDDEN',
    );
    const seen = next<{ workspaceId: string; user: RoomUser }>(carol.socket, S.userUpdated);
    const ack = await request(r.owner.socket, C.setMemberRole, {
      workspaceId: r.workspaceId,
      userId: bob.id,
      isAdmin: true,
    });
    expect(ack.success && ack.user).toMatchObject({ id: bob.id, username: 'bob', isAdmin: true, isOwner: false });
    expect(await seen).toMatchObject({ workspaceId: r.workspaceId, user: { id: bob.id, isAdmin: true } });
    expect(
      (
        await request(bob.socket, C.createChannel, {
          workspaceId: r.workspaceId,
          name: 'by-bob',
          type: 'topic',
          isPrivate: false,
        })
      ).success,
    ).toBe(true);

    // only the owner: an admin and a member are refused; the owner's own role and strangers are not changed
    const observed = collect(carol.socket, S.userUpdated);
    expectRefused(
      await request(bob.socket, C.setMemberRole, { workspaceId: r.workspaceId, userId: carol.id, isAdmin: true }),
      'FORBIDDEN',
    );
    expectRefused(
      await request(carol.socket, C.setMemberRole, { workspaceId: r.workspaceId, userId: carol.id, isAdmin: true }),
      'FORBIDDEN',
    );
    expectRefused(
      await request(r.owner.socket, C.setMemberRole, {
        workspaceId: r.workspaceId,
        userId: r.owner.id,
        isAdmin: false,
      }),
      'VALIDATION',
    );
    expectRefused(
      await request(r.owner.socket, C.setMemberRole, {
        workspaceId: r.workspaceId,
        userId: 'nobody-here',
        isAdmin: true,
      }),
      'USER_NOT_FOUND',
    );
    expectRefused(
      await request(r.owner.socket, C.setMemberRole, { workspaceId: r.workspaceId, userId: carol.id, isAdmin: 'yes' }),
      'VALIDATION',
    );
    await r.roomBarrier([carol.socket]);
    expect(observed).toEqual([]);

    const demoted = await request(r.owner.socket, C.setMemberRole, {
      workspaceId: r.workspaceId,
      userId: bob.id,
      isAdmin: false,
    });
    expect(demoted.success && demoted.user.isAdmin).toBe(false);
    expectRefused(
      await request(bob.socket, C.createChannel, {
        workspaceId: r.workspaceId,
        name: 'by-bob-2',
        type: 'topic',
        isPrivate: false,
      }),
      'FORBIDDEN',
    );
  });

  it('delete-workspace: only the owner; everyone gets workspace-deleted, sessions end, the name is free again', async () => {
    const r = await room(['bob', 'carol']);
    const [bob, carol] = r.members;
    await promote(r, carol);
    const name = (await http(target().A, API.info(r.workspaceId))).body.name as string;
    const general = await r.createChannel(r.owner, 'general');
    const seen = collect(r.owner.socket, S.workspaceDeleted);
    expectRefused(await request(carol.socket, C.deleteWorkspace, { workspaceId: r.workspaceId }), 'FORBIDDEN');
    expectRefused(await request(bob.socket, C.deleteWorkspace, { workspaceId: r.workspaceId }), 'FORBIDDEN');
    expectRefused(await request(r.owner.socket, C.deleteWorkspace, { workspaceId: 'not an id' }), 'VALIDATION');
    await r.roomBarrier([r.owner.socket]);
    expect(seen).toEqual([]);

    const told = [r.owner, bob, carol].map((p) =>
      next<{ workspaceId: string; message: string }>(p.socket, S.workspaceDeleted),
    );
    const ack = await request(r.owner.socket, C.deleteWorkspace, { workspaceId: r.workspaceId });
    expect(ack).toEqual({ success: true, workspaceId: r.workspaceId });
    for (const p of await Promise.all(told))
      expect(p).toEqual({ workspaceId: r.workspaceId, message: 'This chat room has been deleted.' });

    expectRefused(await r.send(bob, general.id, 'still here?'), 'NOT_AUTHENTICATED');
    expect((await http(target().B, API.roomByName(name))).status).toBe(404);
    expect((await http(target().B, API.info(r.workspaceId))).status).toBe(404);
    expect((await r.freshJoin(carol)).success).toBe(false);
    expect((await http(target().A, API.checkName(name))).body.available).toBe(true);
    const again = await http(target().A, API.create(), { body: { name, username: 'zoe' } });
    expect(again.status).toBe(201);
    expect(again.body.workspaceId).not.toBe(r.workspaceId);
  });
}
