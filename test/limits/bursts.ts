/**
 * Limits under a burst (docs/security.md, "Rate limits"): 50 or more concurrent requests from one address for every
 * limit that counts tries or failures. A limit is counted before the work, so the number of requests that get past
 * it never exceeds its points, whatever arrives at once, and a right secret sent after the limit is refused. Run by
 * rateLimitSuite against its target (LOW_LIMITS, X-Forwarded-For trusted from loopback), in both modes.
 */
import { it, expect } from 'vitest';
import { randomInt } from 'node:crypto';
import { API, AUTH_API, C, LINK_PREVIEW_PATH } from '@ephemera/proto';
import type { LimitConfig } from '@ephemera/platform';
import { http, connect, request, uniqueName } from '../helpers/clients.ts';

const address = () => `198.19.${randomInt(0, 256)}.${randomInt(1, 255)}`;
const as = (addr: string) => ({ 'x-forwarded-for': addr });
const BURST = 50;

interface Target {
  A: string;
  B: string;
}

/** statuses of `n` requests sent at once (alternating replicas), in sending order */
async function all(n: number, send: (i: number) => Promise<{ status: number }>): Promise<number[]> {
  return (await Promise.all(Array.from({ length: n }, (_, i) => send(i)))).map((r) => r.status);
}
const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

export function burstTests(target: () => Target, limits: LimitConfig) {
  const origin = (i: number) => (i % 2 === 0 ? target().A : target().B);
  const createRoom = async (password?: string) => {
    const res = await http(target().A, API.create(), {
      body: { name: uniqueName('b'), username: 'alice', password, hasPassword: Boolean(password) },
      headers: as(address()),
    });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    return res.body as { workspaceId: string; userToken: string };
  };

  it(`room password under a burst: of ${BURST} concurrent joins from one address only the limit is evaluated; the right password sent mid-burst is refused`, async () => {
    const room = await createRoom('right-password');
    const guesser = address();
    const join = (i: number, password: string) =>
      http(origin(i), API.join(room.workspaceId), { body: { username: `g${i}`, password }, headers: as(guesser) });
    const first = Array.from({ length: 39 }, (_, i) => join(i, `guess-${i}`));
    await Promise.race(first); // the burst has reached the service: one answer is back, the rest are in flight
    const right = join(39, 'right-password');
    const rest = Array.from({ length: BURST - 40 }, (_, i) => join(40 + i, `guess-${40 + i}`));
    const statuses = (await Promise.all([...first, right, ...rest])).map((r) => r.status);
    expect(count(statuses, 401)).toBeLessThanOrEqual(limits.passwordFailuresPerAddress.points);
    expect(statuses[39]).toBe(429);
    expect(count(statuses, 200)).toBe(0);
    expect(
      (await http(target().A, API.checkUsername(room.workspaceId, 'g39'), { headers: as(address()) })).body.available,
    ).toBe(true);
  });

  it(`sign-in failures under a burst: of ${BURST} concurrent wrong codes from one address only the limit is evaluated`, async () => {
    const guesser = address();
    const email = `${uniqueName('burst')}@example.test`;
    const statuses = await all(BURST, (i) =>
      http(origin(i), AUTH_API.login, { body: { email, code: String(100000 + i) }, headers: as(guesser) }),
    );
    expect(count(statuses, 401)).toBeLessThanOrEqual(limits.signInFailuresPerAddress.points);
    expect(count(statuses, 429)).toBeGreaterThanOrEqual(BURST - limits.signInFailuresPerAddress.points);
  });

  it(`room creations under a burst: of ${BURST} concurrent creations from one address exactly the limit are created`, async () => {
    const addr = address();
    const statuses = await all(BURST, (i) =>
      http(origin(i), API.create(), { body: { name: uniqueName('bc'), username: 'alice' }, headers: as(addr) }),
    );
    expect(count(statuses, 201)).toBe(limits.roomCreationsPerAddress.points);
    expect(count(statuses, 429)).toBe(BURST - limits.roomCreationsPerAddress.points);
  });

  it(`link previews and uploads under a burst: of ${BURST} concurrent requests of one member only the limit get past it`, async () => {
    const room = await createRoom();
    const auth = { authorization: `Bearer ${room.userToken}` };
    // Messaging learns the member from the room's events: wait until the token is known (401, not counted, before).
    await expect
      .poll(
        async () =>
          (
            await http(target().A, `/api/workspaces/${room.workspaceId}/files/none`, {
              headers: { ...auth, ...as(address()) },
            })
          ).status,
        { timeout: 10_000 },
      )
      .not.toBe(401);
    const previews = await all(BURST, (i) =>
      http(origin(i), LINK_PREVIEW_PATH, { body: { url: 'not a url' }, headers: { ...auth, ...as(address()) } }),
    );
    expect(count(previews, 400)).toBe(limits.linkPreviewsPerUser.points); // past the limit: refused by validation
    expect(count(previews, 429)).toBe(BURST - limits.linkPreviewsPerUser.points);
    const uploads = await all(BURST, (i) => {
      const form = new FormData();
      form.append('channelId', 'none-such-channel');
      form.append('file', new Blob(['hello']), 'a.txt');
      return fetch(origin(i) + API.uploadFile(room.workspaceId), {
        method: 'POST',
        body: form,
        headers: { ...auth, ...as(address()) },
      });
    });
    expect(count(uploads, 404)).toBe(limits.uploadsPerUser.points); // past the limit: the channel is unknown
    expect(count(uploads, 429)).toBe(BURST - limits.uploadsPerUser.points);
  });

  it('a member joins a room in under a second while 1,000 wrong-password joins for it are in flight', async () => {
    const room = await createRoom('right-password');
    const stop = new AbortController();
    // 1,000 guessers, each from an address of its own: the per-address limit never binds, the room's back-off does.
    const guesses = Array.from({ length: 1000 }, (_, i) =>
      fetch(origin(i) + API.join(room.workspaceId), {
        method: 'POST',
        signal: stop.signal,
        headers: { 'content-type': 'application/json', ...as(`198.18.${i >> 8}.${(i & 255) + 1}`) },
        body: JSON.stringify({ username: `g${i}`, password: `guess-${i}` }),
      }).then(
        (r) => r.status,
        () => 0,
      ),
    );
    try {
      await new Promise((r) => setTimeout(r, 300)); // the guesses have arrived and are waiting or being evaluated
      const socket = await connect(target().B, { extraHeaders: as(address()) });
      const started = Date.now();
      const ack = await request(socket, C.joinWorkspace, {
        workspaceId: room.workspaceId,
        username: 'alice',
        userToken: room.userToken,
      });
      const took = Date.now() - started;
      socket.close();
      expect(ack.success).toBe(true);
      expect(took).toBeLessThan(1000);
    } finally {
      stop.abort();
      await Promise.all(guesses);
    }
    // The guessers gone, their waiting tries are dropped: the right password is accepted after a short wait.
    const right = await http(origin(1), API.join(room.workspaceId), {
      body: { username: 'bob', password: 'right-password' },
      headers: as(address()),
    });
    expect(right.status).toBe(200);
  });
}
