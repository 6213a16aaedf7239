/**
 * The first journey (create a room, open a channel, chat) over the real protocol, run against every way of running the product:
 * create a room, open a channel, chat. Each test names the rule it proves (docs/protocol.md rule ids: P1...).
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { API, C, S, ERRORS, type Message, type MessagingApi, type RoomApi, type Tier } from '@ephemera/proto';
import {
  http,
  connect,
  request,
  next,
  collect,
  createRoom,
  joinRoom,
  socketJoin,
  uniqueName,
  clientId,
} from '../helpers/clients.ts';

export interface Target {
  /** origin for HTTP and sockets of user A */
  url: string;
  /** origin for user B (another gateway replica when there are several) */
  urlB?: string;
  /** move the services' clock forward */
  advanceClock(ms: number): void;
  /** RoomTierChanged through the room service's internal command (billing's path; no browser route reaches it) */
  changeTier?(workspaceId: string, tier: Tier): Promise<void>;
  /** the keys the file storage holds for a room (local disk or the S3 bucket): files tests see what is really kept */
  storedObjects?(workspaceId: string): Promise<string[]>;
  /** the raw stored bytes of one object (what a disk or bucket reader sees) */
  readStoredObject?(key: string): Promise<Buffer>;
  /** the room and messaging services as the gateway calls them (embedded: the objects; distributed: signed internal clients) */
  services?: { rooms: RoomApi; messaging: MessagingApi };
  stop(): Promise<void>;
}

export function journeySuite(name: string, start: () => Promise<Target>) {
  describe(`journey: ${name}`, () => {
    let t: Target;
    let A: string;
    let B: string;
    beforeAll(async () => {
      t = await start();
      A = t.url;
      B = t.urlB ?? t.url;
    });
    afterAll(async () => {
      await t?.stop();
    });

    it('the Engine.IO handshake announces the keep-alive: a ping every 40 s, an answer within 20 s', async () => {
      const res = await fetch(`${A}/socket.io/?EIO=4&transport=polling`);
      expect(res.status).toBe(200);
      const open = (await res.text()).match(/^0(\{.*\})/);
      expect(open).not.toBeNull();
      expect(JSON.parse(open![1]!)).toMatchObject({ pingInterval: 40_000, pingTimeout: 20_000 });
    });

    it('check-name reports a free name available and a taken name taken (case-insensitively)', async () => {
      const name = uniqueName();
      expect((await http(A, API.checkName(name))).body).toEqual({ available: true, message: 'Room name is available' });
      await createRoom(A, name);
      const taken = await http(A, API.checkName(name.toUpperCase()));
      expect(taken.body.available).toBe(false);
      expect(taken.body.message).toBe(ERRORS.ROOM_NAME_TAKEN);
    });

    it('room lookup answers 404 for a new room and the room for an existing one', async () => {
      const name = uniqueName();
      const missing = await http(A, API.roomByName(name));
      expect(missing.status).toBe(404);
      const { workspaceId } = await createRoom(A, name, 'owner', 'secret-pw');
      const found = await http(A, API.roomByName(name));
      expect(found.status).toBe(200);
      expect(found.body).toMatchObject({
        workspaceId,
        name,
        isPasswordProtected: true,
        isNewRoom: false,
        tier: 'free',
      });
      const info = await http(A, API.info(workspaceId));
      expect(info.body).toMatchObject({
        workspaceId,
        isPasswordProtected: true,
        settings: { tier: 'free', maxUsers: 5 },
      });
    });

    it('creating a taken name is refused with the spec text and changes nothing', async () => {
      const { name, workspaceId } = await createRoom(A);
      const again = await http(A, API.create(), { body: { name, username: 'mallory' } });
      expect(again.status).toBe(409);
      expect(again.body.message).toBe('Room name is already taken');
      expect((await http(A, API.roomByName(name))).body.workspaceId).toBe(workspaceId);
    });

    it('bad HTTP bodies get a clear error and create nothing', async () => {
      const name = uniqueName();
      const cases = [
        { name, username: ' ' },
        { name, username: 'a' },
        { name, username: 'x'.repeat(21) },
        { name: 'y'.repeat(51), username: 'alice' },
        { name: 'has space', username: 'alice' },
        { name: 'login', username: 'alice' },
        { name, username: 'alice', hasPassword: true },
        'not json',
        [],
      ];
      for (const body of cases) {
        const res = await http(A, API.create(), { body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(typeof res.body.message).toBe('string');
      }
      expect((await http(A, API.roomByName(name))).status).toBe(404);
      const nul = await http(A, API.create(), { body: { name, username: 'al\u0000ice' } });
      expect(nul.status).toBe(400);
      const short = await http(A, API.create(), { body: { name, username: 'a' } });
      expect(short.body.message).toBe(ERRORS.USERNAME_REQUIRED);
    });

    it('P6 a protected room refuses a wrong password with the spec text and admits the right one', async () => {
      const { workspaceId } = await createRoom(A, uniqueName(), 'alice', 'open sesame');
      const wrong = await http(B, API.join(workspaceId), { body: { username: 'bob', password: 'nope' } });
      expect(wrong.status).toBe(401);
      expect(wrong.body.message).toBe(ERRORS.PASSWORD_WRONG);
      const none = await http(B, API.join(workspaceId), { body: { username: 'bob' } });
      expect(none.body.message).toBe(ERRORS.PASSWORD_REQUIRED);
      const right = await http(B, API.join(workspaceId), { body: { username: 'bob', password: 'open sesame' } });
      expect(right.status).toBe(200);
      expect(right.body.userToken).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    });

    it('usernames are unique in a room; check-username tells', async () => {
      const { workspaceId } = await createRoom(A, uniqueName(), 'alice');
      expect((await http(B, API.checkUsername(workspaceId, 'ALICE'))).body.available).toBe(false);
      expect((await http(B, API.checkUsername(workspaceId, 'bob'))).body.available).toBe(true);
      const dup = await http(B, API.join(workspaceId), { body: { username: 'Alice' } });
      expect(dup.status).toBe(409);
      expect(dup.body.message).toBe(ERRORS.USERNAME_TAKEN);
    });

    it('a free room admits at most 5 members', async () => {
      const { workspaceId } = await createRoom(A, uniqueName(), 'u0');
      for (let i = 1; i < 5; i++) await joinRoom(B, workspaceId, `u${i}`);
      const sixth = await http(B, API.join(workspaceId), { body: { username: 'u5' } });
      expect(sixth.status).toBe(403);
      expect(sixth.body.message).toBe(ERRORS.ROOM_FULL);
    });

    it('P1 the whole journey: owner creates a channel, both chat both ways, history comes back in order', async () => {
      const room = await createRoom(A, uniqueName(), 'alice');
      const bob = await joinRoom(B, room.workspaceId, 'bob');
      const a = await socketJoin(A, room.workspaceId, 'alice', room.userToken);
      expect(a.ack).toMatchObject({ success: true, user: { username: 'alice', isOwner: true, isAdmin: true } });
      const bobJoined = next(a.socket, S.userJoined, (p) => p.user.username === 'bob');
      const bobOnline = (async () => {
        const s = await connect(B);
        const online = next(s, S.onlineUsers);
        const ack = await request(s, C.joinWorkspace, {
          workspaceId: room.workspaceId,
          username: 'bob',
          userToken: bob.userToken,
        });
        return { socket: s, ack, online: await online };
      })();
      const b = await bobOnline;
      expect(b.ack).toMatchObject({ success: true, user: { username: 'bob', isAdmin: false, isOwner: false } });
      expect(b.online.users.map((u: { username: string }) => u.username).sort()).toEqual(['alice', 'bob']);
      expect((await bobJoined).user.username).toBe('bob');

      // Only the owner/admin may create a channel; the server refuses bob.
      const refused = await request(b.socket, C.createChannel, {
        workspaceId: room.workspaceId,
        name: 'nope',
        type: 'topic',
        isPrivate: false,
      });
      expect(refused).toMatchObject({ success: false, code: 'FORBIDDEN' });

      const seenByBob = next(b.socket, S.channelCreated, (c) => c.name === 'general');
      const created = await request(a.socket, C.createChannel, {
        workspaceId: room.workspaceId,
        name: 'general',
        type: 'topic',
        isPrivate: false,
      });
      if (!created.success) throw new Error(created.message);
      const channelId = created.channel.id;
      expect((await seenByBob).id).toBe(channelId);

      const joinA = await request(a.socket, C.joinChannel, { channelId });
      expect(joinA).toMatchObject({ success: true, messages: [], hasMore: false });
      await request(b.socket, C.joinChannel, { channelId });

      const bobGets = collect<Message>(b.socket, S.message);
      const aliceGets = collect<Message>(a.socket, S.message);
      const sent: string[] = [];
      for (let i = 0; i < 10; i++) {
        const [sock, text] = i % 2 === 0 ? [a.socket, `from alice ${i}`] : [b.socket, `from bob ${i}`];
        const ack = await request(sock, C.sendMessage, {
          clientMessageId: clientId(),
          channelId,
          content: text,
          type: 'text',
        });
        expect(ack.success).toBe(true);
        sent.push(text);
      }
      await waitFor(() => bobGets.length >= 10 && aliceGets.length >= 10);
      expect(bobGets.map((m) => m.content)).toEqual(sent);
      expect(aliceGets.map((m) => m.content)).toEqual(sent);
      const seqs = aliceGets.map((m) => m.seq);
      expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
      expect(new Set(seqs).size).toBe(10);

      // Reload: a fresh connection with the stored token sees the history.
      b.socket.close();
      const b2 = await socketJoin(B, room.workspaceId, 'bob', bob.userToken);
      const history = await request(b2.socket, C.joinChannel, { channelId });
      if (!history.success) throw new Error(history.message);
      expect(history.messages.map((m) => m.content)).toEqual(sent);
      a.socket.close();
      b2.socket.close();
    });

    it('presence: leaving (leave-workspace or a closed connection) tells the others with user-left; a left socket can no longer act', async () => {
      const { socket, channelId, workspaceId, bobToken } = await roomWithChannel(A, true);
      const bob = await socketJoin(B, workspaceId, 'bob', bobToken!);
      const bobLeft = next(socket, S.userLeft, (p) => p.username === 'bob');
      const left = await request(bob.socket, C.leaveWorkspace, { workspaceId });
      expect(left.success).toBe(true);
      expect((await bobLeft).workspaceId).toBe(workspaceId);
      const after = await request(bob.socket, C.sendMessage, {
        clientMessageId: clientId(),
        channelId,
        content: 'ghost',
        type: 'text',
      });
      expect(after).toMatchObject({ success: false, code: 'NOT_AUTHENTICATED' });
      const heard = collect(bob.socket, S.message);
      await request(socket, C.sendMessage, {
        clientMessageId: clientId(),
        channelId,
        content: 'after bob left',
        type: 'text',
      });
      await sleep(300);
      expect(heard).toHaveLength(0);

      // P10: leaving is the spec's logout: the token is revoked, so it cannot come back with it.
      const revoked = await request(bob.socket, C.joinWorkspace, {
        workspaceId,
        username: 'bob',
        userToken: bobToken!,
      });
      expect(revoked.success).toBe(false);

      // A closed connection (a closed tab) is only offline: user-left without the membership ending.
      const carol = await joinRoom(A, workspaceId, 'carol');
      const carolBack = next(socket, S.userJoined, (p) => p.user.username === 'carol');
      const tab = await socketJoin(B, workspaceId, 'carol', carol.userToken);
      await carolBack;
      const droppedOut = next(socket, S.userLeft, (p) => p.username === 'carol');
      tab.socket.close();
      const dropped = await droppedOut;
      expect(dropped.membershipEnded).toBeUndefined();
      bob.socket.close();
      socket.close();
    });

    it('P2 a retried send with the same client id is stored and delivered once', async () => {
      const { socket, channelId, workspaceId, token } = await roomWithChannel(A);
      const id = clientId();
      const got = collect<Message>(socket, S.message);
      const first = await request(socket, C.sendMessage, {
        clientMessageId: id,
        channelId,
        content: 'once',
        type: 'text',
      });
      const second = await request(socket, C.sendMessage, {
        clientMessageId: id,
        channelId,
        content: 'once',
        type: 'text',
      });
      if (!first.success || !second.success) throw new Error('send failed');
      expect(second.message.id).toBe(first.message.id);
      await waitFor(() => got.some((m) => m.clientMessageId === id));
      await sleep(500); // a second delivery would have arrived by now
      expect(got.filter((m) => m.clientMessageId === id)).toHaveLength(1);
      const page = await request(socket, C.fetchMessages, { channelId });
      if (!page.success) throw new Error(page.message);
      expect(page.messages.filter((m) => m.content === 'once')).toHaveLength(1);
      void workspaceId;
      void token;
      socket.close();
    });

    it('P4 older history loads page by page', async () => {
      const { socket, channelId } = await roomWithChannel(A);
      for (let i = 0; i < 60; i++)
        await request(socket, C.sendMessage, {
          clientMessageId: clientId(),
          channelId,
          content: `m${i}`,
          type: 'text',
        });
      const first = await request(socket, C.joinChannel, { channelId });
      if (!first.success) throw new Error(first.message);
      expect(first.messages).toHaveLength(50);
      expect(first.hasMore).toBe(true);
      expect(first.messages[49]!.content).toBe('m59');
      const older = await request(socket, C.fetchMessages, { channelId, beforeSeq: first.messages[0]!.seq });
      if (!older.success) throw new Error(older.message);
      expect(older.messages.map((m) => m.content)).toEqual(Array.from({ length: 10 }, (_, i) => `m${i}`));
      expect(older.hasMore).toBe(false);
      socket.close();
    });

    it('P3 after a dropped connection the client fetches what it missed by sequence number', async () => {
      const { socket, channelId, workspaceId, token, bobToken } = await roomWithChannel(A, true);
      const bob = await socketJoin(B, workspaceId, 'bob', bobToken!);
      const bobSees = next(bob.socket, S.message, (m) => m.content === 'before');
      const first = await request(socket, C.sendMessage, {
        clientMessageId: clientId(),
        channelId,
        content: 'before',
        type: 'text',
      });
      if (!first.success) throw new Error('send');
      await bobSees;
      bob.socket.close(); // bob drops
      for (const text of ['while away 1', 'while away 2'])
        await request(socket, C.sendMessage, { clientMessageId: clientId(), channelId, content: text, type: 'text' });
      const back = await socketJoin(B, workspaceId, 'bob', bobToken!);
      const sync = await request(back.socket, C.syncMessages, { workspaceId, afterSeq: first.message.seq });
      if (!sync.success) throw new Error(sync.message);
      expect(sync.messages.map((m) => m.content)).toEqual(['while away 1', 'while away 2']);
      expect(sync.lastSeq).toBe(first.message.seq + 2);
      void token;
      socket.close();
      back.socket.close();
    });

    it('P5 a socket that has not joined gets nothing from the room and cannot act in it', async () => {
      const { socket, channelId, workspaceId } = await roomWithChannel(A);
      const stranger = await connect(B);
      const heard = collect(stranger, S.message);
      const send = await request(stranger, C.sendMessage, {
        clientMessageId: clientId(),
        channelId,
        content: 'hi',
        type: 'text',
      });
      expect(send).toMatchObject({ success: false, code: 'NOT_AUTHENTICATED' });
      const read = await request(stranger, C.fetchMessages, { channelId });
      expect(read).toMatchObject({ success: false, code: 'NOT_AUTHENTICATED' });
      const forged = await request(stranger, C.joinWorkspace, {
        workspaceId,
        username: 'alice',
        userToken: 'x'.repeat(43),
      });
      expect(forged).toMatchObject({ success: false });
      await request(socket, C.sendMessage, { clientMessageId: clientId(), channelId, content: 'secret', type: 'text' });
      await sleep(300);
      expect(heard).toHaveLength(0);
      socket.close();
      stranger.close();
    });

    it('bad socket payloads and unknown events are refused with a clear error and change nothing', async () => {
      const { socket, channelId } = await roomWithChannel(A);
      const bad = [
        [
          C.sendMessage,
          { clientMessageId: clientId(), channelId, content: '   ', type: 'text' },
          'Message cannot be empty',
        ],
        [
          C.sendMessage,
          { clientMessageId: clientId(), channelId, content: 'x'.repeat(2001), type: 'text' },
          ERRORS.MESSAGE_TOO_LONG,
        ],
        [C.sendMessage, { clientMessageId: 'short', channelId, content: 'x', type: 'text' }, null],
        [C.sendMessage, null, null],
        [C.createChannel, { workspaceId: 'x', name: '   ' }, 'Channel name is required'],
        [C.joinChannel, { channelId: 'nope' }, ERRORS.CHANNEL_NOT_FOUND],
        ['delete-everything', {}, ERRORS.UNKNOWN_EVENT],
      ] as const;
      for (const [event, payload, text] of bad) {
        const ack: any = await socket.timeout(5000).emitWithAck(event, payload);
        expect(ack.success, event).toBe(false);
        if (text) expect(ack.message).toBe(text);
      }
      const page = await request(socket, C.fetchMessages, { channelId });
      if (!page.success) throw new Error(page.message);
      expect(page.messages).toHaveLength(0);
      socket.close();
    });

    it('text comes back byte-identical (quotes, NUL, Unicode)', async () => {
      const { socket, channelId } = await roomWithChannel(A);
      const texts = [
        `'; DROP TABLE messaging.messages; --`,
        'nul\u0000byte',
        '😀 ñ 中文 \u202e rtl',
        '<img src=x onerror=alert(1)>',
        'a\nb',
      ];
      for (const content of texts)
        await request(socket, C.sendMessage, { clientMessageId: clientId(), channelId, content, type: 'text' });
      const page = await request(socket, C.fetchMessages, { channelId });
      if (!page.success) throw new Error(page.message);
      expect(page.messages.map((m) => m.content)).toEqual(texts);
      socket.close();
    });

    it('P7 a room expires after 24 hours: joins and messages are refused and everything is removed', async () => {
      const { socket, channelId, workspaceId, name } = await roomWithChannel(A);
      await request(socket, C.sendMessage, {
        clientMessageId: clientId(),
        channelId,
        content: 'soon gone',
        type: 'text',
      });
      const deleted = next(socket, S.workspaceDeleted, () => true, 20_000);
      t.advanceClock(24 * 60 * 60 * 1000 + 1000);
      expect((await http(A, API.info(workspaceId))).body.message).toBe(ERRORS.WORKSPACE_NOT_FOUND);
      expect((await http(A, API.join(workspaceId), { body: { username: 'late' } })).status).toBe(404);
      const send = await request(socket, C.sendMessage, {
        clientMessageId: clientId(),
        channelId,
        content: 'too late',
        type: 'text',
      });
      expect(send.success).toBe(false);
      expect((await deleted).workspaceId).toBe(workspaceId);
      // swept: the name is free again and a new room by that name starts empty
      expect((await http(A, API.checkName(name))).body.available).toBe(true);
      const reborn = await createRoom(A, name, 'carol');
      expect(reborn.workspaceId).not.toBe(workspaceId);
      socket.close();
    });

    async function roomWithChannel(base: string, withBob = false) {
      const room = await createRoom(base);
      const bob = withBob ? await joinRoom(base, room.workspaceId, 'bob') : null;
      const { socket } = await socketJoin(base, room.workspaceId, 'alice', room.userToken);
      const created = await request(socket, C.createChannel, {
        workspaceId: room.workspaceId,
        name: 'general',
        type: 'topic',
        isPrivate: false,
      });
      if (!created.success) throw new Error(created.message);
      return {
        socket,
        channelId: created.channel.id,
        workspaceId: room.workspaceId,
        token: room.userToken,
        bobToken: bob?.userToken,
        name: room.name,
      };
    }
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export async function waitFor(cond: () => boolean, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(20);
  }
}
