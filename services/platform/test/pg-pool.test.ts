/**
 * The pool never leaves a caller waiting for good, and readiness says why it is lost (the PostgreSQL failure drill
 * depends on both: a service must report ready again by itself once the database is back).
 */
import net from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/helpers/db.ts';
import { CONNECT_TIMEOUT_MS, READY_TIMEOUT_MS, createPool, pgPoolGauge, pgReady } from '../src/pg.ts';
import { opsRoutes } from '../src/http.ts';
import { createLogger } from '../src/log.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
});

/** A server that accepts TCP connections and never says a word: a connect that never completes. */
async function silentServer(): Promise<string> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
  });
  return `postgres://nobody@127.0.0.1:${(server.address() as AddressInfo).port}/none`;
}

async function gauge(): Promise<Record<string, number>> {
  const { values } = await pgPoolGauge.get();
  return Object.fromEntries(values.map((v) => [String(v.labels.state), v.value]));
}

describe('PostgreSQL pool bounds', () => {
  it('a full pool: readiness fails within its bound naming the waiting caller, the gauge shows it, and it recovers once a client is free', async () => {
    const pool = createPool(await createTestDatabase(), 1);
    cleanups.push(() => pool.end());
    const held = await pool.connect(); // the pool's only client, held
    const before = await gauge();
    const started = Date.now();
    const probe = pgReady(pool);
    await new Promise((r) => setTimeout(r, 50));
    expect((await gauge()).waiting - (before.waiting ?? 0)).toBe(1);
    await expect(probe).rejects.toThrow(/did not answer within 3000 ms \(pool: 1 open, 0 idle, 1 waiting\)/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(READY_TIMEOUT_MS - 50);
    expect(Date.now() - started).toBeLessThan(READY_TIMEOUT_MS + 1_000);
    held.release();
    expect(await pgReady(pool)).toBe(true);
  });

  it(
    'a connect that never completes fails after CONNECT_TIMEOUT_MS instead of holding its caller for good',
    async () => {
      const pool = createPool(await silentServer(), 2);
      cleanups.push(() => pool.end());
      const started = Date.now();
      const [ready, query] = await Promise.allSettled([pgReady(pool), pool.query('SELECT 1')]);
      expect(ready.status).toBe('rejected');
      expect(query.status).toBe('rejected');
      expect(String((query as PromiseRejectedResult).reason)).toMatch(/timeout/i);
      expect(Date.now() - started).toBeGreaterThanOrEqual(CONNECT_TIMEOUT_MS - 50);
      expect(Date.now() - started).toBeLessThan(CONNECT_TIMEOUT_MS + 3_000);
    },
    CONNECT_TIMEOUT_MS + 10_000,
  );

  it('a held client whose connection is terminated between two queries does not crash the process; its next query fails and the pool recovers', async () => {
    const pool = createPool(await createTestDatabase(), 2);
    cleanups.push(() => pool.end());
    const held = await pool.connect();
    const pid = (await held.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
    // what PostgreSQL's shutdown does to every backend: held between queries, nobody is waiting on this connection
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => {
      uncaught.push(err);
    };
    process.on('uncaughtException', onUncaught);
    try {
      expect((await pool.query('SELECT pg_terminate_backend($1) AS ok', [pid])).rows[0].ok).toBe(true);
      await new Promise((r) => setTimeout(r, 200)); // the termination reaches the held client
      await expect(held.query('SELECT 1')).rejects.toThrow();
      held.release();
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);
    expect((await pool.query('SELECT 1 AS one')).rows[0].one).toBe(1);
    expect(await pgReady(pool)).toBe(true);
  });

  it('an ended pool leaves the gauge', async () => {
    const pool = createPool(await createTestDatabase(), 3);
    await Promise.all([pool.query('SELECT pg_sleep(0.05)'), pool.query('SELECT pg_sleep(0.05)')]);
    const open = (await gauge()).total;
    await pool.end();
    expect((await gauge()).total).toBe(open - 2);
  });
});

describe('/readyz', () => {
  it('answers 503 without the reason; logs the loss with its reason once per kind of failure, and the return once', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger(
      'test',
      'info',
      new Writable({
        write(chunk, _e, cb) {
          lines.push(JSON.parse(String(chunk)));
          cb();
        },
      }),
    );
    let state: 'up' | 'down' | 'slow' = 'up';
    let waiting = 0;
    const app = express().use(
      opsRoutes(async () => {
        if (state === 'down') throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
        if (state === 'slow') throw new Error(`no answer (pool: ${++waiting} waiting)`);
        return true;
      }, logger),
    );
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    cleanups.push(() => new Promise((r) => server.close(r)));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/readyz`;
    const probe = async () => {
      const r = await fetch(url);
      return { status: r.status, body: await r.text() };
    };

    expect((await probe()).status).toBe(200);
    state = 'down';
    const down = [await probe(), await probe(), await probe()];
    expect(down.map((d) => d.status)).toEqual([503, 503, 503]);
    expect(down[0].body).toBe('{"ok":false}'); // no internal error in the answer
    state = 'slow';
    expect([(await probe()).status, (await probe()).status]).toEqual([503, 503]);
    state = 'up';
    expect((await probe()).status).toBe(200);
    expect((await probe()).status).toBe(200);
    expect(lines.map((l) => [l.msg, l.reason])).toEqual([
      ['not ready', 'connect ECONNREFUSED 127.0.0.1:5432'],
      ['not ready', 'no answer (pool: 1 waiting)'], // a new kind of failure; its second reading differs only by a figure
      ['ready again', undefined],
    ]);
  });
});
