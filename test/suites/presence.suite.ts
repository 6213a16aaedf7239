/**
 * Typing and presence (docs/product/messages.md M11-M13) with real clients on both origins (in
 * distributed mode A and B are different gateway replicas, so every signal crosses Redis). Typing reaches only
 * those who can read the channel (public channels: one room broadcast, clients drop their own); status is the user's in the room, seen by everyone and by
 * later joiners. Rate limits: test/limits/. The sweep of a vanished gateway's typers: services/presence/test/.
 */
import { describe, it, expect } from 'vitest';
import type { Socket } from 'socket.io-client';
import { C, S } from '@ephemera/proto';
import type { TargetRef } from './target-ref.ts';
import { connect, request, next, collect, createRoom, joinRoom, socketJoin, uniqueName } from '../helpers/clients.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Long enough for a signal that should not come to have arrived through Redis and the other replica. */
const QUIET_MS = 400;

export function presenceSuite(target: TargetRef) {
  /** alice (owner, origin A), bob and carol (members, origin B), all online; a public channel. */
  async function room() {
    const { A, B } = target();
    const created = await createRoom(A, uniqueName('presence'), 'alice');
    const { workspaceId } = created;
    const bobJoin = await joinRoom(B, workspaceId, 'bob');
    const carolJoin = await joinRoom(B, workspaceId, 'carol');
    const alice = await socketJoin(A, workspaceId, 'alice', created.userToken);
    const bob = await socketJoin(B, workspaceId, 'bob', bobJoin.userToken);
    const carol = await socketJoin(B, workspaceId, 'carol', carolJoin.userToken);
    const general = await request(alice.socket, C.createChannel, {
      workspaceId,
      name: 'general',
      type: 'topic',
      isPrivate: false,
    });
    if (!general.success) throw new Error(general.message);
    const ids = {
      alice: alice.ack.success ? alice.ack.user.id : '',
      bob: bob.ack.success ? bob.ack.user.id : '',
      carol: carol.ack.success ? carol.ack.user.id : '',
    };
    const sockets = [alice.socket, bob.socket, carol.socket];
    return {
      workspaceId,
      channelId: general.channel.id,
      ids,
      alice: alice.socket,
      bob: bob.socket,
      carol: carol.socket,
      tokens: { alice: created.userToken, bob: bobJoin.userToken, carol: carolJoin.userToken },
      close: () => sockets.forEach((s) => s.close()),
    };
  }

  describe('presence', () => {
    it('typing in a public channel reaches every other member (both replicas); typing-stop ends it', async () => {
      const r = await room();
      const aliceHears = collect(r.alice, S.userTyping);
      const bobHears = next(r.bob, S.userTyping);
      const carolHears = next(r.carol, S.userTyping);
      const ack = await request(r.alice, C.typingStart, {
        channelId: r.channelId,
        userId: r.ids.alice,
        username: 'alice',
      });
      expect(ack).toEqual({ success: true });
      const expected = { workspaceId: r.workspaceId, channelId: r.channelId, userId: r.ids.alice, username: 'alice' };
      expect(await bobHears).toEqual(expected);
      expect(await carolHears).toEqual(expected);

      // bob (replica B) types back: alice on replica A hears it.
      const aliceHearsBob = next(r.alice, S.userTyping, (p) => p.userId === r.ids.bob);
      await request(r.bob, C.typingStart, { channelId: r.channelId });
      expect((await aliceHearsBob).username).toBe('bob');

      const bobStops = next(r.bob, S.userStoppedTyping, (p) => p.userId === r.ids.alice);
      const aliceStopsHeard = collect(r.alice, S.userStoppedTyping);
      expect(await request(r.alice, C.typingStop, { channelId: r.channelId, userId: r.ids.alice })).toEqual({
        success: true,
      });
      expect(await bobStops).toEqual({ workspaceId: r.workspaceId, channelId: r.channelId, userId: r.ids.alice });
      await sleep(QUIET_MS);
      // A public channel's typing is one broadcast to the room (uWS fast path): the typer's own sockets get it too,
      // named with the typer's id, and the client drops its own (frontend peopleSlice; docs/protocol.md P13).
      expect(aliceHears.filter((p) => p.userId === r.ids.alice).every((p) => p.channelId === r.channelId)).toBe(true);
      expect(aliceStopsHeard.filter((p) => p.userId === r.ids.alice).every((p) => p.channelId === r.channelId)).toBe(
        true,
      );
      r.close();
    });

    it('typing in a private channel or a DM reaches only its members; a non-member hears nothing and may not type there', async () => {
      const r = await room();
      const priv = await request(r.alice, C.createChannel, {
        workspaceId: r.workspaceId,
        name: 'secret',
        type: 'topic',
        isPrivate: true,
        memberIds: [r.ids.bob],
      });
      if (!priv.success) throw new Error(priv.message);
      const carolTyping = collect(r.carol, S.userTyping);
      const bobHears = next(r.bob, S.userTyping, (p) => p.channelId === priv.channel.id);
      await request(r.alice, C.typingStart, { channelId: priv.channel.id });
      expect((await bobHears).userId).toBe(r.ids.alice);

      // carol is no member: refused, and nobody hears her.
      const aliceTyping = collect(r.alice, S.userTyping);
      const refused = await request(r.carol, C.typingStart, { channelId: priv.channel.id });
      expect(refused).toMatchObject({ success: false, code: 'NOT_A_MEMBER' });

      const dm = await request(r.bob, C.createDmChannel, { workspaceId: r.workspaceId, targetUserId: r.ids.alice });
      if (!dm.success) throw new Error(dm.message);
      const aliceHearsDm = next(r.alice, S.userTyping, (p) => p.channelId === dm.channel.id);
      await request(r.bob, C.typingStart, { channelId: dm.channel.id });
      expect((await aliceHearsDm).userId).toBe(r.ids.bob);
      await sleep(QUIET_MS);
      expect(carolTyping).toEqual([]);
      expect(aliceTyping.filter((p) => p.userId === r.ids.carol)).toEqual([]);
      r.close();
    });

    it('a client that vanishes stops typing: its disconnect sends user-stopped-typing to the others', async () => {
      const r = await room();
      const bobHears = next(r.bob, S.userTyping);
      await request(r.alice, C.typingStart, { channelId: r.channelId });
      await bobHears;
      const stopped = next(r.bob, S.userStoppedTyping, (p) => p.userId === r.ids.alice);
      const carolStopped = next(r.carol, S.userStoppedTyping, (p) => p.userId === r.ids.alice);
      r.alice.close(); // the tab is gone; it never said typing-stop
      expect(await stopped).toEqual({ workspaceId: r.workspaceId, channelId: r.channelId, userId: r.ids.alice });
      await carolStopped;
      r.close();
    });

    it('update-presence away/busy reaches everyone; the online list of a later joiner and a new tab of the user show it', async () => {
      const r = await room();
      const bobSees = next(r.bob, S.userPresenceUpdated, (p) => p.userId === r.ids.alice);
      const carolSees = next(r.carol, S.userPresenceUpdated, (p) => p.userId === r.ids.alice);
      const ack = await request(r.alice, C.updatePresence, {
        workspaceId: r.workspaceId,
        userId: r.ids.alice,
        status: 'away',
      });
      expect(ack).toEqual({ success: true, status: 'away' });
      expect(await bobSees).toEqual({ workspaceId: r.workspaceId, userId: r.ids.alice, status: 'away' });
      expect((await carolSees).status).toBe('away');

      const aliceSees = next(r.alice, S.userPresenceUpdated, (p) => p.userId === r.ids.bob);
      await request(r.bob, C.updatePresence, { workspaceId: r.workspaceId, status: 'busy' });
      expect((await aliceSees).status).toBe('busy');

      // A later joiner (dave, replica A) sees both statuses in the online list.
      const { A, B } = target();
      const dave = await joinRoom(A, r.workspaceId, 'dave');
      const daveSocket = await connect(A);
      const online = next(daveSocket, S.onlineUsers);
      await request(daveSocket, C.joinWorkspace, {
        workspaceId: r.workspaceId,
        username: 'dave',
        userToken: dave.userToken,
      });
      const statusOf = (users: { username: string; presenceStatus: string }[]) =>
        Object.fromEntries(users.map((u) => [u.username, u.presenceStatus]));
      expect(statusOf((await online).users)).toEqual({ alice: 'away', bob: 'busy', carol: 'online', dave: 'online' });

      // alice opens a second tab (replica B): she is still away there.
      const tab = await connect(B);
      const tabOnline = next(tab, S.onlineUsers);
      await request(tab, C.joinWorkspace, { workspaceId: r.workspaceId, username: 'alice', userToken: r.tokens.alice });
      expect(statusOf((await tabOnline).users).alice).toBe('away');

      // Back online: everyone hears it.
      const carolSeesOnline = next(
        r.carol,
        S.userPresenceUpdated,
        (p) => p.userId === r.ids.alice && p.status === 'online',
      );
      await request(tab, C.updatePresence, { workspaceId: r.workspaceId, status: 'online' });
      await carolSeesOnline;
      tab.close();
      daveSocket.close();
      r.close();
    });

    it('a normal conversation is never rate-limited: two users, 30 messages in a few seconds, typing and presence', async () => {
      const r = await room();
      const acks: { success: boolean }[] = [];
      const bobGets = collect(r.bob, S.message);
      for (let i = 0; i < 30; i++) {
        const [sock, who] = i % 2 === 0 ? [r.alice, 'alice'] : [r.bob, 'bob'];
        // As the client does: typing while composing, refreshed, stopped on send; a glance away now and then.
        acks.push(await request(sock, C.typingStart, { channelId: r.channelId }));
        if (i % 5 === 0) acks.push(await request(sock, C.typingStart, { channelId: r.channelId }));
        acks.push(
          await request(sock, C.sendMessage, {
            clientMessageId: `n${i}${Date.now().toString(36)}`,
            channelId: r.channelId,
            content: `${who} says ${i}`,
            type: 'text',
          }),
        );
        acks.push(await request(sock, C.typingStop, { channelId: r.channelId }));
        if (i % 10 === 0) {
          acks.push(await request(sock, C.updatePresence, { workspaceId: r.workspaceId, status: 'away' }));
          acks.push(await request(sock, C.updatePresence, { workspaceId: r.workspaceId, status: 'online' }));
        }
        await sleep(100);
      }
      expect(acks.filter((a) => !a.success)).toEqual([]);
      await expect.poll(() => bobGets.length, { timeout: 10_000 }).toBe(30);
      r.close();
    });

    it("refusals: anonymous sockets and a payload userId that is not the session's change nothing and reach nobody", async () => {
      const r = await room();
      const { A, B } = target();
      const heard: unknown[] = [];
      for (const s of [r.alice, r.bob, r.carol] as Socket[]) {
        for (const e of [S.userTyping, S.userStoppedTyping, S.userPresenceUpdated])
          s.on(e, (p: unknown) => heard.push(p));
      }
      const anon = await connect(B);
      expect(await request(anon, C.typingStart, { channelId: r.channelId })).toMatchObject({
        success: false,
        code: 'NOT_AUTHENTICATED',
      });
      expect(await request(anon, C.typingStop, { channelId: r.channelId })).toMatchObject({
        success: false,
        code: 'NOT_AUTHENTICATED',
      });
      expect(await request(anon, C.updatePresence, { workspaceId: r.workspaceId, status: 'busy' })).toMatchObject({
        success: false,
        code: 'NOT_AUTHENTICATED',
      });

      // bob claims to be alice, or to act in another room.
      expect(await request(r.bob, C.typingStart, { channelId: r.channelId, userId: r.ids.alice })).toMatchObject({
        success: false,
        code: 'FORBIDDEN',
      });
      expect(await request(r.bob, C.typingStop, { channelId: r.channelId, userId: r.ids.alice })).toMatchObject({
        success: false,
        code: 'FORBIDDEN',
      });
      expect(
        await request(r.bob, C.updatePresence, { workspaceId: r.workspaceId, userId: r.ids.alice, status: 'busy' }),
      ).toMatchObject({ success: false, code: 'FORBIDDEN' });
      const other = await createRoom(A, uniqueName('other'), 'zed');
      expect(await request(r.bob, C.updatePresence, { workspaceId: other.workspaceId, status: 'busy' })).toMatchObject({
        success: false,
        code: 'FORBIDDEN',
      });
      // Bad payloads: an unknown status, a missing channel.
      expect(await request(r.bob, C.updatePresence, { workspaceId: r.workspaceId, status: 'invisible' })).toMatchObject(
        { success: false, code: 'VALIDATION' },
      );
      expect(await request(r.bob, C.typingStart, {})).toMatchObject({ success: false, code: 'VALIDATION' });
      await sleep(QUIET_MS);
      expect(heard).toEqual([]);
      const online = await (async () => {
        const s = await connect(A);
        const list = next(s, S.onlineUsers);
        const dave = await joinRoom(A, r.workspaceId, 'dave');
        await request(s, C.joinWorkspace, { workspaceId: r.workspaceId, username: 'dave', userToken: dave.userToken });
        const users = (await list).users as { username: string; presenceStatus: string }[];
        s.close();
        return users;
      })();
      expect(online.every((u) => u.presenceStatus === 'online')).toBe(true);
      anon.close();
      r.close();
    });
  });
}
