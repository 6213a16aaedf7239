/**
 * The Rooms tab (docs/product/admin.md ADM6-ADM7): the list with owners and its search, extend (168 or 720 hours; a
 * room that never
 * expires is refused), delete with a reason (members told, the room gone), and the moderation viewer (the room's
 * messages across its channels, decrypted, each opening audited). Part of directory.suite.ts.
 */
import { it, expect } from 'vitest';
import { ADMIN_API, ADMIN_TEXT, C, S, type AdminRoom, type ModerationMessage } from '@ephemera/proto';
import { clientId, createRoom, joinRoom, next, request, socketJoin, uniqueName } from '../helpers/clients.ts';
import { uniqueEmail } from '../accounts/account-clients.ts';
import type { AdminTarget } from './target.ts';
import { directoryClient } from './directory.client.ts';

const HOUR_MS = 3_600_000;

export function roomsDirectoryTests(target: () => AdminTarget) {
  const rooms = async (t: AdminTarget, search?: string): Promise<AdminRoom[]> => {
    const res = await directoryClient(t).call(
      `${ADMIN_API.rooms}${search === undefined ? '' : `?search=${encodeURIComponent(search)}`}`,
      'GET',
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.rooms;
  };
  /** the room's row once it shows `expected`: the directory is a projection of several topics (the room, its claim,
   *  the owner's account), which arrive in any order when distributed */
  const listedRoom = async (t: AdminTarget, name: string, expected: Partial<AdminRoom> = {}): Promise<AdminRoom> => {
    let found: AdminRoom | undefined;
    await expect
      .poll(async () => (found = (await rooms(t, name)).find((r) => r.name === name)), {
        timeout: 15_000,
        interval: 100,
      })
      .toMatchObject({ name, ...expected });
    return found!;
  };

  it('rooms: listed newest first with owner (or none) and members, searched by name or owner e-mail', async () => {
    const t = target();
    const d = directoryClient(t);
    const guest = await createRoom(t.url, uniqueName('guestroom'), 'alice');
    await joinRoom(t.url, guest.workspaceId, 'bob');
    const owner = await t.signIn(uniqueEmail('roomowner'), 'owner');
    const owned = await d.dashboardRoom(owner.token);
    expect(await listedRoom(t, guest.name, { userCount: 2 })).toMatchObject({
      id: guest.workspaceId,
      owner: null,
      userCount: 2,
      isActive: true,
    });
    const ownedRow = await listedRoom(t, owned.name, { owner: owner.email });
    expect(ownedRow).toMatchObject({ id: owned.workspaceId, owner: owner.email, userCount: 1, isActive: true });
    expect(new Date(ownedRow.expiresAt!).getTime()).toBeGreaterThan(Date.now());
    const all = await rooms(t);
    expect(all.length).toBeLessThanOrEqual(50);
    expect(all.findIndex((r) => r.id === owned.workspaceId)).toBeLessThan(
      all.findIndex((r) => r.id === guest.workspaceId),
    );
    expect((await rooms(t, owner.email)).map((r) => r.id)).toEqual([owned.workspaceId]);
    expect((await rooms(t, guest.name.toUpperCase())).map((r) => r.id)).toEqual([guest.workspaceId]);
  });

  it('extend moves the expiry by exactly 168 or 720 hours; other amounts, unknown rooms and rooms that never expire are refused', async () => {
    const t = target();
    const d = directoryClient(t);
    const room = await createRoom(t.url, uniqueName('extend'), 'alice');
    const before = new Date((await listedRoom(t, room.name)).expiresAt!).getTime();
    for (const body of [{ hours: 24 }, { hours: '168' }, {}, { hours: 168.5 }]) {
      expect((await d.call(ADMIN_API.extendRoom(room.workspaceId), 'POST', body)).status, JSON.stringify(body)).toBe(
        400,
      );
    }
    const res = await d.call(ADMIN_API.extendRoom(room.workspaceId), 'POST', { hours: 168 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = new Date((await listedRoom(t, room.name)).expiresAt!).getTime();
    expect(after - before).toBe(168 * HOUR_MS);
    expect(new Date(res.body.expiresAt).getTime()).toBe(after);
    expect((await d.call(ADMIN_API.extendRoom(room.workspaceId), 'POST', { hours: 720 })).status).toBe(200);
    expect(new Date((await listedRoom(t, room.name)).expiresAt!).getTime() - after).toBe(720 * HOUR_MS);
    expect((await d.call(ADMIN_API.extendRoom('no-such-room'), 'POST', { hours: 168 })).body.code).toBe(
      'WORKSPACE_NOT_FOUND',
    );

    // a business trial makes the account's rooms permanent: nothing to extend
    const owner = await t.signIn(uniqueEmail('business'), 'boss');
    const permanent = await d.dashboardRoom(owner.token);
    await d.listed(owner.email);
    expect((await d.call(ADMIN_API.adminUpgrade(owner.email), 'POST', { tier: 'business', days: 30 })).status).toBe(
      200,
    );
    // the trial's tier reaches the room through the room service's events: the directory shows it when they arrive
    expect((await listedRoom(t, permanent.name, { expiresAt: null })).expiresAt).toBeNull();
    const never = await d.call(ADMIN_API.extendRoom(permanent.workspaceId), 'POST', { hours: 168 });
    expect(never.status).toBe(400);
    expect(never.body.code).toBe('NEVER_EXPIRES');
  });

  it('delete needs a reason; with one the room is gone and its members get the deleted notice', async () => {
    const t = target();
    const d = directoryClient(t);
    const room = await createRoom(t.url, uniqueName('doomed'), 'alice');
    const bob = await joinRoom(t.url, room.workspaceId, 'bob');
    const { socket } = await socketJoin(t.url, room.workspaceId, 'bob', bob.userToken);
    try {
      await listedRoom(t, room.name);
      for (const body of [undefined, {}, { reason: ' ' }]) {
        const refused = await d.call(ADMIN_API.room(room.workspaceId), 'DELETE', body);
        expect(refused.status).toBe(400);
        expect(refused.body.message).toBe(ADMIN_TEXT.reasonRequired);
      }
      expect((await rooms(t, room.name)).map((r) => r.id)).toEqual([room.workspaceId]);
      const told = next<{ workspaceId: string; message: string }>(socket, S.workspaceDeleted);
      const res = await d.call(ADMIN_API.room(room.workspaceId), 'DELETE', { reason: 'abuse report' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect((await told).workspaceId).toBe(room.workspaceId);
      expect(await rooms(t, room.name)).toEqual([]);
      expect((await d.lookup(room.name)).status).toBe(404);
      expect((await d.call(ADMIN_API.room(room.workspaceId), 'DELETE', { reason: 'again' })).body.code).toBe(
        'WORKSPACE_NOT_FOUND',
      );
      expect((await d.call(ADMIN_API.extendRoom(room.workspaceId), 'POST', { hours: 168 })).status).toBe(404);
      expect((await d.call(ADMIN_API.roomMessages(room.workspaceId), 'GET')).status).toBe(404);
    } finally {
      socket.close();
    }
  });

  it("the moderation viewer shows the room's messages across channels, decrypted with channel name and type; each opening is audited", async () => {
    const t = target();
    const d = directoryClient(t);
    const room = await createRoom(t.url, uniqueName('moderated'), 'alice');
    const bob = await joinRoom(t.url, room.workspaceId, 'bob');
    const alice = await socketJoin(t.url, room.workspaceId, 'alice', room.userToken);
    try {
      const general = await request(alice.socket, C.createChannel, {
        workspaceId: room.workspaceId,
        name: 'general',
        type: 'topic',
        isPrivate: false,
      });
      const secret = await request(alice.socket, C.createChannel, {
        workspaceId: room.workspaceId,
        name: 'secret',
        type: 'topic',
        isPrivate: true,
      });
      const dm = await request(alice.socket, C.createDmChannel, {
        workspaceId: room.workspaceId,
        targetUserId: bob.user.id,
      });
      if (!general.success || !secret.success || !dm.success)
        throw new Error(`setup: ${JSON.stringify([general, secret, dm])}`);
      const texts: Array<[string, string]> = [
        [general.channel.id, 'hello everyone'],
        [secret.channel.id, 'quiet <b>word</b>'],
        [dm.channel.id, 'just us'],
        [general.channel.id, 'last one'],
      ];
      for (const [channelId, content] of texts) {
        const sent = await request(alice.socket, C.sendMessage, {
          clientMessageId: clientId(),
          channelId,
          content,
          type: 'text',
        });
        if (!sent.success) throw new Error(`send: ${sent.message}`);
      }
      await listedRoom(t, room.name);
      const res = await d.call(ADMIN_API.roomMessages(room.workspaceId), 'GET');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const messages = res.body.messages as ModerationMessage[];
      expect(messages.map((m) => m.content)).toEqual(texts.map(([, content]) => content)); // oldest first
      expect(messages.map((m) => [m.channelName, m.channelType])).toEqual([
        ['general', 'topic'],
        ['secret', 'private'],
        [expect.any(String), 'dm'],
        ['general', 'topic'],
      ]);
      for (const m of messages)
        expect(m).toMatchObject({ authorName: 'alice', isDecrypted: true, decryptError: null, type: 'text' });

      const newest = await d.call(ADMIN_API.roomMessages(room.workspaceId, 1), 'GET');
      expect(newest.body.messages.map((m: ModerationMessage) => m.content)).toEqual(['last one']);
      for (const bad of [
        `${ADMIN_API.room(room.workspaceId)}/messages?limit=51`,
        `${ADMIN_API.room(room.workspaceId)}/messages?limit=abc`,
        `${ADMIN_API.room(room.workspaceId)}/messages?limit=0`,
      ]) {
        expect((await d.call(bad, 'GET')).status, bad).toBe(400);
      }
      expect((await d.call(ADMIN_API.roomMessages('no-such-room'), 'GET')).body.code).toBe('WORKSPACE_NOT_FOUND');

      const audit = await d.call(ADMIN_API.audit, 'GET');
      const entries = (Array.isArray(audit.body) ? audit.body : audit.body.entries) as Array<{
        action: string;
        target: string | null;
        admin: string;
      }>;
      const openings = entries.filter((e) => e.action === 'room.messages-read' && e.target === room.workspaceId);
      expect(openings).toHaveLength(2); // the two successful openings; refused ones read nothing
      expect(openings[0]!.admin).toBe(t.superadminEmail);
    } finally {
      alice.socket.close();
    }
  });
}
