/**
 * The distributed topology on one machine, the way Kubernetes runs it (charts/ mirrors it): Postgres, Redis and
 * Kafka as real servers, each service as its own process, two gateway replicas, and nginx in front routing by
 * path like the ingress (/socket.io -> gateways, sticky by cookie; /api/link-preview and the file routes -> messaging;
 * /api/auth, /api/payments, /api/contact -> billing; /api/admin and /api/maintenance -> admin-analytics; /api -> room
 * service; the rest -> the built frontend). This process supervises them all: `bash deploy/local/up.sh` runs it in the background,
 * `bash deploy/local/down.sh` stops it and with it everything it started.
 *
 * Pids go to deploy/local/.run/<name>.pid (benchmarks read CPU time from them; tests kill one to see recovery).
 * Services call each other on their internal listeners (ports.ts internalPortOf), every call signed with one
 * SERVICE_SECRET: the environment's, or a random one for this run, kept in .run/service-secret (mode 0600) so a
 * bench or a script can call an internal route as a service would (docs/security.md).
 */
import { randomBytes } from 'node:crypto';
import { startVersitygw } from './versitygw.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startKafka, startPostgres, startRedis } from './infra.ts';
import { startIngress } from './ingress.ts';
import { startLayer4 } from './layer4.ts';
import { internalPortOf, metricsPortOf } from './ports.ts';
import { localStackConfig, stackPortsOf } from './config.ts';
import { configOrExit } from '../../services/platform/src/config.ts';
import { SERVICE_NODE_FLAGS } from '../node-flags.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const config = configOrExit(localStackConfig);
const runDir = path.resolve(repo, config.EPHEMERA_RUN_DIR);
const ports = stackPortsOf(config);

const children = new Map<string, ChildProcess>();
const stops: (() => Promise<void>)[] = [];
let stopping = false;

async function main() {
  fs.mkdirSync(runDir, { recursive: true, mode: 0o755 });
  fs.chmodSync(runDir, 0o755);
  const data = path.join(runDir, 'data');
  fs.mkdirSync(data, { recursive: true, mode: 0o755 });
  fs.chmodSync(data, 0o755);

  const [pg, redis, kafka] = await Promise.all([
    startPostgres({
      dataDir: path.join(data, 'postgres'),
      port: ports.postgres,
      logFile: path.join(runDir, 'postgres.log'),
    }),
    startRedis({ dataDir: path.join(data, 'redis'), port: ports.redis, logFile: path.join(runDir, 'redis.log') }),
    startKafka({
      dataDir: path.join(data, 'kafka'),
      port: ports.kafka,
      controllerPort: ports.kafkaController,
      logFile: path.join(runDir, 'kafka.log'),
    }),
  ]);
  stops.push(
    () => kafka.stop(),
    () => redis.stop(),
    () => pg.stop(),
  );
  // Uploaded files: an S3-compatible server (versitygw) over a folder of the stack's data, as S3 is in a cluster.
  const s3 = await startVersitygw({
    dir: path.join(data, 's3'),
    port: ports.s3,
    accessKeyId: 'ephemera',
    secretAccessKey: 'ephemera-local-s3-secret',
  });
  stops.unshift(() => s3.stop());
  const s3Env = {
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: 'ephemera-files',
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    S3_REGION: s3.region,
    S3_FORCE_PATH_STYLE: 'true',
  };
  // nginx (on loopback) is the trusted proxy whose X-Forwarded-For names the client; rate-limit counters in Redis.
  const serviceSecret = config.SERVICE_SECRET ?? randomBytes(32).toString('hex');
  fs.writeFileSync(path.join(runDir, 'service-secret'), serviceSecret, { mode: 0o600 });
  const common = {
    KAFKA_BROKERS: kafka.brokers.join(','),
    LOG_LEVEL: config.LOG_LEVEL,
    TRUSTED_PROXIES: '127.0.0.1',
    REDIS_URL: redis.url,
    SERVICE_SECRET: serviceSecret,
  };
  // where each service is called by the others: its internal listener
  const internal = (port: number) => `http://127.0.0.1:${internalPortOf(port)}`;

  // Room first: it creates the topics and its migrations; the others wait for it to be ready.
  // The room service owns the room data keys (docs/crypto.md): a directory beside the other stores' data.
  await service(
    'room',
    'services/room/src/main.ts',
    {
      ...common,
      PORT: ports.room,
      INTERNAL_PORT: internalPortOf(ports.room),
      METRICS_PORT: metricsPortOf(ports.room),
      DATABASE_URL: pg.url,
      ROOM_KEY_DIR: path.join(data, 'room-keys'),
      BILLING_URL: internal(ports.billing),
    },
    ports.room,
  );
  await Promise.all([
    service(
      'messaging',
      'services/messaging/src/main.ts',
      {
        ...common,
        PORT: ports.messaging,
        INTERNAL_PORT: internalPortOf(ports.messaging),
        METRICS_PORT: metricsPortOf(ports.messaging),
        DATABASE_URL: pg.url,
        ROOM_URL: internal(ports.room),
        ...s3Env,
      },
      ports.messaging,
    ),
    // Accounts: its own key volume; SMTP_URL, SUPERADMIN_EMAIL and the Google (OIDC) settings pass through from the
    // environment (without SMTP_URL the sign-in codes are written to .run/billing.log).
    service(
      'billing',
      'services/billing/src/main.ts',
      {
        ...common,
        PORT: ports.billing,
        INTERNAL_PORT: internalPortOf(ports.billing),
        METRICS_PORT: metricsPortOf(ports.billing),
        DATABASE_URL: pg.url,
        ROOM_URL: internal(ports.room),
        ACCOUNT_KEY_DIR: path.join(data, 'account-keys'),
      },
      ports.billing,
    ),
    service(
      'presence',
      'services/presence/src/main.ts',
      {
        LOG_LEVEL: common.LOG_LEVEL,
        PORT: ports.presence,
        INTERNAL_PORT: internalPortOf(ports.presence),
        METRICS_PORT: metricsPortOf(ports.presence),
        REDIS_URL: redis.url,
        SERVICE_SECRET: serviceSecret,
      },
      ports.presence,
    ),
  ]);
  // Admin-analytics after billing and messaging: at start it replays every topic, asking room and billing for the
  // keys that open their events. Its own key volume and backup directory; SUPERADMIN_EMAIL passes through (as billing's).
  await service(
    'admin-analytics',
    'services/admin-analytics/src/main.ts',
    {
      ...common,
      PORT: ports.admin,
      DATABASE_URL: pg.url,
      ROOM_URL: internal(ports.room),
      BILLING_URL: internal(ports.billing),
      MESSAGING_URL: internal(ports.messaging),
      ADMIN_KEY_DIR: path.join(data, 'admin-keys'),
      BACKUP_DIR: path.join(data, 'backups'),
      METRICS_PORT: metricsPortOf(ports.admin),
      // System Health counts every other service's answers and uptime from its metrics listener (ports.ts: metricsPortOf)
      ADMIN_HEALTH_TARGETS: [ports.room, ports.messaging, ports.billing, ports.presence, ports.gateway1, ports.gateway2]
        .map((p) => `http://127.0.0.1:${metricsPortOf(p)}/metrics`)
        .join(','),
    },
    ports.admin,
  );
  const gatewayEnv = (id: string, port: number) => ({
    ...common,
    PORT: port,
    METRICS_PORT: metricsPortOf(port),
    GATEWAY_ID: id,
    ALLOWED_ORIGINS: config.ALLOWED_ORIGINS.join(','),
    ROOM_URL: internal(ports.room),
    MESSAGING_URL: internal(ports.messaging),
    PRESENCE_URL: internal(ports.presence),
    // the layer-4 entry (layer4.ts) brings every request to the gateways: they forward what is not Socket.IO's to
    // the HTTP ingress, as the chart's layer-4 path forwards to the ingress controller
    HTTP_UPSTREAM: `http://127.0.0.1:${ports.http}`,
  });
  await Promise.all([
    service('gateway-1', 'services/gateway/src/main.ts', gatewayEnv('gateway-1', ports.gateway1), ports.gateway1),
    service('gateway-2', 'services/gateway/src/main.ts', gatewayEnv('gateway-2', ports.gateway2), ports.gateway2),
  ]);
  await startNginx();
  fs.writeFileSync(path.join(runDir, 'ready'), `http://127.0.0.1:${ports.http}\n`);
  console.log(`Ephemera (distributed) is running at http://localhost:${ports.http}`);
}

/** Start one service process and wait for its /healthz; restart it if it dies (like a Deployment would). */
async function service(
  name: string,
  entry: string,
  vars: Record<string, string | number>,
  port: number,
): Promise<void> {
  const log = fs.openSync(path.join(runDir, `${name}.log`), 'a');
  const start = () => {
    // STACK_CPU_PROFILE=gateway-1,messaging: those processes write a V8 CPU profile to .run/profiles when they stop
    const profiled = (config.STACK_CPU_PROFILE ?? '').split(',').includes(name);
    const profile = profiled ? ['--cpu-prof', `--cpu-prof-dir=${path.join(runDir, 'profiles', name)}`] : [];
    // The production flags (deploy/node-flags.ts), then STACK_NODE_FLAGS='--trace-gc ...': more V8 flags for every
    // service process while investigating (NODE_OPTIONS refuses most of them)
    const flags = [...SERVICE_NODE_FLAGS, ...(config.STACK_NODE_FLAGS ?? '').split(' ').filter(Boolean)];
    const child = spawn(process.execPath, [...flags, ...profile, '--import', 'tsx', path.join(repo, entry)], {
      cwd: repo,
      stdio: ['ignore', log, log],
      env: { ...process.env, ...Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, String(v)])) },
    });
    children.set(name, child);
    fs.writeFileSync(path.join(runDir, `${name}.pid`), String(child.pid));
    child.on('exit', (code, signal) => {
      if (stopping) return;
      fs.writeSync(log, `[stack] ${name} exited (${code ?? signal}); restarting in 1 s\n`);
      setTimeout(() => {
        if (!stopping) start();
      }, 1000);
    });
  };
  start();
  await waitHealthy(`http://127.0.0.1:${port}/healthz`, name);
}

async function waitHealthy(url: string, name: string, timeoutMs = 120_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${name} did not become healthy (see ${path.join(runDir, `${name}.log`)})`);
}

async function startNginx(): Promise<void> {
  const ingress = await startIngress({
    runDir,
    port: ports.http,
    gateway1Port: ports.gateway1,
    gateway2Port: ports.gateway2,
    roomPort: ports.room,
    messagingPort: ports.messaging,
    billingPort: ports.billing,
    adminPort: ports.admin,
  });
  children.set('nginx', ingress.child);
  fs.writeFileSync(path.join(runDir, 'nginx.pid'), String(ingress.child.pid));
  try {
    const l4 = await startLayer4({ runDir, port: ports.l4, gatewayPorts: [ports.gateway1, ports.gateway2] });
    children.set('nginx-l4', l4.child);
    fs.writeFileSync(path.join(runDir, 'nginx-l4.pid'), String(l4.child.pid));
    console.log(`Layer-4 entry (nginx stream -> gateways -> HTTP ingress): http://localhost:${ports.l4}`);
  } catch (e) {
    // the product runs without it: only the layer-4 measurement needs it
    console.log(`Layer-4 entry not started: ${(e as Error).message}`);
  }
}

async function stopAll(code: number) {
  if (stopping) return;
  stopping = true;
  for (const [name, child] of [...children].reverse()) {
    child.kill('SIGTERM');
    await new Promise((r) => {
      if (child.exitCode !== null || child.signalCode) r(null);
      else {
        child.once('exit', r);
        setTimeout(r, 10_000);
      }
    });
    fs.rmSync(path.join(runDir, `${name}.pid`), { force: true });
  }
  for (const stop of stops) await stop().catch(() => {});
  fs.rmSync(path.join(runDir, 'ready'), { force: true });
  process.exit(code);
}

process.on('SIGTERM', () => void stopAll(0));
process.on('SIGINT', () => void stopAll(0));
main().catch((err) => {
  console.error(err);
  void stopAll(1);
});
