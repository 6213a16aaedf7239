/**
 * The admin-analytics service as its own process (distributed mode): its own consumer group on the Kafka event log
 * (every topic, from the beginning), its read models in Postgres (schema admin), /api/admin/ and the two public
 * routes, and the other services' commands over their internal routes (clients.ts).
 */
import {
  kafkaEventLog,
  sealedEventLog,
  fileRoomKeys,
  DEV_MASTER_KEY,
  RoomKeyring,
  RedisEphemeralStore,
  MemoryEphemeralStore,
  createPool,
  pgReady,
  serveHttp,
  createRateLimits,
  serviceCredential,
  type LimitConfig,
  type Logger,
  type ServiceServer,
} from '@ephemera/platform';
import { TOPICS } from '@ephemera/proto';
import { startAdminModule, type AdminModule } from './module.ts';
import { adminRouter } from './http.ts';
import { backupKeyFrom } from './backup-key.ts';
import { adminKeySource, adminPortClients } from './clients.ts';
import { namespacedEphemeral } from './namespaced-ephemeral.ts';

export async function startAdminServer(opts: {
  port: number;
  host?: string;
  databaseUrl: string;
  kafkaBrokers: string[];
  eventLogNamespace?: string;
  logger: Logger;
  /** the owners of the commands and keys: ROOM_URL, BILLING_URL, MESSAGING_URL */
  roomUrl: string;
  billingUrl: string;
  messagingUrl: string;
  /** REDIS_URL: short-lived state (the page-view reload filter) and rate-limit counters; absent: this process's memory */
  redisUrl?: string;
  rateLimits?: LimitConfig;
  trustedProxies?: string[];
  metrics?: { port: number; host?: string };
  /** ADMIN_KEY_DIR: the admin aggregate's data key (a volume of this service only), wrapped by ADMIN_MASTER_KEY */
  adminKeyDir: string;
  masterKey?: Buffer;
  superadminEmail?: string | null;
  /** BACKUP_DIR: where backups are written (a volume of this service only); encrypted under a key from the master key */
  backupDir: string;
  /** the other services' /metrics (ADMIN_HEALTH_TARGETS) */
  healthTargets?: string[];
  /** ADMIN_AUTO_DELETE_INTERVAL_MS and ADMIN_BACKUP_MAX_BYTES (default: from the environment, config.ts) */
  autoDeleteIntervalMs?: number;
  backupMaxBytes?: number;
  now?: () => Date;
  /** SERVICE_SECRET: its calls to the owners' internal listeners are signed with it (it serves no internal route) */
  serviceSecret: string;
}): Promise<ServiceServer & { module: AdminModule }> {
  const pool = createPool(opts.databaseUrl);
  const credential = serviceCredential('admin-analytics', opts.serviceSecret);
  if (!opts.masterKey)
    opts.logger.warn(
      'ADMIN_MASTER_KEY is not set: the admin key and backups are protected by the insecure development key',
    );
  const master = opts.masterKey ?? DEV_MASTER_KEY;
  const own = fileRoomKeys(opts.adminKeyDir, master);
  // One keyring for every topic: admin events under our own key, room and messaging events under room keys (room
  // service), billing events under account and contact-message keys (billing). See adminKeySource.
  const keyring = new RoomKeyring(
    adminKeySource(own.store, { roomUrl: opts.roomUrl, billingUrl: opts.billingUrl }, credential),
  );
  const log = sealedEventLog(
    kafkaEventLog({
      brokers: opts.kafkaBrokers,
      clientId: 'admin-analytics',
      logger: opts.logger,
      namespace: opts.eventLogNamespace,
    }),
    keyring,
    { logger: opts.logger },
  );
  await log.init(Object.values(TOPICS));
  const ephemeral = namespacedEphemeral(
    opts.redisUrl ? new RedisEphemeralStore(opts.redisUrl) : new MemoryEphemeralStore(),
    opts.eventLogNamespace,
  );
  const limits = createRateLimits({
    redisUrl: opts.redisUrl,
    namespace: opts.eventLogNamespace,
    config: opts.rateLimits,
  });
  const module = await startAdminModule({
    databaseUrl: opts.databaseUrl,
    pool,
    log,
    logger: opts.logger,
    adminKeys: own.store,
    keyring,
    now: opts.now,
    ...adminPortClients(
      { billingUrl: opts.billingUrl, roomUrl: opts.roomUrl, messagingUrl: opts.messagingUrl },
      credential,
    ),
    superadminEmail: opts.superadminEmail,
    limits,
    ephemeral,
    backupDir: opts.backupDir,
    backupKey: backupKeyFrom(master),
    eventLogKafka: { brokers: opts.kafkaBrokers, namespace: opts.eventLogNamespace },
    healthTargets: opts.healthTargets,
    autoDeleteIntervalMs: opts.autoDeleteIntervalMs,
    backupMaxBytes: opts.backupMaxBytes,
  });
  const server = await serveHttp({
    name: 'admin-analytics',
    port: opts.port,
    host: opts.host,
    logger: opts.logger,
    routers: [adminRouter(module.context)], // /api/admin/ (superadmin), the page-view route, the maintenance banner
    ready: () => pgReady(pool),
    trustProxy: opts.trustedProxies,
    metrics: opts.metrics,
    onStop: async () => {
      await module.stop();
      await log.close();
      await pool.end();
      await limits.close();
      await ephemeral.close();
    },
  });
  return { ...server, module };
}
