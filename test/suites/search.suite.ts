/**
 * Message search over the real protocol (search-messages): exact normalized words, newest first, at most 10, only
 * in channels the searcher may read; edits and deletions are reflected.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Socket } from 'socket.io-client';
import { C, LIMITS, type Message } from '@ephemera/proto';
import { request, createRoom, joinRoom, socketJoin, clientId } from '../helpers/clients.ts';
import type { TargetRef } from './target-ref.ts';

export function searchSuite(target: TargetRef) {
  describe('search', () => {
    let workspaceId: string;
    let alice: Socket;
    let bob: Socket;
    let general: string;
    let secret: string;

    async function send(socket: Socket, channelId: string, content: string): Promise<Message> {
      const ack = await request(socket, C.sendMessage, {
        clientMessageId: clientId(),
        channelId,
        content,
        type: 'text',
      });
      if (!ack.success) throw new Error(`send failed: ${ack.message}`);
      return ack.message;
    }
    async function search(socket: Socket, query: string): Promise<string[]> {
      const ack = await request(socket, C.searchMessages, { workspaceId, query });
      if (!ack.success) throw new Error(`search failed: ${ack.code} ${ack.message}`);
      return ack.messages.map((m) => m.content);
    }

    beforeAll(async () => {
      const { A, B } = target();
      const room = await createRoom(A);
      workspaceId = room.workspaceId;
      const b = await joinRoom(B, workspaceId, 'bob');
      alice = (await socketJoin(A, workspaceId, room.user.username, room.userToken)).socket;
      bob = (await socketJoin(B, workspaceId, 'bob', b.userToken)).socket;
      const g = await request(alice, C.createChannel, {
        workspaceId,
        name: 'general',
        type: 'topic',
        isPrivate: false,
      });
      const s = await request(alice, C.createChannel, { workspaceId, name: 'secret', type: 'topic', isPrivate: true });
      if (!g.success || !s.success) throw new Error('setup failed');
      general = g.channel.id;
      secret = s.channel.id;
      await send(alice, general, 'The quick brown fox');
      await send(alice, secret, 'Fox den behind the barn');
      await send(bob, general, 'Café au lait, anyone?');
    });
    afterAll(() => {
      alice?.disconnect();
      bob?.disconnect();
    });

    it('finds exact words case- and accent-insensitively, newest first', async () => {
      expect(await search(alice, 'FOX')).toEqual(['Fox den behind the barn', 'The quick brown fox']);
      expect(await search(alice, 'cafe')).toEqual(['Café au lait, anyone?']);
      expect(await search(alice, 'quick fox')).toEqual(['The quick brown fox']);
      expect(await search(alice, 'qui')).toEqual([]); // exact words only: the index holds keyed hashes, not text
      expect(await search(alice, 'nothing-like-this')).toEqual([]);
    });

    it('never answers messages of a private channel to a non-member', async () => {
      expect(await search(bob, 'fox')).toEqual(['The quick brown fox']);
      expect(await search(bob, 'barn')).toEqual([]);
    });

    it(`answers at most ${LIMITS.searchResultsMax} messages, the newest`, async () => {
      for (let i = 0; i < 12; i++) await send(bob, general, `flood number ${i}`);
      const found = await search(alice, 'flood');
      expect(found).toHaveLength(LIMITS.searchResultsMax);
      expect(found[0]).toBe('flood number 11');
      expect(found.at(-1)).toBe('flood number 2');
    });

    it('follows edits and deletions', async () => {
      const m = await send(bob, general, 'original wording here');
      const edited = await request(bob, C.editMessage, {
        workspaceId,
        messageId: m.id,
        newContent: 'revised wording here',
      });
      expect(edited.success).toBe(true);
      expect(await search(alice, 'original')).toEqual([]);
      expect(await search(alice, 'revised')).toEqual(['revised wording here']);
      const deleted = await request(bob, C.deleteMessage, { workspaceId, messageId: m.id });
      expect(deleted.success).toBe(true);
      expect(await search(alice, 'revised')).toEqual([]);
    });

    it("refuses an empty query and another room's id", async () => {
      const empty = await request(alice, C.searchMessages, { workspaceId, query: '   ' });
      expect(empty.success).toBe(false);
      const other = await request(alice, C.searchMessages, { workspaceId: 'not-this-room', query: 'fox' });
      expect(other.success).toBe(false);
    });
  });
}
