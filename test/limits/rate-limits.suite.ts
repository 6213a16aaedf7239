/**
 * One test per rate limit (docs/product/security.md S6; docs/security.md "Rate limits"), run against a target started
 * with LOW limits
 * (LOW_LIMITS) and the gateways trusting loopback as a proxy, so each test plays its own client addresses
 * through X-Forwarded-For. In distributed mode requests alternate between the two gateway replicas: the counts
 * add up across them because the counters live in Redis. A refused request changes nothing.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomInt } from 'node:crypto';
import { io } from 'socket.io-client';
import { API, C, S, ERRORS, LIMITS, LINK_PREVIEW_PATH, type Message } from '@ephemera/proto';
import type { LimitConfig } from '@ephemera/platform';
import { http, connect, request, next, joinRoom, uniqueName, clientId } from '../helpers/clients.ts';
import { hardeningSuite } from '../hardening/hardening.suite.ts';
import { burstTests } from './bursts.ts';

export const LOW_LIMITS: LimitConfig = {
  connectionsPerAddress: { points: 5, durationSec: 60 },
  eventsPerUser: { points: 30, durationSec: 60 },
  messagesPerUser: { points: 5, durationSec: 60 },
  passwordFailuresPerAddress: { points: 3, durationSec: 60 },
  passwordFailuresPerRoom: { points: 6, durationSec: 60 },
  roomCreationsPerAddress: { points: 3, durationSec: 60 },
  nameChecksPerAddress: { points: 5, durationSec: 60 },
  roomExtensionsPerAddress: { points: 2, durationSec: 60 },
  linkPreviewsPerUser: { points: 3, durationSec: 60 },
  linkPreviewImagesPerAddress: { points: 3, durationSec: 60 },
  uploadsPerUser: { points: 3, durationSec: 60 },
  signInCodesPerAddress: { points: 3, durationSec: 60 },
  signInCodesPerEmail: { points: 3, durationSec: 60 },
  signInFailuresPerAddress: { points: 3, durationSec: 60 },
  usernameRecoveriesPerAddress: { points: 3, durationSec: 60 },
  contactMessagesPerAddress: { points: 3, durationSec: 60 },
  pageviewsPerAddress: { points: 3, durationSec: 60 },
};

/** The same limits as RATE_LIMIT_* variables, for processes that read the environment (gateway replica 2). */
export function lowLimitEnv(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(LOW_LIMITS).map(([name, spec]) => [
      `RATE_LIMIT_${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`,
      `${spec.points}/${spec.durationSec}`,
    ]),
  );
}

/** metricsPorts: the separate /metrics listeners, for the hardening checks that share this server start */
interface LimitTarget {
  A: string;
  B: string;
  metricsPorts: number[];
  stop(): Promise<void>;
  /** distributed only: SIGKILL the replica behind B (the last test: typers on a crashed gateway expire) */
  crashB?: () => Promise<void>;
}

const RATE_LIMITED = { success: false, code: 'RATE_LIMITED', message: ERRORS.RATE_LIMITED };
/** A client address of its own for each test (documentation range 198.18.0.0/15, never routed). */
const address = () => `198.18.${randomInt(0, 256)}.${randomInt(1, 255)}`;
const as = (addr: string) => ({ 'x-forwarded-for': addr });

/** createRoom and socketJoin of the test helpers, from a given client address. */
async function createRoom(
  base: string,
  name: string,
  username: string,
  password: string | undefined,
  headers: Record<string, string>,
) {
  const created = await http(base, API.create(), {
    body: { name, username, password, hasPassword: Boolean(password) },
    headers,
  });
  if (created.status !== 201) throw new Error(`create failed: ${JSON.stringify(created.body)}`);
  return { name, ...created.body } as { name: string; workspaceId: string; userToken: string };
}
async function socketJoin(
  base: string,
  workspaceId: string,
  username: string,
  userToken: string,
  headers: Record<string, string>,
) {
  const socket = await connect(base, { extraHeaders: headers });
  const ack = await request(socket, C.joinWorkspace, { workspaceId, username, userToken });
  if (!ack.success) throw new Error(`join-workspace failed: ${ack.message}`);
  return { socket, ack };
}

/** replicas: the target has a second gateway replica that the last test may kill (distributed mode) */
export function rateLimitSuite(name: string, start: () => Promise<LimitTarget>, options: { replicas?: boolean } = {}) {
  describe(`rate limits: ${name}`, () => {
    let t: LimitTarget;
    beforeAll(async () => {
      t = await start();
    });
    afterAll(async () => {
      await t?.stop();
    });
    /** alternate the origins: in distributed mode, the two gateway replicas */
    const origin = (i: number) => (i % 2 === 0 ? t.A : t.B);
    hardeningSuite(() => t);
    burstTests(() => t, LOW_LIMITS);

    it('socket connections per address: the sixth handshake from one address is refused with RATE_LIMITED; another address connects', async () => {
      const addr = address();
      const sockets = [];
      for (let i = 0; i < 5; i++) sockets.push(await connect(origin(i), { extraHeaders: as(addr) }));
      const refused = await new Promise<{ message: string; data?: unknown }>((resolve, reject) => {
        const s = io(origin(5), {
          transports: ['websocket'],
          reconnection: false,
          forceNew: true,
          extraHeaders: as(addr),
        });
        s.once('connect', () => {
          s.close();
          reject(new Error('connected past the limit'));
        });
        s.once('connect_error', (err) => {
          s.close();
          resolve(err as { message: string; data?: unknown });
        });
      });
      expect(refused.message).toBe(ERRORS.RATE_LIMITED);
      expect(refused.data).toEqual(RATE_LIMITED);
      const other = await connect(origin(5), { extraHeaders: as(address()) });
      expect(other.connected).toBe(true);
      [...sockets, other].forEach((s) => s.close());
    });

    it('events per user: past the limit every command is refused on both replicas; other users are not affected', async () => {
      const room = await createRoom(t.A, uniqueName('ev'), 'alice', undefined, as(address()));
      const bob = await joinRoom(t.B, room.workspaceId, 'bob');
      const a1 = await socketJoin(t.A, room.workspaceId, 'alice', room.userToken, as(address()));
      const a2 = await socketJoin(t.B, room.workspaceId, 'alice', room.userToken, as(address()));
      const b = await socketJoin(t.B, room.workspaceId, 'bob', bob.userToken, as(address()));
      const created = await request(a1.socket, C.createChannel, {
        workspaceId: room.workspaceId,
        name: 'general',
        type: 'topic',
        isPrivate: false,
      });
      if (!created.success) throw new Error(created.message);
      let ok = 0;
      let first: unknown = null;
      for (let i = 0; i < 40 && !first; i++) {
        const ack = await request(i % 2 === 0 ? a1.socket : a2.socket, C.typingStart, {
          channelId: created.channel.id,
        });
        if (ack.success) ok++;
        else first = ack;
      }
      expect(first).toEqual(RATE_LIMITED);
      // The channel counted too (30 commands of alice in all); a join counts for its socket, still anonymous then.
      expect(ok).toBe(LOW_LIMITS.eventsPerUser.points - 1);
      expect(await request(a1.socket, C.updatePresence, { workspaceId: room.workspaceId, status: 'away' })).toEqual(
        RATE_LIMITED,
      );
      expect(await request(a2.socket, C.updatePresence, { workspaceId: room.workspaceId, status: 'away' })).toEqual(
        RATE_LIMITED,
      );
      expect(await request(b.socket, C.typingStart, { channelId: created.channel.id })).toEqual({ success: true });
      [a1.socket, a2.socket, b.socket].forEach((s) => s.close());
    });

    it('messages per user: the sixth send is refused and stores nothing; the other member still sends', async () => {
      const room = await createRoom(t.A, uniqueName('msg'), 'alice', undefined, as(address()));
      const bob = await joinRoom(t.B, room.workspaceId, 'bob');
      const a1 = await socketJoin(t.A, room.workspaceId, 'alice', room.userToken, as(address()));
      const a2 = await socketJoin(t.B, room.workspaceId, 'alice', room.userToken, as(address()));
      const b = await socketJoin(t.B, room.workspaceId, 'bob', bob.userToken, as(address()));
      const created = await request(a1.socket, C.createChannel, {
        workspaceId: room.workspaceId,
        name: 'general',
        type: 'topic',
        isPrivate: false,
      });
      if (!created.success) throw new Error(created.message);
      const channelId = created.channel.id;
      for (let i = 0; i < 5; i++) {
        const ack = await request(i % 2 === 0 ? a1.socket : a2.socket, C.sendMessage, {
          clientMessageId: clientId(),
          channelId,
          content: `m${i}`,
          type: 'text',
        });
        expect(ack.success).toBe(true);
      }
      const refused = await request(a2.socket, C.sendMessage, {
        clientMessageId: clientId(),
        channelId,
        content: 'one too many',
        type: 'text',
      });
      expect(refused).toEqual(RATE_LIMITED);
      expect(
        (
          await request(b.socket, C.sendMessage, {
            clientMessageId: clientId(),
            channelId,
            content: 'bob speaks',
            type: 'text',
          })
        ).success,
      ).toBe(true);
      const page = await request(b.socket, C.fetchMessages, { channelId });
      if (!page.success) throw new Error(page.message);
      expect(page.messages.map((m: Message) => m.content)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'bob speaks']);
      [a1.socket, a2.socket, b.socket].forEach((s) => s.close());
    });

    it('password guesses per address: after 3 wrong passwords even the right one waits (429, Retry-After); a typo elsewhere is fine', async () => {
      const room = await createRoom(t.A, uniqueName('pw'), 'alice', 'right-password', as(address()));
      const guesser = address();
      for (let i = 0; i < 3; i++) {
        const wrong = await http(origin(i), API.join(room.workspaceId), {
          body: { username: `g${i}`, password: 'guess' },
          headers: as(guesser),
        });
        expect(wrong.status).toBe(401);
      }
      const blocked = await http(origin(3), API.join(room.workspaceId), {
        body: { username: 'gx', password: 'right-password' },
        headers: as(guesser),
      });
      expect(blocked.status).toBe(429);
      expect(blocked.body).toEqual(RATE_LIMITED);
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
      // A normal user with one typo, from another address, never notices.
      const typo = address();
      expect(
        (
          await http(t.A, API.join(room.workspaceId), {
            body: { username: 'carol', password: 'rigth-password' },
            headers: as(typo),
          })
        ).status,
      ).toBe(401);
      expect(
        (
          await http(t.B, API.join(room.workspaceId), {
            body: { username: 'carol', password: 'right-password' },
            headers: as(typo),
          })
        ).status,
      ).toBe(200);
      // Nothing changed for the refused attempt: gx is no member (the name is free).
      expect(
        (await http(t.A, API.checkUsername(room.workspaceId, 'gx'), { headers: as(address()) })).body.available,
      ).toBe(true);
    });

    it("password guesses per room: failures from many addresses slow the room's password checks down, never lock the right password out", async () => {
      const room = await createRoom(t.A, uniqueName('pwr'), 'alice', 'right-password', as(address()));
      for (let i = 0; i < LOW_LIMITS.passwordFailuresPerRoom.points + 2; i++) {
        const res = await http(origin(i), API.join(room.workspaceId), {
          body: { username: `g${i}`, password: 'guess' },
          headers: as(address()),
        });
        expect(res.status).toBe(401);
      }
      // Past the room's limit its checks are paced, one at a time: the right password still gets in.
      const right = await http(t.B, API.join(room.workspaceId), {
        body: { username: 'dave', password: 'right-password' },
        headers: as(address()),
      });
      expect(right.status).toBe(200);
      // Another room is not affected.
      const other = await createRoom(t.B, uniqueName('pwo'), 'zed', 'pw-other', as(address()));
      expect(
        (
          await http(t.A, API.join(other.workspaceId), {
            body: { username: 'dave', password: 'pw-other' },
            headers: as(address()),
          })
        ).status,
      ).toBe(200);
    });

    it('room creations per address: the fourth is refused (429) and creates nothing', async () => {
      const addr = address();
      for (let i = 0; i < 3; i++) {
        const res = await http(origin(i), API.create(), {
          body: { name: uniqueName('cr'), username: 'alice' },
          headers: as(addr),
        });
        expect(res.status).toBe(201);
      }
      const name = uniqueName('cr');
      const refused = await http(origin(3), API.create(), { body: { name, username: 'alice' }, headers: as(addr) });
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual(RATE_LIMITED);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await http(t.A, API.roomByName(name), { headers: as(address()) })).status).toBe(404);
      expect(
        (await http(t.B, API.create(), { body: { name, username: 'alice' }, headers: as(address()) })).status,
      ).toBe(201);
    });

    it('check-name and check-username per address share one budget: the sixth check is refused', async () => {
      const addr = address();
      const room = await createRoom(t.A, uniqueName('chk'), 'alice', undefined, as(address()));
      for (let i = 0; i < 5; i++) {
        const path = i < 3 ? API.checkName(uniqueName('n')) : API.checkUsername(room.workspaceId, `u${i}`);
        expect((await http(origin(i), path, { headers: as(addr) })).status).toBe(200);
      }
      const refused = await http(origin(5), API.checkName(uniqueName('n')), { headers: as(addr) });
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual(RATE_LIMITED);
      expect((await http(origin(5), API.checkName(uniqueName('n')), { headers: as(address()) })).status).toBe(200);
    });

    it('room extensions per address: the third extend-room is refused (429) before the room or the token is looked at', async () => {
      const addr = address();
      const body = { workspaceId: 'w-none', extensionDays: 7 };
      for (let i = 0; i < 2; i++) {
        const r = await http(origin(i), API.extendRoom(), {
          body,
          headers: { ...as(addr), authorization: 'Bearer not-a-token-at-all-000' },
        });
        expect(r.body.code).toBe('NOT_AUTHENTICATED'); // answered (the token names nobody), not limited
      }
      const refused = await http(origin(2), API.extendRoom(), {
        body,
        headers: { ...as(addr), authorization: 'Bearer not-a-token-at-all-000' },
      });
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual(RATE_LIMITED);
    });

    it('link previews per user: the fourth request is refused before any fetch', async () => {
      const room = await createRoom(t.A, uniqueName('lp'), 'alice', undefined, as(address()));
      const auth = { authorization: `Bearer ${room.userToken}` };
      // Messaging learns the member from the room's events (a projection): until then the token is unknown (401,
      // before the limit is counted).
      await expect
        .poll(
          async () =>
            (await http(t.A, LINK_PREVIEW_PATH, { body: { url: 'not a url' }, headers: { ...auth, ...as(address()) } }))
              .status,
          { timeout: 10_000 },
        )
        .toBe(400);
      for (let i = 1; i < 3; i++) {
        // An invalid url: refused by validation after the limit took its point, so no page is fetched.
        const res = await http(origin(i), LINK_PREVIEW_PATH, {
          body: { url: 'not a url' },
          headers: { ...auth, ...as(address()) },
        });
        expect(res.status).toBe(400);
      }
      const refused = await http(origin(3), LINK_PREVIEW_PATH, {
        body: { url: 'not a url' },
        headers: { ...auth, ...as(address()) },
      });
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual(RATE_LIMITED);
    });

    it('uploads per user: the fourth upload in a minute is refused (429) before anything is read or stored', async () => {
      const room = await createRoom(t.A, uniqueName('up'), 'alice', undefined, as(address()));
      const form = () => {
        const f = new FormData();
        f.append('channelId', 'none-such-channel'); // refused after the limit took its point: nothing is stored
        f.append('file', new Blob(['hello']), 'a.txt');
        return f;
      };
      const post = (i: number) =>
        fetch(origin(i) + API.uploadFile(room.workspaceId), {
          method: 'POST',
          body: form(),
          headers: { authorization: `Bearer ${room.userToken}`, ...as(address()) },
        }).then(async (r) => ({ status: r.status, body: await r.json() }));
      // Messaging learns the member from the room's events: until then the token is unknown (401, not counted).
      await expect.poll(async () => (await post(0)).status, { timeout: 10_000 }).toBe(404);
      for (let i = 1; i < 3; i++) expect((await post(i)).status).toBe(404);
      const refused = await post(3);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual(RATE_LIMITED);
    });

    // Runs last: it kills replica B. Nobody says typing-stop for a typer whose gateway crashed; the presence
    // service's sweep announces it once the indicator was not refreshed for LIMITS.typingExpireMs.
    if (options.replicas)
      it('a typer on a crashed gateway stops typing for the others within seconds (sweep of expired indicators)', async () => {
        const room = await createRoom(t.A, uniqueName('crash'), 'alice', undefined, as(address()));
        const bob = await joinRoom(t.A, room.workspaceId, 'bob');
        const alice = await socketJoin(t.A, room.workspaceId, 'alice', room.userToken, as(address()));
        const onB = await socketJoin(t.B, room.workspaceId, 'bob', bob.userToken, as(address()));
        const created = await request(alice.socket, C.createChannel, {
          workspaceId: room.workspaceId,
          name: 'general',
          type: 'topic',
          isPrivate: false,
        });
        if (!created.success) throw new Error(created.message);
        const typing = next(alice.socket, S.userTyping);
        expect(await request(onB.socket, C.typingStart, { channelId: created.channel.id })).toEqual({ success: true });
        await typing;
        const stopped = next(alice.socket, S.userStoppedTyping, () => true, LIMITS.typingExpireMs + 8_000);
        const crashedAt = Date.now();
        await t.crashB!();
        expect((await stopped).channelId).toBe(created.channel.id);
        expect(Date.now() - crashedAt).toBeLessThan(LIMITS.typingExpireMs + 3_000);
        alice.socket.close();
      }, 30_000);
  });
}
