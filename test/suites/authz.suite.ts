/**
 * The authorization table (proto/src/authz.ts), walked with real clients: for every client event, every role the
 * table refuses (anonymous, non-member, left, kicked, member, admin) sends a valid payload and must be refused,
 * while an observer in the room receives nothing (the refusal changed nothing that anyone sees). An event without a
 * table row or without a fixture here fails the suite, so a new event cannot ship without its authorization.
 * The admin is a member the owner promoted (set-member-role); the kicked user's socket was disconnected by the kick
 * and its token refused (KICKED) on a fresh connection, so what it sends next is refused too.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Socket } from 'socket.io-client';
import {
  C,
  CLIENT_EVENTS,
  SOCKET_AUTHZ,
  HTTP_AUTHZ,
  HTTP_ROUTES,
  ROLES,
  S,
  type ClientEventName,
  type Role,
} from '@ephemera/proto';
import { connect, request, createRoom, joinRoom, socketJoin, clientId, http } from '../helpers/clients.ts';
import type { TargetRef } from './target-ref.ts';
import { ownRowTests, type OwnRowsWorld } from './authz-own-rows.suite.ts';

/** The ids a fixture can use: all of them belong to room 1. */
interface Ctx {
  workspaceId: string;
  channelId: string;
  privateChannelId: string;
  dmChannelId: string;
  messageId: string;
  ownerId: string;
  memberId: string;
  name: string;
}

const FIXTURES: { [E in ClientEventName]: (c: Ctx) => unknown } = {
  [C.joinWorkspace]: (c) => ({ workspaceId: c.workspaceId, username: 'someone', userToken: 'x'.repeat(43) }),
  [C.createChannel]: (c) => ({
    workspaceId: c.workspaceId,
    name: `authz-${Date.now().toString(36)}`,
    type: 'topic',
    isPrivate: false,
  }),
  [C.joinChannel]: (c) => ({ channelId: c.channelId }),
  [C.sendMessage]: (c) => ({
    clientMessageId: clientId(),
    channelId: c.channelId,
    content: 'not allowed',
    type: 'text',
  }),
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
  [C.fetchOnlineUsers]: (c) => ({ workspaceId: c.workspaceId }),
  [C.updateProfile]: (c) => ({ workspaceId: c.workspaceId, username: 'renamed-user' }),
  [C.renameWorkspace]: (c) => ({ workspaceId: c.workspaceId, newName: `${c.name}-renamed` }),
  [C.setWorkspacePassword]: (c) => ({ workspaceId: c.workspaceId, password: 'not-allowed' }),
  [C.setWorkspaceMaxUsers]: (c) => ({ workspaceId: c.workspaceId, maxUsers: 3 }),
  [C.extendWorkspace]: (c) => ({ workspaceId: c.workspaceId, additionalHours: 168 }),
  [C.deleteWorkspace]: (c) => ({ workspaceId: c.workspaceId }),
  [C.kickUser]: (c) => ({ workspaceId: c.workspaceId, userId: c.memberId }),
  [C.setMemberRole]: (c) => ({ workspaceId: c.workspaceId, userId: c.memberId, isAdmin: true }),
  [C.broadcastTheme]: (c) => ({ workspaceId: c.workspaceId, themeId: 'dark' }),
  // calls: the DM is the owner's with the member; a refused caller rings nobody (no incoming-call reaches the owner)
  [C.startCall]: (c) => ({ channelId: c.dmChannelId, targetUserId: c.ownerId, callType: 'audio' }),
  [C.acceptCall]: (c) => ({ channelId: c.dmChannelId, callerId: c.ownerId }),
  [C.rejectCall]: (c) => ({ channelId: c.dmChannelId, callerId: c.ownerId }),
  [C.endCall]: (c) => ({ channelId: c.dmChannelId }),
  [C.webrtcSignal]: (c) => ({
    channelId: c.dmChannelId,
    targetUserId: c.ownerId,
    signal: { type: 'offer', sdp: 'v=0' },
  }),
};

/** Events everyone in the room would see if a refused call had changed something. */
const OBSERVED = Object.values(S);
const REFUSALS = [
  'NOT_AUTHENTICATED',
  'FORBIDDEN',
  'NOT_A_MEMBER',
  'CHANNEL_NOT_FOUND',
  'MESSAGE_NOT_FOUND',
  'WORKSPACE_NOT_FOUND',
  'NOT_DM_MEMBER',
  'USER_NOT_FOUND',
  'KICKED',
];
const TESTED_ROLES: Role[] = ['anonymous', 'non-member', 'left', 'kicked', 'member', 'admin'];

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
    /** promoted by the owner (set-member-role) */
    let admin: Socket;
    /** kicked by the owner: a fresh connection whose join with the revoked token was refused */
    let kicked: { socket: Socket; token: string; username: string };
    let ownerToken: string;
    let adminToken: string;
    let memberToken: string;
    let outsiderToken: string;
    let ownRows: OwnRowsWorld;
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
      const dave = await joinRoom(B, room.workspaceId, 'dave');
      const erin = await joinRoom(A, room.workspaceId, 'erin');
      admin = (await socketJoin(B, room.workspaceId, 'dave', dave.userToken)).socket;
      const erinSocket = (await socketJoin(A, room.workspaceId, 'erin', erin.userToken)).socket;
      sockets.push(owner, member, outsider, carolSocket, admin, erinSocket);
      ownerToken = room.userToken;
      adminToken = dave.userToken;
      memberToken = bob.userToken;
      outsiderToken = other.userToken;

      const general = await request(owner, C.createChannel, {
        workspaceId: room.workspaceId,
        name: 'general',
        type: 'topic',
        isPrivate: false,
      });
      const secret = await request(owner, C.createChannel, {
        workspaceId: room.workspaceId,
        name: 'secret',
        type: 'topic',
        isPrivate: true,
      });
      const dm = await request(owner, C.createDmChannel, { workspaceId: room.workspaceId, targetUserId: bob.user.id });
      if (!general.success || !secret.success || !dm.success)
        throw new Error(`setup failed: ${JSON.stringify([general, secret, dm])}`);
      const sent = await request(owner, C.sendMessage, {
        clientMessageId: clientId(),
        channelId: general.channel.id,
        content: 'hello',
        type: 'text',
      });
      if (!sent.success) throw new Error(`setup send failed: ${sent.message}`);
      const left = await request(carolSocket, C.leaveWorkspace, { workspaceId: room.workspaceId });
      if (!left.success) throw new Error(`setup leave failed: ${left.message}`);
      leaver = { socket: carolSocket, token: carol.userToken, username: 'carol' };
      const promoted = await request(owner, C.setMemberRole, {
        workspaceId: room.workspaceId,
        userId: dave.user.id,
        isAdmin: true,
      });
      if (!promoted.success) throw new Error(`setup promote failed: ${promoted.message}`);
      const removed = await request(owner, C.kickUser, { workspaceId: room.workspaceId, userId: erin.user.id });
      if (!removed.success) throw new Error(`setup kick failed: ${removed.message}`);
      const again = await connect(A);
      sockets.push(again);
      const rejoin = await request(again, C.joinWorkspace, {
        workspaceId: room.workspaceId,
        username: 'erin',
        userToken: erin.userToken,
      });
      if (rejoin.success || rejoin.code !== 'KICKED')
        throw new Error(`setup: the kicked token was not refused: ${JSON.stringify(rejoin)}`);
      kicked = { socket: again, token: erin.userToken, username: 'erin' };
      ctx = {
        workspaceId: room.workspaceId,
        channelId: general.channel.id,
        privateChannelId: secret.channel.id,
        dmChannelId: dm.channel.id,
        messageId: sent.message.id,
        ownerId: room.user.id,
        memberId: bob.user.id,
        name: room.name,
      };
      const actor = (userId: string, username: string) => ({ workspaceId: room.workspaceId, userId, username });
      ownRows = {
        workspaceId: room.workspaceId,
        channelId: general.channel.id,
        owner: { token: room.userToken, username: room.user.username },
        fixture: (event) => FIXTURES[event](ctx),
        actors: {
          member: actor(bob.user.id, 'bob'),
          left: actor(carol.user.id, 'carol'),
          kicked: actor(erin.user.id, 'erin'),
          'non-member': actor(other.user.id, other.user.username),
        },
      };
      await new Promise((r) => setTimeout(r, 500)); // let the setup's own broadcasts arrive before observing
    });
    afterAll(() => {
      for (const s of sockets) s.disconnect();
    });

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
        case 'anonymous': {
          const s = await connect(target().A);
          sockets.push(s);
          return s;
        }
        case 'non-member':
          return outsider;
        case 'left':
          return leaver.socket;
        case 'member':
          return member;
        case 'admin':
          return admin;
        case 'kicked':
          return kicked.socket;
        default:
          throw new Error(`no socket for ${role}`);
      }
    }

    for (const [event, rule] of Object.entries(SOCKET_AUTHZ) as [
      ClientEventName,
      (typeof SOCKET_AUTHZ)[ClientEventName],
    ][]) {
      for (const role of TESTED_ROLES) {
        if (rule.allow.includes(role)) continue;
        it(`${event} is refused for ${role} and changes nothing`, async () => {
          const caller = await socketFor(role);
          const seen: string[] = [];
          const onAny = (name: string) => {
            if ((OBSERVED as string[]).includes(name)) seen.push(name);
          };
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

    it("join-workspace: a revoked token (left) and another room's token (non-member) are refused", async () => {
      const s = await connect(target().B);
      sockets.push(s);
      const revoked = await request(s, C.joinWorkspace, {
        workspaceId: ctx.workspaceId,
        username: leaver.username,
        userToken: leaver.token,
      });
      expect(revoked.success).toBe(false);
      const foreign = await request(outsider, C.joinWorkspace, {
        workspaceId: ctx.workspaceId,
        username: 'mallory',
        userToken: 'y'.repeat(43),
      });
      expect(foreign.success).toBe(false);
    });

    it('payload user ids are never trusted: naming another user is refused', async () => {
      const ack = await request(member, C.updatePresence, {
        workspaceId: ctx.workspaceId,
        userId: ctx.ownerId,
        status: 'busy',
      });
      expect(ack.success).toBe(false);
      if (!ack.success) expect(ack.code).toBe('FORBIDDEN');
    });

    it("join-workspace: a kicked user's token is refused with KICKED on every replica", async () => {
      for (const url of [target().A, target().B]) {
        const s = await connect(url);
        sockets.push(s);
        const ack = await request(s, C.joinWorkspace, {
          workspaceId: ctx.workspaceId,
          username: kicked.username,
          userToken: kicked.token,
        });
        expect(ack.success).toBe(false);
        if (!ack.success) expect(ack.code).toBe('KICKED');
      }
    });

    it('HTTP: extend-room refuses every role but the owner, identity from the bearer token only', async () => {
      const path = HTTP_ROUTES.extendRoom.path;
      const body = { workspaceId: ctx.workspaceId, userEmail: 'owner@example.com', extensionDays: 7 };
      const as = (token: string | null) =>
        http(target().A, path, { body, headers: token ? { authorization: `Bearer ${token}` } : {} });
      const cases: [Role, string | null, number, string][] = [
        ['anonymous', null, 401, 'NOT_AUTHENTICATED'],
        ['non-member', outsiderToken, 401, 'NOT_AUTHENTICATED'],
        ['left', leaver.token, 401, 'NOT_AUTHENTICATED'],
        ['kicked', kicked.token, 401, 'KICKED'],
        ['member', memberToken, 403, 'FORBIDDEN'],
        ['admin', adminToken, 403, 'FORBIDDEN'],
      ];
      for (const [role, token, status, code] of cases) {
        expect(HTTP_AUTHZ.extendRoom.allow).not.toContain(role);
        const res = await as(token);
        expect(res.status, `${role}: ${JSON.stringify(res.body)}`).toBe(status);
        expect(res.body.code).toBe(code);
      }
      // The owner passes authorization; a free room then needs payment (the billing issue completes that path).
      const owner = await as(ownerToken);
      expect(owner.status).toBe(402);
      expect(owner.body.code).toBe('EXTENSION_NEEDS_PAYMENT');
    });

    ownRowTests(target, () => ownRows);

    it('HTTP: the link-preview route refuses an anonymous caller', async () => {
      const res = await http(target().A, HTTP_ROUTES.linkPreview.path, { body: { url: 'https://example.com/' } });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('NOT_AUTHENTICATED');
    });
  });
}
