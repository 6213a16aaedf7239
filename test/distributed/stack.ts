/**
 * The distributed topology for tests, against the Kafka, Redis and Postgres servers the global setup started:
 * room, messaging and presence servers talking real HTTP, gateway 1 in this process (so tests can read its
 * spans) and gateway 2 as a child process. Users A and B connect to different replicas.
 * Two uWS-attached Socket.IO servers cannot share a process: socket.io's uWS integration patches the shared
 * Adapter prototype with the last app attached, so replicas are separate processes, as in production.
 * With `messagingProcess`, messaging is a child process too, so a test can SIGKILL it. With `accounts`, billing is
 * its own server; with `admin` too, admin-analytics is, calling the others over their internal routes.
 * Every service with internal routes serves them on its internal listener, and every internal call is signed with
 * the stack's own SERVICE_SECRET (docs/security.md); the callers' *Url options are those internal listeners.
 * (deploy/local/up.sh runs every server as its own process behind nginx.)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sharedInfra } from '../helpers/infra.ts';
import { createLogger, serviceClient, serviceCredential, type ServiceServer } from '@ephemera/platform';
import type { DestinationStream } from 'pino';
import { startRoomServer } from '@ephemera/room';
import { startMessagingServer, S3Storage, type StorageQuota } from '@ephemera/messaging';
import { startPresenceServer } from '@ephemera/presence';
import { startGatewayServer, type GatewayOptions } from '@ephemera/gateway';
import { startBillingServer, type GoogleConfig, type PaymentsOptions } from '@ephemera/billing';
import { startAdminServer } from '@ephemera/admin-analytics';
import {
  ADMIN_API,
  ADMIN_PREFIX,
  AUTH_PREFIX,
  CONTACT_PATH,
  FILE_ROUTE_PATTERN,
  LINK_PREVIEW_PREFIX,
  PAYMENTS_PREFIX,
} from '@ephemera/proto';
import type { LimitConfig } from '@ephemera/platform';
import type { S3Server } from '../helpers/versitygw.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { startPathRouter } from './http-router.ts';
import { freePort } from '../../deploy/local/infra.ts';
import { CALL_TEST_ICE, CALL_TEST_RING_TIMEOUT_MS } from '../helpers/call-config.ts';

const repo = path.resolve(import.meta.dirname, '..', '..');
/** the contact form's one path, exactly (nginx: location = /api/contact), with or without a query */
const CONTACT_ROUTE_PATTERN = new RegExp(`^${CONTACT_PATH}(\\?|$)`);
/** the maintenance banner's one public path (nginx: location = /api/maintenance) */
const MAINTENANCE_ROUTE_PATTERN = new RegExp(`^${ADMIN_API.maintenanceStatus}(\\?|$)`);

/** A service as a child process on a fixed port; kill() and start() simulate a crashed pod coming back. */
export class ChildService {
  private child: ChildProcess | null = null;
  /** how the last child ended and the last lines it wrote to stderr, for a failed test's message (state()) */
  private exit: string | null = null;
  private stderrTail: string[] = [];
  constructor(
    readonly name: string,
    private readonly entry: string,
    private readonly env: Record<string, string>,
    readonly port: number,
    readonly internalPort?: number,
  ) {}
  get url() {
    return `http://127.0.0.1:${this.port}`;
  }
  /** its internal listener (a service with internal routes) */
  get internalUrl() {
    return `http://127.0.0.1:${this.internalPort}`;
  }
  get pid() {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    this.child = spawn(process.execPath, ['--import', 'tsx', path.join(repo, this.entry)], {
      cwd: repo,
      env: {
        ...process.env,
        ...this.env,
        PORT: String(this.port),
        ...(this.internalPort ? { INTERNAL_PORT: String(this.internalPort) } : {}),
        LOG_LEVEL: process.env.TEST_SERVICE_LOG_LEVEL ?? 'warn',
      },
      stdio: ['ignore', 'inherit', 'pipe'],
    });
    this.exit = null;
    const child = this.child;
    child.stderr!.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      this.stderrTail.push(...String(chunk).split('\n').filter(Boolean));
      this.stderrTail.splice(0, Math.max(0, this.stderrTail.length - 30));
    });
    child.once('exit', (code, signal) => {
      if (this.child === child) this.exit = `exited with code ${code} signal ${signal} at ${new Date().toISOString()}`;
    });
    const end = Date.now() + 60_000;
    while (Date.now() < end) {
      if (this.child.exitCode !== null) throw new Error(`${this.name} exited with ${this.child.exitCode}`);
      try {
        if ((await fetch(`${this.url}/healthz`)).ok) return;
      } catch {
        /* starting */
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${this.name} did not become healthy`);
  }

  /** alive, or how it ended, with its last stderr lines: what a failed test prints about this process */
  state(): string {
    const status = this.exit ?? (this.child ? `alive (pid ${this.child.pid})` : 'never started');
    return `${this.name}: ${status}${this.stderrTail.length ? `\n  last stderr:\n    ${this.stderrTail.join('\n    ')}` : ''}`;
  }

  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode) return;
    await new Promise((r) => {
      child.once('exit', r);
      child.kill(signal);
      setTimeout(r, 15_000);
    });
  }
}

export async function startDistributedStack(
  options: {
    logLevel?: string;
    messagingProcess?: boolean;
    /** where the in-process services' log lines go (pino's destination); absent: stdout */
    logDestination?: DestinationStream;
    /** the gateways' TRUSTED_PROXIES (tests that play several client addresses through X-Forwarded-For) */
    trustedProxies?: string[];
    /** serve /metrics on their own ports (gateway 1 and room), listed in metricsPorts */
    metrics?: boolean;
    /** the gateways' CALL_RING_TIMEOUT_MS (default CALL_TEST_RING_TIMEOUT_MS, short for the timeout test); a browser
     *  test that runs an axe scan while a call rings needs the product's 30 s */
    callRingTimeoutMs?: number;
    /** servers of the stack's own instead of the suite's shared ones (failure drills stop and restart them) */
    infra?: { pgUrl: string; kafkaBrokers: string[]; redisUrl: string };
    /** an S3 server (test/helpers/versitygw.ts) for uploaded files, as deployed; absent: the file routes answer 503 */
    s3?: S3Server;
    /** start the billing service (accounts) on this port, mailing through smtpUrl; /api/auth/ is routed to it */
    accounts?: {
      port: number;
      smtpUrl: string;
      superadminEmail: string;
      google?: GoogleConfig;
      rateLimits?: LimitConfig;
      /** payments (Stripe, e.g. against stripe-mock); /api/payments/ is routed to billing too */
      payments?: PaymentsOptions;
    };
    /** both gateways' big-room thresholds (default proto's BIG_ROOM): lowered to reach them with a few users */
    bigRoom?: GatewayOptions['bigRoom'];
    /** start admin-analytics as its own server too (needs accounts: sessions and the superadmin are billing's);
     *  /api/admin/ and /api/maintenance are routed to it */
    admin?: boolean;
    /** the in-process messaging server's file storage quota by tier (tests make it small) */
    storageQuota?: StorageQuota;
  } = {},
) {
  const logger = createLogger('test', options.logLevel ?? 'silent', options.logDestination);
  const ringTimeoutMs = options.callRingTimeoutMs ?? CALL_TEST_RING_TIMEOUT_MS;
  const databaseUrl = await createTestDatabase(options.infra?.pgUrl);
  const kafkaBrokers = options.infra?.kafkaBrokers ?? sharedInfra('kafkaBrokers').split(',');
  const redisUrl = options.infra?.redisUrl ?? sharedInfra('redisUrl');
  // Test files run in parallel against one Kafka: each stack gets topics and consumer groups of its own.
  const eventLogNamespace = `t${randomBytes(4).toString('hex')}`;
  let offset = 0;
  const now = () => new Date(Date.now() + offset);

  // Rate-limit counters in Redis as deployed; the room service sits behind the gateways (loopback), whose
  // X-Forwarded-For names the client.
  // The room service's key volume: a directory of this stack's own (docs/crypto.md).
  const roomKeyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-room-keys-'));
  // The stack's service credential: every internal call is signed with it (docs/security.md).
  const serviceSecret = randomBytes(32).toString('hex');
  // Billing's internal listener: the room service resolves account sessions there.
  const billingInternalPort = options.accounts ? await freePort() : 0;
  const billingUrl = options.accounts ? `http://127.0.0.1:${billingInternalPort}` : undefined;
  const room = await startRoomServer({
    port: 0,
    host: '127.0.0.1',
    databaseUrl,
    kafkaBrokers,
    eventLogNamespace,
    logger,
    sweepIntervalMs: 200,
    now,
    redisUrl,
    trustedProxies: ['loopback'],
    metrics: options.metrics ? { port: 0 } : undefined,
    roomKeyDir,
    billingUrl,
    serviceSecret,
    rateLimits: options.accounts?.rateLimits,
  });
  const roomInternalUrl = room.internalUrl!;
  // Billing (accounts) has a key volume of its own, like the room service (docs/crypto.md).
  const accountKeyDir = options.accounts ? fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-account-keys-')) : null;
  const billing =
    options.accounts && accountKeyDir
      ? await startBillingServer({
          port: options.accounts.port,
          internalPort: billingInternalPort,
          serviceSecret,
          host: '127.0.0.1',
          databaseUrl,
          kafkaBrokers,
          eventLogNamespace,
          logger,
          roomUrl: roomInternalUrl,
          redisUrl,
          now,
          trustedProxies: ['loopback'],
          accountKeyDir,
          smtpUrl: options.accounts.smtpUrl,
          superadminEmail: options.accounts.superadminEmail,
          google: options.accounts.google,
          rateLimits: options.accounts.rateLimits,
          payments: options.accounts.payments,
        })
      : null;
  if (options.admin && !billing) throw new Error('the admin option needs accounts (billing)');
  const presence = await startPresenceServer({ port: 0, host: '127.0.0.1', redisUrl, logger, serviceSecret });
  const bucket = `files-${eventLogNamespace}`;
  const s3Env: Record<string, string> = options.s3
    ? {
        S3_ENDPOINT: options.s3.endpoint,
        S3_BUCKET: bucket,
        S3_ACCESS_KEY_ID: options.s3.accessKeyId,
        S3_SECRET_ACCESS_KEY: options.s3.secretAccessKey,
        S3_REGION: options.s3.region,
        S3_FORCE_PATH_STYLE: 'true',
      }
    : {};
  const s3 = () =>
    new S3Storage({
      endpoint: options.s3!.endpoint,
      bucket,
      region: options.s3!.region,
      accessKeyId: options.s3!.accessKeyId,
      secretAccessKey: options.s3!.secretAccessKey,
      forcePathStyle: true,
    });
  let storage: S3Storage | undefined;
  if (options.s3) {
    storage = s3();
    await storage.ensureBucket();
  }
  let messaging: ServiceServer | ChildService;
  if (options.messagingProcess) {
    messaging = new ChildService(
      'messaging',
      'services/messaging/src/main.ts',
      {
        DATABASE_URL: databaseUrl,
        KAFKA_BROKERS: kafkaBrokers.join(','),
        EVENT_LOG_NAMESPACE: eventLogNamespace,
        REDIS_URL: redisUrl,
        METRICS_PORT: '0',
        ROOM_URL: roomInternalUrl,
        SERVICE_SECRET: serviceSecret,
        ...s3Env,
      },
      await freePort(),
      await freePort(),
    );
    await messaging.start();
  } else {
    messaging = await startMessagingServer({
      port: 0,
      host: '127.0.0.1',
      databaseUrl,
      kafkaBrokers,
      eventLogNamespace,
      logger,
      now,
      redisUrl,
      roomUrl: roomInternalUrl,
      storage,
      fileSweepIntervalMs: 200,
      serviceSecret,
      storageQuota: options.storageQuota,
    });
  }
  const messagingInternalUrl = messaging.internalUrl!;
  // Admin-analytics: its own key volume and backup directory, commands and keys over the owners' internal routes.
  const adminDirs = options.admin
    ? {
        keys: fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-admin-keys-')),
        backups: fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-backups-')),
      }
    : null;
  const admin =
    options.admin && adminDirs && billing
      ? await startAdminServer({
          port: 0,
          host: '127.0.0.1',
          databaseUrl,
          kafkaBrokers,
          eventLogNamespace,
          logger,
          now,
          redisUrl,
          trustedProxies: ['loopback'],
          roomUrl: roomInternalUrl,
          billingUrl: billing.internalUrl!,
          messagingUrl: messagingInternalUrl,
          adminKeyDir: adminDirs.keys,
          backupDir: adminDirs.backups,
          superadminEmail: options.accounts!.superadminEmail,
          rateLimits: options.accounts!.rateLimits,
          serviceSecret,
        })
      : null;
  // What the ingress does with plain HTTP: /api/link-preview/ and the file routes to messaging, /api/auth/,
  // /api/payments/ and /api/contact to billing, /api/admin/ and /api/maintenance to admin-analytics, the rest of /api to room.
  const httpRouter = await startPathRouter(
    [
      { prefix: LINK_PREVIEW_PREFIX, target: messaging.url },
      { pattern: FILE_ROUTE_PATTERN, target: messaging.url },
      ...(billing
        ? [
            { prefix: AUTH_PREFIX, target: billing.url },
            { prefix: PAYMENTS_PREFIX, target: billing.url },
            { pattern: CONTACT_ROUTE_PATTERN, target: billing.url },
          ]
        : []), // accounts, payments and the contact form: billing
      ...(admin
        ? [
            { prefix: ADMIN_PREFIX, target: admin.url },
            { pattern: MAINTENANCE_ROUTE_PATTERN, target: admin.url },
          ]
        : []), // the superadmin's API: admin-analytics
    ],
    room.url,
  );
  const gateway1 = await startGatewayServer({
    port: 0,
    host: '127.0.0.1',
    gatewayId: 'gateway-1',
    roomUrl: roomInternalUrl,
    messagingUrl: messagingInternalUrl,
    presenceUrl: presence.internalUrl!,
    serviceSecret,
    kafkaBrokers,
    eventLogNamespace,
    redisUrl,
    allowedOrigins: [],
    logger,
    httpUpstream: httpRouter.url,
    trustedProxies: options.trustedProxies,
    metrics: options.metrics ? { port: 0 } : undefined,
    calls: { ringTimeoutMs, ice: CALL_TEST_ICE },
    bigRoom: options.bigRoom,
  });
  const gateway2 = new ChildService(
    'gateway-2',
    'services/gateway/src/main.ts',
    {
      GATEWAY_ID: 'gateway-2',
      ROOM_URL: roomInternalUrl,
      MESSAGING_URL: messagingInternalUrl,
      PRESENCE_URL: presence.internalUrl!,
      SERVICE_SECRET: serviceSecret,
      KAFKA_BROKERS: kafkaBrokers.join(','),
      EVENT_LOG_NAMESPACE: eventLogNamespace,
      REDIS_URL: redisUrl,
      HTTP_UPSTREAM: httpRouter.url,
      TRUSTED_PROXIES: (options.trustedProxies ?? []).join(','),
      METRICS_PORT: '0',
      CALL_RING_TIMEOUT_MS: String(ringTimeoutMs),
      STUN_URLS: CALL_TEST_ICE.stunUrls.join(','),
      TURN_URLS: CALL_TEST_ICE.turnUrls.join(','),
      TURN_SECRET: CALL_TEST_ICE.turnSecret,
      TURN_CREDENTIAL_TTL_SECONDS: String(CALL_TEST_ICE.turnCredentialTtlSeconds),
      ...(options.bigRoom?.coalesceFromSockets
        ? { BIG_ROOM_SOCKETS: String(options.bigRoom.coalesceFromSockets) }
        : {}),
      ...(options.bigRoom?.onlinePageSize ? { ONLINE_PAGE_SIZE: String(options.bigRoom.onlinePageSize) } : {}),
    },
    await freePort(),
  );
  await gateway2.start();

  return {
    urlA: `http://127.0.0.1:${gateway1.port}`,
    urlB: gateway2.url,
    roomPort: room.port,
    /** the internal listeners (signed calls only) and the secret they verify: tests call them as a service would */
    internal: {
      room: roomInternalUrl,
      messaging: messagingInternalUrl,
      presence: presence.internalUrl!,
      billing: billing?.internalUrl,
    },
    serviceSecret,
    /** a POST to the room service's internal route, signed as a service's (e.g. change-tier, billing's call) */
    roomInternalCall: <T = unknown>(route: string, body: unknown) =>
      serviceClient(roomInternalUrl, serviceCredential('test', serviceSecret))<T>(route, body),
    roomKeyDir,
    databaseUrl,
    /** the billing service (with accounts): tests read what it stored, e.g. contact messages */
    billing: billing?.module.service,
    /** the admin-analytics module (with admin): tests read its read models */
    admin: admin?.module,
    /** admin-analytics' port (with admin), for an ingress in front of the stack (deploy/local/ingress.ts adminPort) */
    adminPort: admin?.port,
    eventLogNamespace,
    messagingPort: messaging.port,
    /** presence's public port (it serves no public route: only /healthz and /readyz) */
    presencePort: presence.port,
    gateway1Port: gateway1.port,
    metricsPorts: [gateway1.metricsPort, room.metricsPort].filter((p): p is number => p !== undefined),
    gateway2Port: gateway2.port,
    gateway1,
    gateway2,
    messaging,
    advanceClock: (ms: number) => {
      offset += ms;
    },
    /** one object's raw bytes in the bucket */
    readStoredObject: async (key: string) => {
      const reader = s3();
      try {
        const parts: Buffer[] = [];
        for await (const c of await reader.get(key)) parts.push(c as Buffer);
        return Buffer.concat(parts);
      } finally {
        await reader.close();
      }
    },
    /** the bucket's keys under a room (files tests check what S3 really keeps) */
    storedObjects: async (workspaceId: string) => {
      if (!options.s3) return [];
      const reader = s3();
      try {
        return await reader.list(`${workspaceId}/`);
      } finally {
        await reader.close();
      }
    },
    async stop() {
      await gateway2.kill('SIGTERM').catch(() => {});
      await gateway1.stop().catch(() => {});
      await admin?.stop().catch(() => {}); // before the services it calls
      await (messaging instanceof ChildService ? messaging.kill('SIGTERM') : messaging.stop()).catch(() => {});
      await presence.stop().catch(() => {});
      await billing?.stop().catch(() => {});
      await room.stop().catch(() => {});
      if (accountKeyDir) fs.rmSync(accountKeyDir, { recursive: true, force: true });
      for (const dir of Object.values(adminDirs ?? {})) fs.rmSync(dir, { recursive: true, force: true });
      await httpRouter.stop().catch(() => {});
      fs.rmSync(roomKeyDir, { recursive: true, force: true });
    },
  };
}
