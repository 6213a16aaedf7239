/**
 * Starts real Postgres, Redis and Kafka once for the whole `vitest run` (processes, not containers: these machines
 * have no container engine) and hands their addresses to test files through sharedInfra() (test/helpers/infra.ts).
 * The unit project (vitest.config.ts) runs without it.
 * Tests share the servers and isolate themselves: a database per file (test/helpers/db.ts), unique keys, group ids
 * and aggregate ids.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import {
  freePort,
  startKafka,
  startPostgres,
  startRedis,
  type RunningKafka,
  type RunningPostgres,
  type RunningRedis,
} from '../deploy/local/infra.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** superuser URL of the shared server (database "ephemera"); use createTestDatabase() for a private one */
    pgUrl: string;
    redisUrl: string;
    /** comma-separated host:port list */
    kafkaBrokers: string;
    /** where the three servers keep their data: pg/ (with pg_wal), redis/, kafka/logs/ (the canary tests read the raw bytes) */
    infraDataDir: string;
  }
}

const PREFIX = 'ephemera-test-';

interface StartedInfra {
  pgUrl: string;
  redisUrl: string;
  kafkaBrokers: string;
  infraDataDir: string;
  stop(): Promise<void>;
}

/**
 * Vitest runs a project's global setup once per project that has files in the run, all in this process: the
 * integration, e2e and ops projects (vitest.config.ts) share one start, made by the first and stopped by the last.
 */
const RUN = Symbol.for('ephemera.test-infra');
type Shared = { infra: Promise<StartedInfra>; projects: number };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const holder = globalThis as { [RUN]?: Shared };
  const shared = (holder[RUN] ??= { infra: startInfra(), projects: 0 });
  shared.projects++;
  const infra = await shared.infra;
  project.provide('pgUrl', infra.pgUrl);
  project.provide('redisUrl', infra.redisUrl);
  project.provide('kafkaBrokers', infra.kafkaBrokers);
  project.provide('infraDataDir', infra.infraDataDir);
  return async () => {
    if (--shared.projects > 0) return;
    delete holder[RUN];
    await infra.stop();
  };
}

async function startInfra(): Promise<StartedInfra> {
  removeStaleRuns();
  const root = path.join(os.tmpdir(), `${PREFIX}${process.pid}`);
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root, { mode: 0o755 }); // the postgres OS user must be able to reach its data dir inside

  const started = Date.now();
  const results = await Promise.allSettled([
    onFreePorts(1, ([port]) => startPostgres({ dataDir: path.join(root, 'pg'), port })),
    onFreePorts(1, ([port]) => startRedis({ dataDir: path.join(root, 'redis'), port })),
    onFreePorts(2, ([port, controllerPort]) => startKafka({ dataDir: path.join(root, 'kafka'), port, controllerPort })),
  ] as const);
  const stopAll = async () => {
    await Promise.all(results.map((r) => (r.status === 'fulfilled' ? r.value.stop() : Promise.resolve())));
  };
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) {
    await stopAll();
    throw (failed as PromiseRejectedResult).reason;
  }
  const [pg, redis, kafka] = results as unknown as [
    PromiseFulfilledResult<RunningPostgres>,
    PromiseFulfilledResult<RunningRedis>,
    PromiseFulfilledResult<RunningKafka>,
  ];
  console.log(`[global-setup] postgres, redis, kafka ready in ${Date.now() - started} ms (data and logs in ${root})`);
  return {
    pgUrl: pg.value.url,
    redisUrl: redis.value.url,
    kafkaBrokers: kafka.value.brokers.join(','),
    infraDataDir: root,
    stop: async () => {
      await stopAll();
      if (!process.env.EPHEMERA_KEEP_TEST_DATA) fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * A port is free when picked, but other test runs on the machine may bind it before a server does (a JVM takes
 * seconds to bind): start again on fresh ports when that happens. Ports handed out here are never reused.
 */
const handedOut = new Set<number>();
async function onFreePorts<T>(n: number, start: (ports: number[]) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const ports: number[] = [];
    while (ports.length < n) {
      const port = await freePort();
      if (!handedOut.has(port)) ports.push(port);
      handedOut.add(port);
    }
    try {
      return await start(ports);
    } catch (err) {
      if (attempt >= 3 || !/address already in use/i.test(String(err))) throw err;
    }
  }
}

/** Data dirs of earlier runs that were killed before their teardown (their pid is gone). */
function removeStaleRuns(): void {
  for (const name of fs.readdirSync(os.tmpdir())) {
    const pid = Number(name.slice(PREFIX.length));
    if (!name.startsWith(PREFIX) || !Number.isInteger(pid) || pid === process.pid || isAlive(pid)) continue;
    fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
