/**
 * Batched internal calls (internal-routes.ts, service-client.ts `batchPath`): the calls of one event-loop turn leave
 * as one request to the callee's batch route, and each gets exactly what its own route answers: the result, the
 * DomainError, a validation error, or "unavailable" for a crash. One call alone still goes to its own route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import express from 'express';
import { z } from 'zod';
import { DomainError } from '@ephemera/proto';
import {
  closeServiceClients,
  commandRoute,
  createLogger,
  httpRequestDuration,
  internalRoute,
  internalRouter,
  parseOrThrow,
  serveHttp,
  serviceClient,
  ServiceUnavailableError,
  BATCH_MAX_BYTES,
  serviceCredential,
  signServiceRequest,
  SERVICE_CREDENTIAL_HEADER,
  type InternalRouter,
  type ServiceServer,
} from '../src/index.ts';
import { internalRoomRouter } from '../../room/src/http.ts';
import { internalMessagingRouter } from '../../messaging/src/http.ts';
import { internalPresenceRouter } from '../../presence/src/http.ts';

const BATCH = '/internal/test/batch';
const requests: string[] = [];
const log = createLogger('test', 'silent');
const credential = serviceCredential('test', 'batch-test-secret-'.repeat(2));
let server: ServiceServer;
let base = '';

beforeAll(async () => {
  const seen = express.Router();
  seen.use((req, _res, next) => {
    requests.push(req.path);
    next();
  });
  const r = internalRouter(BATCH, log);
  internalRoute(r, '/internal/test/double', async (body) => ({
    twice: parseOrThrow(z.object({ n: z.number() }), body).n * 2,
  }));
  internalRoute(r, '/internal/test/forbidden', async () => {
    throw new DomainError('FORBIDDEN');
  });
  internalRoute(r, '/internal/test/crash', async () => {
    throw new Error('boom');
  });
  internalRoute(r, '/internal/test/nothing', async () => undefined);
  internalRoute(r, '/internal/test/size', async (body) => ({ length: (body as { s: string }).s.length }));
  commandRoute(r, '/internal/test/command', z.object({ text: z.string().max(5) }), async (actor, input) => ({
    by: actor.userId,
    text: input.text,
  }));
  server = await serveHttp({
    name: 'batch-test',
    port: 0,
    host: '127.0.0.1',
    logger: log,
    routers: [],
    ready: async () => true,
    internal: { port: 0, secret: credential.secret, routers: [seen, r] },
  });
  base = server.internalUrl!;
});
afterAll(async () => {
  await closeServiceClients();
  await server.stop();
});

/** every answer of a call as a comparable value: the result, or the error's kind, code and status */
const outcome = (p: Promise<unknown>) =>
  p.then(
    (value) => ({ value }),
    (err: unknown) =>
      err instanceof DomainError
        ? { domain: err.code, status: err.status }
        : { other: err instanceof ServiceUnavailableError ? 'unavailable' : String(err) },
  );

const actor = { workspaceId: 'w'.repeat(16), userId: 'u'.repeat(16), username: 'alice' };
const calls: [string, unknown][] = [
  ['/internal/test/double', { n: 21 }],
  ['/internal/test/double', { n: 'x' }],
  ['/internal/test/forbidden', {}],
  ['/internal/test/crash', {}],
  ['/internal/test/nothing', {}],
  ['/internal/test/command', { actor, input: { text: 'hi' } }],
  ['/internal/test/command', { actor, input: { text: 'too long' } }],
  ['/internal/test/command', { input: { text: 'hi' } }],
];

describe('batched internal calls', () => {
  it("one turn's calls go as one request, and each answers what its own route answers", async () => {
    const single = serviceClient(base, credential);
    const alone = [];
    for (const [path, body] of calls) alone.push(await outcome(single(path, body)));
    expect(alone[0]).toEqual({ value: { twice: 42 } });
    expect(alone[1]).toMatchObject({ domain: 'VALIDATION', status: 400 });
    expect(alone[2]).toMatchObject({ domain: 'FORBIDDEN' });
    expect(alone[3]).toEqual({ other: 'unavailable' });
    expect(alone[4]).toEqual({ value: {} });
    expect(alone[5]).toEqual({ value: { by: actor.userId, text: 'hi' } });
    expect(alone[6]).toMatchObject({ domain: 'VALIDATION' });
    expect(alone[7]).toMatchObject({ domain: 'VALIDATION' });

    const batched = serviceClient(base, credential, undefined, { batchPath: BATCH });
    requests.length = 0;
    const together = await Promise.all(calls.map(([path, body]) => outcome(batched(path, body))));
    expect(requests).toEqual([BATCH]);
    expect(together).toEqual(alone);
  });

  it('a call alone in its turn goes to its own route', async () => {
    const batched = serviceClient(base, credential, undefined, { batchPath: BATCH });
    requests.length = 0;
    expect(await batched('/internal/test/double', { n: 1 })).toEqual({ twice: 2 });
    expect(await batched('/internal/test/double', { n: 2 })).toEqual({ twice: 4 });
    expect(requests).toEqual(['/internal/test/double', '/internal/test/double']);
  });

  it("a turn's calls are split into batches that fit the JSON limit; a call too big for any batch goes alone", async () => {
    const batched = serviceClient(base, credential, undefined, { batchPath: BATCH });
    const s = 'x'.repeat(Math.floor(BATCH_MAX_BYTES / 3));
    const big = 'y'.repeat(BATCH_MAX_BYTES + 10);
    requests.length = 0;
    const answers = await Promise.all(
      [s, s, s, s, big].map((text) => batched<{ length: number }>('/internal/test/size', { s: text })),
    );
    expect(answers.map((a) => a.length)).toEqual([s.length, s.length, s.length, s.length, big.length]);
    // two of a third fit together (three do not, with their JSON around them), and the big one alone
    expect(requests.sort()).toEqual([BATCH, BATCH, '/internal/test/size'].sort());
  });

  it('the batch route refuses a malformed batch and a call to a route it does not have', async () => {
    const single = serviceClient(base, credential);
    const post = (body: unknown) => {
      const json = JSON.stringify(body);
      const headers = {
        'content-type': 'application/json',
        [SERVICE_CREDENTIAL_HEADER]: signServiceRequest(credential, 'POST', BATCH, json),
      };
      return fetch(`${base}${BATCH}`, { method: 'POST', headers, body: json });
    };
    expect((await post({ calls: [] })).status).toBe(400);
    expect((await post({ calls: 'x' })).status).toBe(400);
    expect(
      (await post({ calls: Array.from({ length: 65 }, () => ({ path: '/internal/test/nothing', body: {} })) })).status,
    ).toBe(400);
    const res = await post({
      calls: [
        { path: '/internal/test/missing', body: {} },
        { path: '/internal/test/double', body: { n: 3 } },
      ],
    });
    expect(res.status).toBe(200);
    const { answers } = (await res.json()) as { answers: { status: number; body: unknown }[] };
    expect(answers[0].status).toBe(404);
    expect(answers[1]).toEqual({ status: 200, body: { twice: 6 } });
    // through the client: "unavailable", as a missing route alone
    const batched = serviceClient(base, credential, undefined, { batchPath: BATCH });
    const [missing] = await Promise.all([
      outcome(batched('/internal/test/missing', {})),
      outcome(batched('/internal/test/nothing', {})),
    ]);
    expect(missing).toEqual({ other: 'unavailable' });
    expect(await outcome(single('/internal/test/missing', {}))).toEqual({ other: 'unavailable' });
  });

  it('each batched call counts as a request of its own route in the HTTP metrics (what the alerts read), the batch itself not', async () => {
    const counts = async () => {
      const { values } = await httpRequestDuration.get();
      return (route: string, statusClass: string) =>
        values
          .filter(
            (v) =>
              v.metricName === 'http_request_duration_seconds_count' &&
              v.labels.route === route &&
              v.labels.status_class === statusClass,
          )
          .reduce((n, v) => n + v.value, 0);
    };
    const before = await counts();
    const batched = serviceClient(base, credential, undefined, { batchPath: BATCH });
    requests.length = 0;
    await Promise.all(
      (
        [
          ['/internal/test/double', { n: 1 }],
          ['/internal/test/crash', {}],
          ['/internal/test/forbidden', {}],
          ['/internal/test/no-such-route', {}],
        ] as const
      ).map(([path, body]) => batched(path, body).catch(() => null)),
    );
    expect(requests).toEqual([BATCH]);
    await new Promise((resolve) => setTimeout(resolve, 50)); // the batch's own 'finish' (it must not count)
    const after = await counts();
    const added = (route: string, statusClass: string) => after(route, statusClass) - before(route, statusClass);
    expect(added('/internal/test/double', '2xx')).toBe(1);
    expect(added('/internal/test/crash', '5xx')).toBe(1); // inside a batch that answered 200
    expect(added('/internal/test/forbidden', '4xx')).toBe(1);
    expect(added('unmatched', '4xx')).toBe(1); // a caller's unknown path never becomes a label
    expect(added(BATCH, '2xx')).toBe(0);
  });

  it('every internal POST route of the room, messaging and presence services is callable through their batch route', () => {
    const routers = [
      internalRoomRouter({} as never),
      internalMessagingRouter({} as never),
      internalPresenceRouter({} as never),
    ];
    for (const r of routers) {
      const posts = (r as unknown as { stack: { route?: { path: string; methods: Record<string, boolean> } }[] }).stack
        .filter((l) => l.route?.methods.post)
        .map((l) => l.route!.path);
      const batchable = [...(r as InternalRouter).internalHandlers.keys()];
      expect(posts.length).toBeGreaterThan(1);
      expect(posts.filter((p) => !p.endsWith('/batch')).sort()).toEqual(batchable.sort());
    }
  });
});
