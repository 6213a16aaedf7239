/**
 * The authorization table (proto/src/authz.ts), walked with real clients: for every client event, every role the
 * table refuses (among those a test can produce today: anonymous, non-member, left, member) sends a valid payload
 * and must be refused, while an observer in the room receives nothing (the refusal changed nothing that anyone
 * sees). An event without a table row or without a fixture here fails the suite, so a new event cannot ship
 * without its authorization.
 * Roles not produced here: 'admin' as distinct from the owner (no event grants it yet) and 'kicked' (kick-user
 * comes with the room-administration issue); their rows are enforced by the same authorize() calls.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Socket } from 'socket.io-client';
import {
  C, CLIENT_EVENTS, SOCKET_AUTHZ, HTTP_AUTHZ, HTTP_ROUTES, ROLES, S, type ClientEventName, type Role,
} from '@ephemera/proto';
import { connect, request, createRoom, joinRoom, socketJoin, clientId, http } from '../helpers/clients.ts';
import type { TargetRef } from './room-experience.ts';

/** The ids a fixture can use: all of them belong to room 1. */
interface Ctx { workspaceId: string; channelId: string; privateChannelId: string; dmChannelId: string; messageId: string; ownerId: string; memberId: string }

const FIXTURES: { [E in ClientEventName]: (c: Ctx) => unknown } = {
  [C.joinWorkspace]: (c) => ({ workspaceId: c.workspaceId, username: 'someone', userToken: 'x'.repeat(43) }),
  [C.createChannel]: (c) => ({ workspaceId: c.workspaceId, name: `authz-${Date.now().toString(36)}`, type: 'topic', isPrivate: false }),
  [C.joinChannel]: (c) => ({ channelId: c.channelId }),
  [C.sendMessage]: (c) => ({ clientMessageId: clientId(), channelId: c.channelId, content: 'not allowed', type: 'text' }),
  [C.fetchMessages]: (c) => ({ channelId: c.channelId }),
  [C.syncMessages]: (c) => ({ workspaceId: c.workspaceId, afterSeq: 0 }),
  [C.leaveWorkspace]: (c) => ({ workspaceId: c.workspaceId }),
  [C.createDmChannel]: (c) => ({ workspaceId: c.workspaceId, targetUserId: c.ownerId }),
  [C.deleteDm]: (c) => ({ workspaceId: c.workspaceId, channelId: c.dmChannelId }),
  [C.deleteChannel]: (c) => ({ workspaceId: c.workspaceId, channelId: c.channelId }),
  [C.renameChannel]: (c) => ({ workspaceId: c.workspaceId, channelId: c.channelId, newName: 'renamed' }),
  [C.updateChannelMembers]: (c) => ({ workspaceId: c.workspaceId, channelId: c.privateChannelId, add: [c.memberId] }),
  [C.editMessage]: (c) => ({ workspaceId: c.workspaceId, messageId: c.messageId, newContent: 'edited' }),
  [C.deleteMessage]: (c) => ({ workspaceId: c.workspaceId, messageId: c.messageId }),
  [C.addReaction]: (c) => ({ workspaceId: c.workspaceId, messageId: c.messageId, emoji: '👍' }),
  [C.markRead]: (c) => ({ channelId: c.channelId, seq: 1 }),
  [C.fetchChannelSummaries]: (c) => ({ workspaceId: c.workspaceId }),
  [C.searchMessages]: (c) => ({ workspaceId: c.workspaceId, query: 'hello' }),
  [C.typingStart]: (c) => ({ channelId: c.channelId }),
  [C.typingStop]: (c) => ({ channelId: c.channelId }),
  [C.updatePresence]: (c) => ({ workspaceId: c.workspaceId, status: 'busy' }),
  [C.updateProfile]: (c) => ({ workspaceId: c.workspaceId, username: 'renamed-user' }),
};

/** Events everyone in the room would see if a refused call had changed something. */
const OBSERVED = Object.values(S);
const REFUSALS = ['NOT_AUTHENTICATED', 'FORBIDDEN', 'NOT_A_MEMBER', 'CHANNEL_NOT_FOUND', 'MESSAGE_NOT_FOUND', 'WORKSPACE_NOT_FOUND', 'NOT_DM_MEMBER', 'USER_NOT_FOUND'];
const TESTED_ROLES: Role[] = ['anonymous', 'non-member', 'left', 'member'];

export function authzSuite(target: TargetRef) {
  describe('authorization table', () => {
    let ctx: Ctx;
    let owner: Socket;
    /** a member with a plain role, for rows that need owner or admin */
    let member: Socket;
    /** joined to another room: its ids are not room 1's */
    let outsider: Socket;
    /** joined room 1, then left: its socket's session is revoked and its token useless */
    let leaver: { socket: Socket; token: string; username: string };
    const sockets: Socket[] = [];

    beforeAll(async () => {
      const { A, B } = target();
      const room = await createRoom(A);
      const bob = await joinRoom(B, room.workspaceId, 'bob');
      const carol = await joinRoom(A, room.workspaceId, 'carol');
      owner = (await socketJoin(A, room.workspaceId, room.user.username, room.userToken)).socket;
      member = (await socketJoin(B, room.workspaceId, 'bob', bob.userToken)).socket;
      const other = await createRoom(B);
      outsider = (await socketJoin(B, other.workspaceId, other.user.username, other.userToken)).socket;
      const carolSocket = (await socketJoin(A, room.workspaceId, 'carol', carol.userToken)).socket;
      sockets.push(owner, member, outsider, carolSocket);

      const general = await request(owner, C.createChannel, { workspaceId: room.workspaceId, name: 'general', type: 'topic', isPrivate: false });
      const secret = await request(owner, C.createChannel, { workspaceId: room.workspaceId, name: 'secret', type: 'topic', isPrivate: true });
      const dm = await request(owner, C.createDmChannel, { workspaceId: room.workspaceId, targetUserId: bob.user.id });
      if (!general.success || !secret.success || !dm.success) throw new Error(`setup failed: ${JSON.stringify([general, secret, dm])}`);
      const sent = await request(owner, C.sendMessage, { clientMessageId: clientId(), channelId: general.channel.id, content: 'hello', type: 'text' });
      if (!sent.success) throw new Error(`setup send failed: ${sent.message}`);
      const left = await request(carolSocket, C.leaveWorkspace, { workspaceId: room.workspaceId });
      if (!left.success) throw new Error(`setup leave failed: ${left.message}`);
      leaver = { socket: carolSocket, token: carol.userToken, username: 'carol' };
      ctx = {
        workspaceId: room.workspaceId, channelId: general.channel.id, privateChannelId: secret.channel.id, dmChannelId: dm.channel.id,
        messageId: sent.message.id, ownerId: room.user.id, memberId: bob.user.id,
      };
      await new Promise((r) => setTimeout(r, 500)); // let the setup's own broadcasts arrive before observing
    });
    afterAll(() => { for (const s of sockets) s.disconnect(); });

    it('every client event has a row in the table and a fixture here; every row names only known roles', () => {
      for (const event of Object.keys(CLIENT_EVENTS)) {
        expect(SOCKET_AUTHZ[event as ClientEventName], `no authorization row for ${event}`).toBeDefined();
        expect(FIXTURES[event as ClientEventName], `no fixture for ${event}`).toBeDefined();
      }
      for (const rule of [...Object.values(SOCKET_AUTHZ), ...Object.values(HTTP_AUTHZ)]) {
        for (const role of rule.allow) expect(ROLES).toContain(role);
      }
      expect(Object.keys(HTTP_AUTHZ).sort()).toEqual(Object.keys(HTTP_ROUTES).sort());
    });

    /** The socket that plays the role; a fresh one for anonymous. */
    async function socketFor(role: Role): Promise<Socket> {
      switch (role) {
        case 'anonymous': { const s = await connect(target().A); sockets.push(s); return s; }
        case 'non-member': return outsider;
        case 'left': return leaver.socket;
        case 'member': return member;
        default: throw new Error(`no socket for ${role}`);
      }
    }

    for (const [event, rule] of Object.entries(SOCKET_AUTHZ) as [ClientEventName, (typeof SOCKET_AUTHZ)[ClientEventName]][]) {
      for (const role of TESTED_ROLES) {
        if (rule.allow.includes(role)) continue;
        it(`${event} is refused for ${role} and changes nothing`, async () => {
          const caller = await socketFor(role);
          const seen: string[] = [];
          const onAny = (name: string) => { if ((OBSERVED as string[]).includes(name)) seen.push(name); };
          owner.onAny(onAny);
          try {
            const ack = await request(caller, event, FIXTURES[event](ctx));
            expect(ack.success, JSON.stringify(ack)).toBe(false);
            if (!ack.success) expect(REFUSALS, `${event} as ${role}: ${ack.code} ${ack.message}`).toContain(ack.code);
            await new Promise((r) => setTimeout(r, 300));
            expect(seen, `${event} as ${role} reached the room`).toEqual([]);
          } finally {
            owner.offAny(onAny);
          }
        });
      }
    }

    it('join-workspace: a revoked token (left) and another room\'s token (non-member) are refused', async () => {
      const s = await connect(target().B);
      sockets.push(s);
      const revoked = await request(s, C.joinWorkspace, { workspaceId: ctx.workspaceId, username: leaver.username, userToken: leaver.token });
      expect(revoked.success).toBe(false);
      const foreign = await request(outsider, C.joinWorkspace, { workspaceId: ctx.workspaceId, username: 'mallory', userToken: 'y'.repeat(43) });
      expect(foreign.success).toBe(false);
    });

    it('payload user ids are never trusted: naming another user is refused', async () => {
      const ack = await request(member, C.updatePresence, { workspaceId: ctx.workspaceId, userId: ctx.ownerId, status: 'busy' });
      expect(ack.success).toBe(false);
      if (!ack.success) expect(ack.code).toBe('FORBIDDEN');
    });

    it('HTTP: the link-preview route refuses an anonymous caller', async () => {
      const res = await http(target().A, HTTP_ROUTES.linkPreview.path, { body: { url: 'https://example.com/' } });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('NOT_AUTHENTICATED');
    });
  });
}
