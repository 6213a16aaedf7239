/**
 * Real Postgres, Redis and Kafka as plain child processes (no container engine on these machines).
 * Used by the test suite's global setup and by the distributed-mode scripts. Each start function resolves
 * once the server answers, and the returned stop() shuts it down cleanly.
 *
 * Children are started through `setpriv --pdeathsig KILL` (processes.ts), so the kernel kills them if this process
 * dies without running stop() (crash, SIGKILL, Ctrl-C on vitest): no orphaned brokers holding ports.
 * Binaries come from deploy/local/install.sh (Debian packages + Kafka jars from Maven Central).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Kafka, logLevel } from 'kafkajs';
import { freePort } from '../../services/platform/src/net.ts';
import { launch, osUser, runToEnd, stopChild, waitUntil } from './processes.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const KAFKA_LIBS = path.join(here, '.kafka', 'libs');

export interface Running {
  stop(): Promise<void>;
  logFile: string;
}
export interface RunningPostgres extends Running {
  url: string;
}
export interface RunningRedis extends Running {
  url: string;
}
export interface RunningKafka extends Running {
  brokers: string[];
}

export { freePort };

// ---------------------------------------------------------------- Postgres

export async function startPostgres(opts: {
  dataDir: string;
  port: number;
  logFile?: string;
}): Promise<RunningPostgres> {
  const bin = postgresBinDir();
  const logFile = opts.logFile ?? `${opts.dataDir}.log`;
  // Postgres refuses to run as root: run initdb and the server as the `postgres` OS user, who must own the data.
  const user = process.getuid?.() === 0 ? osUser('postgres') : undefined;
  fs.mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  if (user) fs.chownSync(opts.dataDir, user.uid, user.gid);

  if (!fs.existsSync(path.join(opts.dataDir, 'PG_VERSION'))) {
    await runToEnd(
      path.join(bin, 'initdb'),
      ['-D', opts.dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C'],
      { logFile, user },
    );
  }
  const child = launch(
    path.join(bin, 'postgres'),
    [
      '-D',
      opts.dataDir,
      '-p',
      String(opts.port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=', // TCP only: no socket dir permissions to get wrong
      // Durability is the point of the log: never trade it for speed, even in tests.
      '-c',
      'fsync=on',
      '-c',
      'synchronous_commit=on',
      '-c',
      'max_connections=200', // one database and pool per test file, several files in parallel
    ],
    { logFile, user },
  );

  const adminUrl = `postgres://postgres@127.0.0.1:${opts.port}/postgres`;
  await waitUntil(child, logFile, 'postgres', async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    try {
      await client.connect();
      const { rowCount } = await client.query(`SELECT 1 FROM pg_database WHERE datname = 'ephemera'`);
      if (!rowCount) await client.query('CREATE DATABASE ephemera');
    } finally {
      await client.end().catch(() => {});
    }
  });
  return {
    url: `postgres://postgres@127.0.0.1:${opts.port}/ephemera`,
    logFile,
    stop: () => stopChild(child, 'SIGINT'), // SIGINT = fast shutdown: aborts sessions, writes a checkpoint
  };
}

/** The newest /usr/lib/postgresql/<version>/bin (Debian's layout; initdb and postgres are not on PATH). */
function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'postgres')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions.length) throw new Error(`no PostgreSQL under ${root}: run deploy/local/install.sh`);
  return path.join(root, versions[0], 'bin');
}

// ---------------------------------------------------------------- Redis

export async function startRedis(opts: { dataDir: string; port: number; logFile?: string }): Promise<RunningRedis> {
  const logFile = opts.logFile ?? `${opts.dataDir}.log`;
  fs.mkdirSync(opts.dataDir, { recursive: true });
  // Only ephemeral signals live in Redis: no snapshots, no AOF.
  const child = launch(
    'redis-server',
    ['--port', String(opts.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', opts.dataDir],
    { logFile },
  );
  await waitUntil(child, logFile, 'redis', () => redisPing(opts.port));
  return { url: `redis://127.0.0.1:${opts.port}`, logFile, stop: () => stopChild(child, 'SIGTERM') };
}

function redisPing(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.setTimeout(1000, () => socket.destroy(new Error('timeout')));
    socket.on('error', reject);
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (buf) => {
      socket.destroy();
      // "-LOADING" while it reads a dump; only +PONG means it serves commands.
      if (buf.toString().startsWith('+PONG')) resolve();
      else reject(new Error(buf.toString()));
    });
  });
}

// ---------------------------------------------------------------- Kafka

export async function startKafka(opts: {
  dataDir: string;
  port: number;
  controllerPort: number;
  logFile?: string;
}): Promise<RunningKafka> {
  if (!fs.existsSync(KAFKA_LIBS)) throw new Error(`no Kafka jars in ${KAFKA_LIBS}: run deploy/local/install.sh`);
  const logFile = opts.logFile ?? `${opts.dataDir}.log`;
  const logDirs = path.join(opts.dataDir, 'logs');
  fs.mkdirSync(logDirs, { recursive: true });

  const template = fs.readFileSync(path.join(here, 'kafka', 'server.properties'), 'utf8');
  const props = path.join(opts.dataDir, 'server.properties');
  fs.writeFileSync(props, fill(template, { port: opts.port, controllerPort: opts.controllerPort, logDirs }));
  const log4j = path.join(opts.dataDir, 'log4j.properties');
  fs.writeFileSync(
    log4j,
    [
      'log4j.rootLogger=INFO, stdout', // stdout goes to logFile
      'log4j.appender.stdout=org.apache.log4j.ConsoleAppender',
      'log4j.appender.stdout.layout=org.apache.log4j.PatternLayout',
      'log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n',
      'log4j.logger.kafka.log.LogCleaner=WARN',
      'log4j.logger.org.apache.kafka.storage=WARN',
      '',
    ].join('\n'),
  );

  // Two cores shared with Postgres, Redis, the services and the tests: a small heap, no parallel GC threads, and
  // C1 JIT only, which starts the broker in roughly half the time; peak throughput matters less here.
  const java = (mainClass: string, args: string[]) => [
    '-Xms128m',
    '-Xmx512m',
    '-XX:+UseSerialGC',
    '-XX:TieredStopAtLevel=1',
    `-Dlog4j.configuration=file:${log4j}`,
    '-cp',
    path.join(KAFKA_LIBS, '*'),
    mainClass,
    ...args,
  ];
  // KRaft needs its metadata log formatted once with a cluster id (22-char base64url of 16 random bytes).
  if (!fs.existsSync(path.join(logDirs, 'meta.properties'))) {
    // A leading '-' would be read as an option by kafka-storage's argument parser (1 run in 64 failed to start).
    const clusterId = randomBytes(16).toString('base64url').replace(/^-/, 'A');
    await runToEnd(
      'java',
      java('kafka.tools.StorageTool', ['format', '-t', clusterId, '-c', props, '--ignore-formatted']),
      { logFile },
    );
  }
  const child = launch('java', java('kafka.Kafka', [props]), { logFile });

  const brokers = [`127.0.0.1:${opts.port}`];
  const kafka = new Kafka({ clientId: 'infra-readiness', brokers, logLevel: logLevel.NOTHING, retry: { retries: 0 } });
  await waitUntil(
    child,
    logFile,
    'kafka',
    async () => {
      const admin = kafka.admin();
      try {
        await admin.connect();
        await admin.listTopics(); // metadata answered: the broker has registered with its controller
      } finally {
        await admin.disconnect().catch(() => {});
      }
    },
    90_000,
  );
  // The first consumer group and the first idempotent producer make the broker create __consumer_offsets and
  // load its coordinators; until then clients get (and log) "coordinator not available". Get that done here.
  const warm = new Kafka({
    clientId: 'infra-readiness',
    brokers,
    logLevel: logLevel.NOTHING,
    retry: { initialRetryTime: 100, retries: 3 },
  });
  await waitUntil(
    child,
    logFile,
    'kafka coordinators',
    async () => {
      const admin = warm.admin();
      const producer = warm.producer({ idempotent: true });
      try {
        await admin.connect();
        await admin.describeGroups(['infra-readiness']); // needs the group coordinator; throws until it is up
        await producer.connect(); // InitProducerId
      } finally {
        await Promise.all([admin.disconnect().catch(() => {}), producer.disconnect().catch(() => {})]);
      }
    },
    60_000,
  );
  // Controlled shutdown of one node takes a few seconds; past 20 s something hangs, so kill it.
  return { brokers, logFile, stop: () => stopChild(child, 'SIGTERM', 20_000) };
}

function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`server.properties: no value for {{${name}}}`);
    return String(values[name]);
  });
}
