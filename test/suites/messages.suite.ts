/**
 * Messages in the room experience (docs/product/messages.md M1-M9): replies, edits, deletes, reactions,
 * read positions and the sidebar's channel summaries, over the real protocol with several clients. Alice (the
 * owner) is on origin A, Bob on origin B (another gateway replica in distributed mode), Carol on A.
 */
import { describe, it, expect, afterAll } from 'vitest';
import type { Socket } from 'socket.io-client';
import { C, S, ERRORS, type ChannelSummary, type Message } from '@ephemera/proto';
import { connect, request, next, collect, createRoom, joinRoom, socketJoin, clientId } from '../helpers/clients.ts';
import type { TargetRef } from './target-ref.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function messagesSuite(target: TargetRef) {
  describe('messages', () => {
    const sockets: Socket[] = [];
    afterAll(() => {
      for (const s of sockets) s.disconnect();
    });

    /** A room with alice (owner), bob and carol online, a public channel and a private one of alice and carol. */
    async function room() {
      const { A, B } = target();
      const created = await createRoom(A);
      const workspaceId = created.workspaceId;
      const bobJoin = await joinRoom(B, workspaceId, 'bob');
      const carolJoin = await joinRoom(A, workspaceId, 'carol');
      const alice = (await socketJoin(A, workspaceId, created.user.username, created.userToken)).socket;
      const bob = (await socketJoin(B, workspaceId, 'bob', bobJoin.userToken)).socket;
      const carol = (await socketJoin(A, workspaceId, 'carol', carolJoin.userToken)).socket;
      sockets.push(alice, bob, carol);
      const general = await request(alice, C.createChannel, {
        workspaceId,
        name: 'general',
        type: 'topic',
        isPrivate: false,
      });
      const secret = await request(alice, C.createChannel, {
        workspaceId,
        name: 'secret',
        type: 'topic',
        isPrivate: true,
        memberIds: [carolJoin.user.id],
      });
      if (!general.success || !secret.success) throw new Error(`setup failed: ${JSON.stringify([general, secret])}`);
      return {
        workspaceId,
        alice,
        bob,
        carol,
        general: general.channel.id,
        secret: secret.channel.id,
        ids: { alice: created.user.id, bob: bobJoin.user.id, carol: carolJoin.user.id },
        tokens: { bob: bobJoin.userToken },
      };
    }

    async function send(
      socket: Socket,
      channelId: string,
      content: string,
      extra: Record<string, unknown> = {},
    ): Promise<Message> {
      const ack = await request(socket, C.sendMessage, {
        clientMessageId: clientId(),
        channelId,
        content,
        type: 'text',
        ...extra,
      });
      if (!ack.success) throw new Error(`send failed: ${ack.message}`);
      return ack.message;
    }

    async function summaries(socket: Socket, workspaceId: string): Promise<Map<string, ChannelSummary>> {
      const ack = await request(socket, C.fetchChannelSummaries, { workspaceId });
      if (!ack.success) throw new Error(`summaries failed: ${ack.message}`);
      return new Map(ack.summaries.map((s) => [s.channelId, s]));
    }

    it('reply: the quote is taken from the stored message, whatever the client sends', async () => {
      const r = await room();
      const original = await send(r.alice, r.general, 'the original words');
      const aliceSees = next<Message>(r.alice, S.message, (m) => m.content === 'a reply');
      const reply = await send(r.bob, r.general, 'a reply', {
        replyTo: { messageId: original.id, content: 'forged words', authorName: 'mallory' },
      });
      const quote = { messageId: original.id, content: 'the original words', authorName: 'alice' };
      expect(reply.replyTo).toEqual(quote);
      expect((await aliceSees).replyTo).toEqual(quote);
      const history = await request(r.carol, C.fetchMessages, { channelId: r.general });
      if (!history.success) throw new Error(history.message);
      expect(history.messages.find((m) => m.id === reply.id)?.replyTo).toEqual(quote);
    });

    it('reply: to an unknown, deleted or other-channel message is refused with the text and sends nothing', async () => {
      const r = await room();
      const gone = await send(r.alice, r.general, 'soon gone');
      expect(await request(r.alice, C.deleteMessage, { workspaceId: r.workspaceId, messageId: gone.id })).toMatchObject(
        { success: true },
      );
      const elsewhere = await send(r.alice, r.secret, 'in the private channel');
      const heard = collect<Message>(r.alice, S.message);
      for (const messageId of ['no-such-message', gone.id, elsewhere.id]) {
        const ack = await request(r.bob, C.sendMessage, {
          clientMessageId: clientId(),
          channelId: r.general,
          content: 'refused reply',
          type: 'text',
          replyTo: { messageId },
        });
        expect(ack, messageId).toMatchObject({
          success: false,
          code: 'REPLY_TARGET_GONE',
          message: ERRORS.REPLY_TARGET_GONE,
        });
      }
      const later = next<Message>(r.alice, S.message, (m) => m.content === 'after the refusals');
      await send(r.bob, r.general, 'after the refusals');
      await later; // delivered in order: a refused reply would have arrived before it
      expect(heard.filter((m) => m.content === 'refused reply')).toEqual([]);
    });

    it('edit: the author edits, everyone who can read the channel gets message-edited, history shows it', async () => {
      const r = await room();
      const m = await send(r.alice, r.general, 'first draft');
      const bobSees = next(r.bob, S.messageEdited, (p) => p.messageId === m.id);
      const carolSees = next(r.carol, S.messageEdited, (p) => p.messageId === m.id);
      const ack = await request(r.alice, C.editMessage, {
        workspaceId: r.workspaceId,
        messageId: m.id,
        newContent: '  final words  ',
      });
      if (!ack.success) throw new Error(ack.message);
      expect(ack.message).toMatchObject({ id: m.id, content: 'final words', isEdited: true });
      expect(typeof ack.message.editedAt).toBe('string');
      for (const seen of [await bobSees, await carolSees]) {
        expect(seen).toMatchObject({
          workspaceId: r.workspaceId,
          channelId: r.general,
          messageId: m.id,
          content: 'final words',
          isEdited: true,
          editedAt: ack.message.editedAt,
        });
      }
      const history = await request(r.bob, C.fetchMessages, { channelId: r.general });
      if (!history.success) throw new Error(history.message);
      expect(history.messages.find((x) => x.id === m.id)).toMatchObject({
        content: 'final words',
        isEdited: true,
        editedAt: ack.message.editedAt,
      });
    });

    it("edit: a private channel's edit reaches only its members", async () => {
      const r = await room();
      const m = await send(r.carol, r.secret, 'between us');
      const bobHeard = collect(r.bob, S.messageEdited);
      const aliceSees = next(r.alice, S.messageEdited, (p) => p.messageId === m.id);
      expect(
        await request(r.carol, C.editMessage, {
          workspaceId: r.workspaceId,
          messageId: m.id,
          newContent: 'still between us',
        }),
      ).toMatchObject({ success: true });
      expect((await aliceSees).content).toBe('still between us');
      await sleep(300);
      expect(bobHeard).toEqual([]);
    });

    it('edit: a non-author is refused with the text, an empty edit is refused, nothing changes', async () => {
      const r = await room();
      const m = await send(r.alice, r.general, 'mine');
      const heard = collect(r.carol, S.messageEdited);
      const notAuthor = await request(r.bob, C.editMessage, {
        workspaceId: r.workspaceId,
        messageId: m.id,
        newContent: 'hijacked',
      });
      expect(notAuthor).toMatchObject({ success: false, code: 'NOT_AUTHOR', message: ERRORS.NOT_AUTHOR });
      const empty = await request(r.alice, C.editMessage, {
        workspaceId: r.workspaceId,
        messageId: m.id,
        newContent: '   ',
      });
      expect(empty).toMatchObject({ success: false, code: 'VALIDATION', message: ERRORS.MESSAGE_EMPTY });
      const unknown = await request(r.alice, C.editMessage, {
        workspaceId: r.workspaceId,
        messageId: 'no-such-message',
        newContent: 'x',
      });
      expect(unknown).toMatchObject({ success: false, code: 'MESSAGE_NOT_FOUND' });
      await sleep(300);
      expect(heard).toEqual([]);
      const history = await request(r.carol, C.fetchMessages, { channelId: r.general });
      if (!history.success) throw new Error(history.message);
      expect(history.messages.find((x) => x.id === m.id)).toMatchObject({ content: 'mine', isEdited: false });
    });

    it('delete: the author deletes, everyone gets message-deleted, it is gone from history, sync and summaries', async () => {
      const r = await room();
      const kept = await send(r.alice, r.general, 'kept');
      const m = await send(r.alice, r.general, 'regrettable');
      const refused = await request(r.bob, C.deleteMessage, { workspaceId: r.workspaceId, messageId: m.id });
      expect(refused).toMatchObject({ success: false, code: 'NOT_AUTHOR', message: ERRORS.NOT_AUTHOR });
      const bobSees = next(r.bob, S.messageDeleted, (p) => p.messageId === m.id);
      const carolSees = next(r.carol, S.messageDeleted, (p) => p.messageId === m.id);
      expect(await request(r.alice, C.deleteMessage, { workspaceId: r.workspaceId, messageId: m.id })).toEqual({
        success: true,
        messageId: m.id,
      });
      expect(await bobSees).toEqual({ workspaceId: r.workspaceId, channelId: r.general, messageId: m.id });
      await carolSees;
      const history = await request(r.bob, C.fetchMessages, { channelId: r.general });
      const sync = await request(r.bob, C.syncMessages, { workspaceId: r.workspaceId, afterSeq: 0 });
      if (!history.success || !sync.success) throw new Error('read failed');
      expect(history.messages.map((x) => x.id)).toEqual([kept.id]);
      expect(sync.messages.map((x) => x.id)).toEqual([kept.id]);
      expect(sync.lastSeq).toBe(m.seq);
      const general = (await summaries(r.bob, r.workspaceId)).get(r.general)!;
      expect(general.lastMessage?.id).toBe(kept.id);
      expect(general.unreadCount).toBe(1);
      const again = await request(r.alice, C.deleteMessage, { workspaceId: r.workspaceId, messageId: m.id });
      expect(again).toMatchObject({ success: false, code: 'MESSAGE_NOT_FOUND' });
      const editGone = await request(r.alice, C.editMessage, {
        workspaceId: r.workspaceId,
        messageId: m.id,
        newContent: 'back',
      });
      expect(editGone).toMatchObject({ success: false, code: 'MESSAGE_NOT_FOUND' });
    });

    it('reactions: add, the same again removes, another moves; every client converges on the same map', async () => {
      const r = await room();
      const m = await send(r.alice, r.general, 'react to me');
      const seen = [r.alice, r.bob, r.carol].map((s) =>
        collect<{ messageId: string; reactions: Record<string, string[]> }>(s, S.reactionAdded),
      );
      const react = async (socket: Socket, emoji: string) => {
        const ack = await request(socket, C.addReaction, { workspaceId: r.workspaceId, messageId: m.id, emoji });
        if (!ack.success) throw new Error(ack.message);
        return ack.reactions;
      };
      expect(await react(r.bob, '👍')).toEqual({ '👍': [r.ids.bob] });
      expect(await react(r.alice, '👍')).toEqual({ '👍': [r.ids.bob, r.ids.alice] });
      expect(await react(r.bob, '👍')).toEqual({ '👍': [r.ids.alice] }); // same again: removed
      expect(await react(r.alice, '❤️')).toEqual({ '❤️': [r.ids.alice] }); // moved; the empty 👍 entry is dropped
      const final = { '❤️': [r.ids.alice] };
      const deadline = Date.now() + 5_000;
      while (seen.some((s) => s.length < 4) && Date.now() < deadline) await sleep(50);
      for (const s of seen) {
        expect(s).toHaveLength(4);
        expect(s[3]!.reactions).toEqual(final);
      }
      const history = await request(r.carol, C.fetchMessages, { channelId: r.general });
      if (!history.success) throw new Error(history.message);
      expect(history.messages.find((x) => x.id === m.id)?.reactions).toEqual(final);
    });

    it('reactions: a non-member of a private channel cannot react there, and nobody hears of it', async () => {
      const r = await room();
      const m = await send(r.carol, r.secret, 'private thought');
      const heard = collect(r.carol, S.reactionAdded);
      const ack = await request(r.bob, C.addReaction, { workspaceId: r.workspaceId, messageId: m.id, emoji: '👍' });
      expect(ack).toMatchObject({ success: false, code: 'NOT_A_MEMBER', message: ERRORS.NOT_A_MEMBER });
      await sleep(300);
      expect(heard).toEqual([]);
      const own = await request(r.alice, C.addReaction, { workspaceId: r.workspaceId, messageId: m.id, emoji: '🙏' });
      expect(own).toMatchObject({ success: true, reactions: { '🙏': [r.ids.alice] } });
    });

    it('mark-read and summaries: unread counts follow the spec, survive a reconnect and a second device', async () => {
      const r = await room();
      const { B } = target();
      const m1 = await send(r.alice, r.general, 'one');
      const m2 = await send(r.alice, r.general, 'two');
      await send(r.bob, r.general, 'my own never counts');
      const m3 = await send(r.alice, r.general, 'three');
      let bob = await summaries(r.bob, r.workspaceId);
      expect([...bob.keys()]).not.toContain(r.secret); // a private channel bob is not in is not summarized
      expect(bob.get(r.general)).toMatchObject({ unreadCount: 3, readSeq: 0, lastMessage: { id: m3.id } });

      expect(await request(r.bob, C.markRead, { channelId: r.general, seq: m2.seq })).toEqual({
        success: true,
        channelId: r.general,
        seq: m2.seq,
      });
      expect((await summaries(r.bob, r.workspaceId)).get(r.general)).toMatchObject({ unreadCount: 1, readSeq: m2.seq });
      // backwards: nothing moves; the answer is the current position
      expect(await request(r.bob, C.markRead, { channelId: r.general, seq: m1.seq })).toMatchObject({
        success: true,
        seq: m2.seq,
      });
      // beyond the newest message: capped at it
      expect(await request(r.bob, C.markRead, { channelId: r.general, seq: m3.seq + 1000 })).toMatchObject({
        success: true,
        seq: m3.seq,
      });

      // a reconnect (a reload) and a second device see the same position
      r.bob.disconnect();
      const bob2 = (await socketJoin(B, r.workspaceId, 'bob', r.tokens.bob)).socket;
      const bob3 = (await socketJoin(target().A, r.workspaceId, 'bob', r.tokens.bob)).socket;
      sockets.push(bob2, bob3);
      for (const s of [bob2, bob3]) {
        bob = await summaries(s, r.workspaceId);
        expect(bob.get(r.general)).toMatchObject({ unreadCount: 0, readSeq: m3.seq });
      }
      // alice's own messages never count for her; bob's read position shows as read by someone else
      const alice = (await summaries(r.alice, r.workspaceId)).get(r.general)!;
      expect(alice).toMatchObject({ unreadCount: 1, readSeq: 0, othersReadSeq: m3.seq });
      await send(r.alice, r.general, 'four');
      expect((await summaries(bob3, r.workspaceId)).get(r.general)).toMatchObject({ unreadCount: 1, readSeq: m3.seq });
    });

    it('mentions: summaries count the unread messages of others that mention the member, on every device', async () => {
      const r = await room();
      const ok = (ack: { success: boolean }) => expect(ack).toMatchObject({ success: true });
      await send(r.alice, r.general, '@bob look');
      await send(r.alice, r.general, 'not `@bob` in code');
      await send(r.bob, r.general, '@bob my own never counts');
      const carols = await send(r.carol, r.general, 'hey @Bob and @alice');
      const edited = await send(r.alice, r.general, 'to be edited');
      const gone = await send(r.alice, r.general, '@bob soon deleted');
      ok(
        await request(r.alice, C.editMessage, {
          workspaceId: r.workspaceId,
          messageId: edited.id,
          newContent: 'now @bob',
        }),
      );
      ok(await request(r.alice, C.deleteMessage, { workspaceId: r.workspaceId, messageId: gone.id }));
      expect((await summaries(r.bob, r.workspaceId)).get(r.general)).toMatchObject({ unreadCount: 4, mentionCount: 3 });
      expect((await summaries(r.alice, r.workspaceId)).get(r.general)).toMatchObject({ mentionCount: 1 });
      ok(await request(r.bob, C.markRead, { channelId: r.general, seq: carols.seq }));
      // another device sees what is left above the read position
      const bob2 = (await socketJoin(target().A, r.workspaceId, 'bob', r.tokens.bob)).socket;
      sockets.push(bob2);
      expect((await summaries(bob2, r.workspaceId)).get(r.general)).toMatchObject({ unreadCount: 1, mentionCount: 1 });
    });

    it('mark-read in a DM: the partner gets read-position-updated and othersReadSeq moves', async () => {
      const r = await room();
      const dm = await request(r.alice, C.createDmChannel, { workspaceId: r.workspaceId, targetUserId: r.ids.bob });
      if (!dm.success) throw new Error(`create-dm failed: ${dm.message}`);
      const channelId = dm.channel.id;
      const m = await send(r.alice, channelId, 'psst');
      expect((await summaries(r.bob, r.workspaceId)).get(channelId)).toMatchObject({ unreadCount: 1, readSeq: 0 });
      expect((await summaries(r.alice, r.workspaceId)).get(channelId)).toMatchObject({
        unreadCount: 0,
        othersReadSeq: 0,
      });
      expect([...(await summaries(r.carol, r.workspaceId)).keys()]).not.toContain(channelId);
      const carolHeard = collect(r.carol, S.readPositionUpdated);
      const aliceSees = next(r.alice, S.readPositionUpdated, (p) => p.channelId === channelId);
      expect(await request(r.bob, C.markRead, { channelId, seq: m.seq })).toMatchObject({ success: true, seq: m.seq });
      expect(await aliceSees).toEqual({ workspaceId: r.workspaceId, channelId, userId: r.ids.bob, seq: m.seq });
      expect((await summaries(r.alice, r.workspaceId)).get(channelId)).toMatchObject({ othersReadSeq: m.seq });
      expect((await summaries(r.bob, r.workspaceId)).get(channelId)).toMatchObject({ unreadCount: 0, readSeq: m.seq });
      // a member outside the DM can neither mark it nor hears the receipt
      expect(await request(r.carol, C.markRead, { channelId, seq: m.seq })).toMatchObject({
        success: false,
        code: 'NOT_A_MEMBER',
      });
      await sleep(300);
      expect(carolHeard).toEqual([]);
    });

    it('refusals by role: anonymous, a member of another room and a member who left are refused every message event', async () => {
      const r = await room();
      const { A, B } = target();
      const m = await send(r.alice, r.general, 'target');
      const other = await createRoom(B);
      const outsider = (await socketJoin(B, other.workspaceId, other.user.username, other.userToken)).socket;
      const anonymous = await connect(A);
      sockets.push(outsider, anonymous);
      const events = (workspaceId: string) =>
        [
          [C.editMessage, { workspaceId, messageId: m.id, newContent: 'x' }],
          [C.deleteMessage, { workspaceId, messageId: m.id }],
          [C.addReaction, { workspaceId, messageId: m.id, emoji: '👍' }],
          [C.markRead, { channelId: r.general, seq: m.seq }],
          [C.fetchChannelSummaries, { workspaceId }],
          [
            C.sendMessage,
            {
              clientMessageId: clientId(),
              channelId: r.general,
              content: 'x',
              type: 'text',
              replyTo: { messageId: m.id },
            },
          ],
        ] as const;
      const aliceHeard: string[] = [];
      r.alice.onAny((name: string) => {
        if (
          [S.message, S.messageEdited, S.messageDeleted, S.reactionAdded, S.readPositionUpdated].includes(name as never)
        )
          aliceHeard.push(name);
      });
      for (const [event, payload] of events(r.workspaceId)) {
        expect(await request(anonymous, event, payload), `${event} anonymous`).toMatchObject({
          success: false,
          code: 'NOT_AUTHENTICATED',
        });
      }
      // the outsider's session is another room's: room 1's ids are refused (its own room has no such message or channel)
      const ownRoomIds = events(other.workspaceId).filter(([event]) => event !== C.fetchChannelSummaries); // its own room's summaries are its own
      for (const [event, payload] of [...ownRoomIds, ...events(r.workspaceId)]) {
        const ack = await request(outsider, event, payload);
        expect(ack.success, `${event} outsider`).toBe(false);
        if (!ack.success) expect(['FORBIDDEN', 'MESSAGE_NOT_FOUND', 'CHANNEL_NOT_FOUND']).toContain(ack.code);
      }
      // carol leaves: her session ends everywhere and her events are refused
      expect(await request(r.carol, C.leaveWorkspace, { workspaceId: r.workspaceId })).toMatchObject({ success: true });
      for (const [event, payload] of events(r.workspaceId)) {
        expect(await request(r.carol, event, payload), `${event} left`).toMatchObject({
          success: false,
          code: 'NOT_AUTHENTICATED',
        });
      }
      await sleep(300);
      expect(aliceHeard).toEqual([]);
    });
  });
}
