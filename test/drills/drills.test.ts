/**
 * Failure drills (docs/product/security.md S23; runbooks in docs/runbooks/): during steady chat through the balancer,
 * Redis is
 * restarted, a gateway replica is killed, PostgreSQL is restarted and Kafka is stopped for 10 s, each on the drills'
 * own servers (drill-stack.ts). After each: 0 acknowledged messages missing from any client, 0 duplicates, a
 * gap-free sequence every client sees in the same order, and the figures (recovery times, errors seen) printed.
 * One stack serves the four drills, in this order, so the whole file stays within a few minutes.
 */
import { describe, it, expect, beforeAll, afterAll, afterEach } from 'vitest';
import { raiseRateLimitsForBench } from '../../load-tests/lib/limits.ts';
import { http } from '../helpers/clients.ts';
import { startDrillStack } from './drill-stack.ts';
import { ChildService } from '../distributed/stack.ts';
import {
  deliveredToAll,
  judge,
  onlineAsSeenBy,
  startChat,
  steadyChat,
  typingHeard,
  until,
  type Chat,
  type Verdict,
} from './chat.ts';

let drill: Awaited<ReturnType<typeof startDrillStack>>;
let chat: Chat;
const figures: Record<string, Record<string, unknown>> = {};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** the one limit left at a product-like value: the Redis drill shows it still enforced while Redis is down */
const NAME_CHECKS = 20;

beforeAll(async () => {
  const started = Date.now();
  // The drills measure recovery, not the limits: clients resending every unacknowledged message during an outage
  // would otherwise run into the per-user send limit and stretch every recovery (set before the servers start;
  // the child processes inherit it).
  process.env.RATE_LIMIT_NAME_CHECKS_PER_ADDRESS = `${NAME_CHECKS}/60`;
  console.log(`[drills] ${raiseRateLimitsForBench()}`);
  drill = await startDrillStack();
  chat = await startChat(drill.url);
  console.log(
    `[drills] own PostgreSQL, Redis, Kafka and the distributed stack ready in ${Date.now() - started} ms; ${chat.clients.length} clients of ${chat.usernames.length} users`,
  );
}, 240_000);
afterAll(async () => {
  for (const c of chat?.clients ?? []) c.close();
  await drill?.stop();
  console.log(
    '[drills] figures\n' +
      Object.entries(figures)
        .map(([name, f]) => `  ${name}: ${JSON.stringify(f)}`)
        .join('\n'),
  );
}, 120_000);

// A failed drill says which child processes are still alive, and what the others wrote last (a crash's stack).
afterEach((ctx) => {
  if (ctx.task.result?.state !== 'fail' || !drill) return;
  const children = [drill.stack.messaging, drill.stack.gateway2].filter((c) => c instanceof ChildService);
  console.error(`[drills] after "${ctx.task.name}":\n${children.map((c) => c.state()).join('\n')}`);
});

/** Steady chat around a drill; the chat stops (and is judged) even when the drill fails half-way. */
async function duringChat(
  label: string,
  drillBody: () => Promise<Record<string, unknown>>,
  ackTimeoutMs = 120_000,
): Promise<{ v: Verdict; f: Record<string, unknown> }> {
  const load = steadyChat(chat, label, 4);
  try {
    await sleep(1_000);
    const f = await drillBody();
    const v = await judge(chat, await load.stop(ackTimeoutMs));
    figures[label] = { ...f, ...v };
    return { v, f };
  } finally {
    await load.stop(1).catch(() => {});
  }
}

function expectNothingLost(v: Verdict) {
  expect(v.acked).toBe(v.sent);
  expect(v.lost).toBe(0);
  expect(v.duplicates).toBe(0);
  expect(v.gaps).toBe(0);
  expect(v.orderMismatches).toBe(0);
}

async function readyz(url: string): Promise<number> {
  return fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) }).then(
    (r) => r.status,
    () => 0,
  );
}

describe('failure drills (own Kafka, Redis, PostgreSQL)', () => {
  it('Redis restarted: presence and typing come back within 5 s, rate limits hold (per process) while it is down, nothing lost', async () => {
    const { v, f } = await duringChat('redis', async () => {
      await drill.stopRedis();
      // While Redis is down each process limits on its own (rate-limiter-flexible's insurance limiter).
      const checks = await Promise.all(
        Array.from({ length: NAME_CHECKS + 1 }, (_, k) => http(drill.url, `/api/workspaces/check-name/drill-${k}`)),
      );
      const statuses = checks.map((c) => c.status);
      await sleep(1_000);
      await drill.startRedis();
      const up = Date.now();
      // Presence as a user sees it: a new tab's online list names every member again.
      const everyone = [...chat.usernames].sort().join();
      await until(
        async () => (await onlineAsSeenBy(drill.url, chat, 'alice').catch(() => [])).join() === everyone,
        30_000,
        'presence not back',
        250,
      );
      const presenceMs = Date.now() - up;
      await typingHeard(drill.url, chat, 'alice');
      const typingMs = Date.now() - up;
      const probeMs = await deliveredToAll(chat, 'after redis');
      return {
        nameChecksWhileDown: `${statuses.filter((x) => x === 200).length} ok, ${statuses.filter((x) => x === 429).length} limited, ${statuses.filter((x) => x >= 500).length} failed`,
        presenceBackAfterMs: presenceMs,
        typingBackAfterMs: typingMs,
        probeDeliveredAfterMs: probeMs,
      };
    });
    expectNothingLost(v);
    expect(f.nameChecksWhileDown).toBe(`${NAME_CHECKS} ok, 1 limited, 0 failed`);
    expect(f.presenceBackAfterMs).toBeLessThan(5_000);
    expect(f.typingBackAfterMs).toBeLessThan(5_000);
  }, 120_000);

  it('a gateway replica killed: its clients reconnect to the other one and miss nothing', async () => {
    const { v, f } = await duringChat('gatewayKilled', async () => {
      const onFirst = drill.stack.gateway1.io.of('/').sockets.size;
      const killed = Date.now();
      await drill.stack.gateway2.kill('SIGKILL');
      await sleep(200); // the clients notice the closed connection
      await Promise.all(chat.clients.map((c) => c.waitJoined(30_000)));
      const rejoinMs = Date.now() - killed;
      const moved = drill.stack.gateway1.io.of('/').sockets.size - onFirst;
      return {
        clientsMoved: moved,
        allRejoinedAfterMs: rejoinMs,
        probeDeliveredAfterMs: await deliveredToAll(chat, 'after gateway kill'),
      };
    });
    expect(f.clientsMoved).toBeGreaterThan(0);
    expect(drill.stack.gateway1.io.of('/').sockets.size).toBeGreaterThanOrEqual(chat.clients.length);
    expectNothingLost(v);
    await drill.stack.gateway2.start(); // back for the next drills (new connections are balanced over both)
  }, 120_000);

  it('PostgreSQL restarted: services report not ready, recover by themselves, lose nothing', async () => {
    const { v, f } = await duringChat('postgres', async () => {
      // The two services with a database: messaging (a child process) and room.
      const services = { messaging: drill.stack.messaging.url, room: `http://127.0.0.1:${drill.stack.roomPort}` };
      await drill.stopPostgres();
      const down = Date.now();
      const notReady = new Set<string>();
      while (Date.now() - down < 5_000) {
        for (const [name, url] of Object.entries(services)) if ((await readyz(url)) === 503) notReady.add(name);
        await sleep(250);
      }
      await drill.startPostgres();
      const up = Date.now();
      // On failure the message names who stayed unready; each service has logged why (opsRoutes, at warn).
      const last: Record<string, number> = {};
      await until(
        async () => {
          for (const [name, url] of Object.entries(services)) last[name] = await readyz(url);
          return Object.values(last).every((s) => s === 200);
        },
        60_000,
        'services not ready again',
        100,
      ).catch((err: Error) => {
        throw new Error(`${err.message}: last /readyz ${JSON.stringify(last)}`);
      });
      const readyMs = Date.now() - up;
      return {
        down: '5 s',
        notReadySeen: [...notReady].sort().join(','),
        readyAgainAfterMs: readyMs,
        probeDeliveredAfterMs: await deliveredToAll(chat, 'after postgres'),
      };
    });
    expect(f.notReadySeen).toBe('messaging,room');
    expectNothingLost(v);
  }, 120_000);

  it('Kafka stopped for 10 s: sends are refused or delayed, none acknowledged and lost; clients catch up', async () => {
    const { v } = await duringChat('kafka', async () => {
      const stopping = Date.now();
      await drill.stopKafka();
      const stoppedMs = Date.now() - stopping;
      await sleep(10_000);
      const starting = Date.now();
      await drill.startKafka();
      const up = Date.now();
      return {
        shutdownMs: stoppedMs,
        down: '10 s',
        brokerStartMs: up - starting,
        probeDeliveredAfterMs: await deliveredToAll(chat, 'after kafka', 120_000),
      };
    });
    expectNothingLost(v);
  }, 240_000);
});
