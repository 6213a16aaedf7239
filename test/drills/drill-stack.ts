/**
 * The failure drills' own world: PostgreSQL, Redis and Kafka started for the drills alone (the suite's shared
 * servers, test/global-setup.ts, are never stopped), the distributed topology on top of them (room, presence and
 * gateway 1 in this process, messaging and gateway 2 as child processes), and a balancer in front of the two
 * gateways as the ingress would be. Each server can be stopped and started again on its port and data directory.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import {
  freePort,
  startKafka,
  startPostgres,
  startRedis,
  type RunningKafka,
  type RunningPostgres,
  type RunningRedis,
} from '../../deploy/local/infra.ts';
import { startDistributedStack } from '../distributed/stack.ts';
import { startBalancer } from './balancer.ts';

export async function startDrillStack() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-drills-'));
  fs.chmodSync(root, 0o755); // the postgres OS user reaches its data dir inside
  const ports = {
    pg: await freePort(),
    redis: await freePort(),
    kafka: await freePort(),
    controller: await freePort(),
  };
  const startPg = () => startPostgres({ dataDir: path.join(root, 'pg'), port: ports.pg });
  const startRd = () => startRedis({ dataDir: path.join(root, 'redis'), port: ports.redis });
  const startKf = () =>
    startKafka({ dataDir: path.join(root, 'kafka'), port: ports.kafka, controllerPort: ports.controller });
  let [pg, redis, kafka]: [RunningPostgres | null, RunningRedis | null, RunningKafka | null] = await Promise.all([
    startPg(),
    startRd(),
    startKf(),
  ]);

  const stack = await startDistributedStack({
    infra: { pgUrl: pg.url, kafkaBrokers: kafka.brokers, redisUrl: redis.url },
    messagingProcess: true,
    metrics: true,
    // The in-process services' changes of readiness, with the reason (opsRoutes); the rest of their logs is the
    // expected noise of an outage. The messaging child process logs at warn on its own.
    logLevel: 'info',
    logDestination: readinessLines(),
  });
  const balancer = await startBalancer(() => [stack.gateway1Port, stack.gateway2.port]);

  return {
    root,
    stack,
    url: balancer.url,
    async stopPostgres() {
      await pg?.stop();
      pg = null;
    },
    async startPostgres() {
      pg = await startPg();
    },
    async stopRedis() {
      await redis?.stop();
      redis = null;
    },
    async startRedis() {
      redis = await startRd();
    },
    async stopKafka() {
      await kafka?.stop();
      kafka = null;
    },
    async startKafka() {
      kafka = await startKf();
    },
    async stop() {
      await balancer.stop().catch(() => {});
      await stack.stop().catch(() => {});
      await Promise.all(
        [pg?.stop(), redis?.stop(), kafka?.stop()].map((p) => (p ?? Promise.resolve()).catch(() => {})),
      );
      if (!process.env.EPHEMERA_KEEP_TEST_DATA) fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A log destination that prints only the lines saying a service lost or regained readiness. */
function readinessLines(): Writable {
  return new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) {
        if (!line.includes('ready')) continue;
        try {
          const { msg, reason, time, server } = JSON.parse(line) as {
            msg?: string;
            reason?: string;
            time?: number;
            server?: string;
          };
          if (msg === 'not ready' || msg === 'ready again')
            console.log(
              `[drills] ${server ?? 'in-process service'} ${msg}${reason ? `: ${reason}` : ''} (${new Date(time ?? 0).toISOString()})`,
            );
        } catch {
          /* not a log record */
        }
      }
      done();
    },
  });
}
