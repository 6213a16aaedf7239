/** The room service as its own process (distributed mode): Kafka event log, Postgres read model, HTTP API. */
import {
  kafkaEventLog,
  sealedEventLog,
  fileRoomKeys,
  DEV_MASTER_KEY,
  ImageSigner,
  createPool,
  pgReady,
  serveHttp,
  createRateLimits,
  internalRpcRouter,
  backupPartRouter,
  MaintenanceState,
  maintenanceGuard,
  serviceCredential,
  type LimitConfig,
  type Logger,
  type ServiceServer,
} from '@ephemera/platform';
import {
  TOPICS,
  ADMIN_ROOMS_PREFIX,
  ADMIN_ROOMS_METHODS,
  ROOM_TOKENS_PREFIX,
  ROOM_TOKENS_METHODS,
} from '@ephemera/proto';
import { startRoomModule } from './module.ts';
import { publicRoomRouter, internalRoomRouter } from './http.ts';
import { internalRoomKeyRouter } from './room-keys-http.ts';
import { accountRoomRouter, internalAccountRoomRouter } from './ownership-http.ts';
import { AccountSessionsClient, noAccountSessions } from './account-sessions.ts';

export async function startRoomServer(opts: {
  port: number;
  host?: string;
  databaseUrl: string;
  kafkaBrokers: string[];
  eventLogNamespace?: string;
  logger: Logger;
  sweepIntervalMs?: number;
  now?: () => Date;
  /** shared rate-limit counters (password guesses, creations, name checks); absent: this process's memory */
  redisUrl?: string;
  rateLimits?: LimitConfig;
  trustedProxies?: string[];
  metrics?: { port: number; host?: string };
  /** ROOM_KEY_DIR: where the room data keys live (a volume of this service only; docs/crypto.md) */
  roomKeyDir: string;
  /** ROOM_MASTER_KEY and, during a rotation, ROOM_MASTER_KEYS_PREVIOUS; absent: the development key */
  masterKey?: Buffer;
  previousMasterKeys?: Buffer[];
  /** BILLING_URL: billing's internal listener, where account sessions are resolved (dashboard routes); absent: no account session is valid */
  billingUrl?: string;
  /** SERVICE_SECRET (internal calls are signed and verified with it) and INTERNAL_PORT (0 or absent: any free port) */
  serviceSecret: string;
  internalPort?: number;
}): Promise<ServiceServer & { module: Awaited<ReturnType<typeof startRoomModule>> }> {
  const pool = createPool(opts.databaseUrl);
  if (!opts.masterKey)
    opts.logger.warn('ROOM_MASTER_KEY is not set: room keys are wrapped by the insecure development key');
  const keys = fileRoomKeys(opts.roomKeyDir, opts.masterKey ?? DEV_MASTER_KEY, opts.previousMasterKeys);
  // Rotation: with previous master keys configured, every key is re-wrapped under the current one at start.
  if (opts.previousMasterKeys?.length)
    opts.logger.info({ rewrapped: await keys.files.rewrapAll() }, 'room keys re-wrapped under the current master key');
  const log = sealedEventLog(
    kafkaEventLog({
      brokers: opts.kafkaBrokers,
      clientId: 'room',
      logger: opts.logger,
      namespace: opts.eventLogNamespace,
    }),
    keys.keyring,
    { logger: opts.logger },
  );
  await log.init(Object.values(TOPICS));
  const maintenance = await MaintenanceState.start({ log, processId: 'room', logger: opts.logger }); // writes refused while on
  const module = await startRoomModule({
    databaseUrl: opts.databaseUrl,
    pool,
    log,
    logger: opts.logger,
    sweepIntervalMs: opts.sweepIntervalMs,
    now: opts.now,
    roomKeys: keys.store,
    keyring: keys.keyring,
    imageSigner: new ImageSigner(opts.masterKey ?? DEV_MASTER_KEY), // messaging signs preview images with the same key
  });
  const limits = createRateLimits({
    redisUrl: opts.redisUrl,
    namespace: opts.eventLogNamespace,
    config: opts.rateLimits,
  });
  const credential = serviceCredential('room', opts.serviceSecret);
  const accounts = opts.billingUrl ? new AccountSessionsClient(opts.billingUrl, credential) : noAccountSessions;
  module.service.useAccounts(accounts); // an owner's standing when a room is extended (docs/product/payments.md PAY12)
  const server = await serveHttp({
    name: 'room',
    port: opts.port,
    host: opts.host,
    logger: opts.logger,
    routers: [
      maintenanceGuard(maintenance),
      accountRoomRouter(module.service, accounts, limits), // before the room router: same paths
      publicRoomRouter(module.service, limits),
    ],
    // The internal listener: gateways (commands, keys), billing (ownership), messaging (keys, tokens), admin-analytics.
    internal: {
      port: opts.internalPort ?? 0,
      secret: credential.secret,
      routers: [
        internalRoomRouter(module.service, opts.logger),
        internalAccountRoomRouter(module.service),
        internalRoomKeyRouter(keys.store),
        internalRpcRouter(ADMIN_ROOMS_PREFIX, module.admin, ADMIN_ROOMS_METHODS), // admin-analytics: extend and delete
        internalRpcRouter(ROOM_TOKENS_PREFIX, module.service, ROOM_TOKENS_METHODS), // messaging: whose a bearer token is (member-tokens.ts)
        backupPartRouter('room', module.backup), // admin-analytics: the service backup
      ],
    },
    ready: () => pgReady(pool),
    trustProxy: opts.trustedProxies,
    metrics: opts.metrics,
    onStop: async () => {
      await maintenance.stop();
      await module.stop();
      await log.close();
      await pool.end();
      await limits.close();
    },
  });
  return { ...server, module };
}
