/**
 * The credential contract, in both modes (services/embedded/test/embedded-credentials.test.ts,
 * test/distributed/distributed-credentials.test.ts): after every event that issues, replaces or revokes a
 * credential (a member's room token: create, join, claim, a new owner token, kick, leave, room deleted, room expired,
 * account deleted; an account session: sign-in, sign out, sign out everywhere, account deleted), within one second the
 * old credential is refused by every route and socket that takes one (probes.ts) and the new one accepted by all.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { AUTH_API, C, DELETE_CONFIRMATION, S, type SessionAnswer } from '@ephemera/proto';
import { rateLimitConfig, type LimitConfig } from '@ephemera/platform';
import { createRoom, http, joinRoom, next, request, socketJoin, uniqueName } from '../helpers/clients.ts';
import { startMailpit, type Mailpit } from '../helpers/mailpit.ts';
import { upload } from '../suites/files.suite.ts';
import { roomTokenProbes, sessionProbes, settles, settleTimes, type ProbeRoom } from './probes.ts';

export interface CredentialTarget {
  url: string;
  urlB: string;
  advanceClock(ms: number): void;
  stop(): Promise<void>;
}
export interface CredentialEnv {
  smtpUrl: string;
  rateLimits: LimitConfig;
}

/** Every test here comes from one address: the limits its probes and sign-ins would reach are raised. */
const testLimits = (): LimitConfig =>
  rateLimitConfig(process.env, {
    signInCodesPerAddress: { points: 1000, durationSec: 3600 },
    signInCodesPerEmail: { points: 100, durationSec: 3600 },
    roomExtensionsPerAddress: { points: 1000, durationSec: 3600 }, // the extend-room probe, after every event
  });

let n = 0;
const uniqueEmail = () => `cred-${process.pid}-${Date.now().toString(36)}-${n++}@example.test`;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export function credentialSuites(name: string, start: (env: CredentialEnv) => Promise<CredentialTarget>) {
  describe(`credential contract: ${name}`, () => {
    let t: CredentialTarget;
    let mail: Mailpit;
    beforeAll(async () => {
      mail = await startMailpit();
      t = await start({ smtpUrl: mail.smtpUrl, rateLimits: testLimits() });
    });
    afterAll(async () => {
      console.log(`credential settle times (${name}):`, settleTimes.map((s) => `${s.event} ${s.ms} ms`).join(', '));
      await t?.stop();
      await mail?.stop();
    });

    const code = async (email: string) => {
      const since = Date.now();
      const asked = await http(t.url, AUTH_API.requestCode, { body: { email } });
      expect(asked.status).toBe(200);
      const found = /\b(\d{6})\b/.exec((await mail.latestTo(email, { since })).text)?.[1];
      if (!found) throw new Error(`no sign-in code mailed to ${email}`);
      return found;
    };
    /** register (or sign in again, presenting `presented`) by the mailed code */
    const signIn = async (email: string, extra: Record<string, unknown> = {}, presented?: string) => {
      const res = await http<SessionAnswer & { newUserToken?: string; claimError?: string }>(t.url, AUTH_API.register, {
        body: { email, username: 'owner', code: await code(email), ...extra },
        headers: presented ? bearer(presented) : {},
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };
    /** a guest's room with a channel and a file in it; the probes for its tokens on both gateways */
    const guestRoom = async () => {
      const created = await createRoom(t.url, uniqueName('cred'), 'alice');
      const { socket } = await socketJoin(t.url, created.workspaceId, 'alice', created.userToken);
      const channel = await request(socket, C.createChannel, {
        workspaceId: created.workspaceId,
        name: 'general',
        type: 'topic',
        isPrivate: false,
      });
      socket.close();
      if (!channel.success) throw new Error(channel.message);
      const file = await upload(
        t.url,
        created.workspaceId,
        created.userToken,
        { channelId: channel.channel.id },
        { name: 'a.txt', type: 'text/plain', bytes: Buffer.from('hello') },
      );
      expect(file.status, JSON.stringify(file.body)).toBe(201);
      const room: ProbeRoom = {
        workspaceId: created.workspaceId,
        channelId: channel.channel.id,
        fileId: file.body.file.id,
      };
      return { created, room, probes: roomTokenProbes([t.url, t.urlB], room) };
    };

    it('create and join issue tokens that every route and socket accepts at once', async () => {
      const { created, room, probes } = await guestRoom();
      await settles('create', probes, created.userToken, true);
      const bob = await joinRoom(t.url, room.workspaceId, 'bob');
      await settles('join', probes, bob.userToken, true);
    });

    /**
     * Sockets joined with `token` on both gateways before `replace` runs: within a second of it each is told
     * session-replaced and its session is over (a command answers NOT_AUTHENTICATED), while the connection stays.
     */
    const openSessionsEnd = async (workspaceId: string, token: string, replace: () => Promise<void>) => {
      const open = await Promise.all([t.url, t.urlB].map((url) => socketJoin(url, workspaceId, 'owner', token)));
      const told = open.map(({ socket }) =>
        next(socket, S.sessionReplaced, (p: { workspaceId: string }) => p.workspaceId === workspaceId, 1_000),
      );
      await replace();
      await Promise.all(told);
      for (const { socket } of open) {
        expect(socket.connected).toBe(true);
        expect(await request(socket, C.fetchChannelSummaries, { workspaceId })).toMatchObject({
          success: false,
          code: 'NOT_AUTHENTICATED',
        });
        socket.close();
      }
    };

    it('claim (registering with the room): the guest owner token is refused everywhere, the new owner token accepted', async () => {
      const { created, probes } = await guestRoom();
      let account!: Awaited<ReturnType<typeof signIn>>;
      // Sockets joined with the guest token before the claim: their sessions end too.
      await openSessionsEnd(created.workspaceId, created.userToken, async () => {
        account = await signIn(uniqueEmail(), {
          claimWorkspaceId: created.workspaceId,
          claimUserToken: created.userToken,
        });
      });
      expect(account.claimError).toBeUndefined();
      expect(account.newUserToken).toEqual(expect.any(String));
      await settles('claim: new owner token', probes, account.newUserToken!, true);
      await settles('claim: guest owner token', probes, created.userToken, false);
      // A socket joined with the new token is not told anything when another of the member's tokens is replaced.
      const { socket } = await socketJoin(t.url, created.workspaceId, 'owner', account.newUserToken!);
      expect((await request(socket, C.fetchChannelSummaries, { workspaceId: created.workspaceId })).success).toBe(true);
      socket.close();
    });

    it('a new owner token for the owner account (another device): the previous one is refused everywhere', async () => {
      const { created, probes } = await guestRoom();
      const account = await signIn(uniqueEmail(), {
        claimWorkspaceId: created.workspaceId,
        claimUserToken: created.userToken,
      });
      let issued!: { status: number; body: any };
      await openSessionsEnd(created.workspaceId, account.newUserToken!, async () => {
        issued = await http(t.url, AUTH_API.generateRoomToken, {
          body: { roomName: created.name },
          headers: bearer(account.token),
        });
      });
      expect(issued.status, JSON.stringify(issued.body)).toBe(200);
      await settles('owner token issued: new', probes, issued.body.ownerToken, true);
      await settles('owner token issued: previous', probes, account.newUserToken!, false);
    });

    it('kick and leave revoke the member token everywhere; the others keep working', async () => {
      const { created, room, probes } = await guestRoom();
      const bob = await joinRoom(t.url, room.workspaceId, 'bob');
      const carol = await joinRoom(t.url, room.workspaceId, 'carol');
      const { socket: owner } = await socketJoin(t.url, room.workspaceId, 'alice', created.userToken);
      const kicked = await request(owner, C.kickUser, { workspaceId: room.workspaceId, userId: bob.user.id });
      owner.close();
      expect(kicked.success).toBe(true);
      await settles('kick', probes, bob.userToken, false);
      const { socket: carolSocket } = await socketJoin(t.urlB, room.workspaceId, 'carol', carol.userToken);
      const left = await request(carolSocket, C.leaveWorkspace, { workspaceId: room.workspaceId });
      carolSocket.close();
      expect(left.success).toBe(true);
      await settles('leave', probes, carol.userToken, false);
      await settles('kick and leave: owner unaffected', probes, created.userToken, true);
    });

    it('room deleted by its owner: every token of the room is refused everywhere', async () => {
      const { created, room, probes } = await guestRoom();
      const bob = await joinRoom(t.url, room.workspaceId, 'bob');
      const { socket } = await socketJoin(t.url, room.workspaceId, 'alice', created.userToken);
      const deleted = await request(socket, C.deleteWorkspace, { workspaceId: room.workspaceId });
      socket.close();
      expect(deleted.success).toBe(true);
      await settles('room deleted: owner', probes, created.userToken, false);
      await settles('room deleted: member', probes, bob.userToken, false);
    });

    it('sign-in replaces the session the browser presented; sign out and sign out everywhere revoke sessions everywhere', async () => {
      const email = uniqueEmail();
      const probes = sessionProbes(t.url);
      const first = await signIn(email);
      await settles('sign-in', probes, first.token, true);
      const second = await signIn(email, {}, first.token);
      await settles('sign-in again: new session', probes, second.token, true);
      await settles('sign-in again: replaced session', probes, first.token, false);
      expect((await http(t.url, AUTH_API.logout, { body: {}, headers: bearer(second.token) })).status).toBe(200);
      await settles('sign out', probes, second.token, false);
      const [a, b] = [await signIn(email), await signIn(email)];
      await settles('two devices', probes, a.token, true);
      expect((await http(t.url, AUTH_API.logoutAll, { body: {}, headers: bearer(a.token) })).status).toBe(200);
      await settles('sign out everywhere: this device', probes, a.token, false);
      await settles('sign out everywhere: the other device', probes, b.token, false);
    });

    it('account deleted: its sessions and the owner token of each room it owned are refused everywhere', async () => {
      const { created, probes } = await guestRoom();
      const email = uniqueEmail();
      const account = await signIn(email, { claimWorkspaceId: created.workspaceId, claimUserToken: created.userToken });
      const other = await signIn(email);
      await settles('account: a second session', sessionProbes(t.url, created.name), other.token, true);
      // the room-by-name probe issued newer owner tokens: take the current one
      const current = await http(t.url, AUTH_API.generateRoomToken, {
        body: { roomName: created.name },
        headers: bearer(other.token),
      });
      expect(current.status, JSON.stringify(current.body)).toBe(200);
      await settles('account: owner token', probes, current.body.ownerToken, true);
      const gone = await http(t.url, AUTH_API.deleteAccount, {
        method: 'DELETE',
        body: { confirmation: DELETE_CONFIRMATION },
        headers: bearer(account.token),
      });
      expect(gone.status, JSON.stringify(gone.body)).toBe(200);
      await settles('account deleted: session', sessionProbes(t.url), account.token, false);
      await settles('account deleted: other session', sessionProbes(t.url), other.token, false);
      await settles('account deleted: owner token', probes, current.body.ownerToken, false);
    });

    // Last: it moves the clock past every room's expiry.
    it('room expired: every token of the room is refused everywhere', async () => {
      const { created, room, probes } = await guestRoom();
      const bob = await joinRoom(t.url, room.workspaceId, 'bob');
      t.advanceClock(25 * 3600_000);
      await settles('room expired: owner', probes, created.userToken, false);
      await settles('room expired: member', probes, bob.userToken, false);
    });
  });
}
