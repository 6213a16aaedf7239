/** The billing service as its own process (distributed mode): Kafka event log, Postgres read model, HTTP API. */
import {
  kafkaEventLog,
  sealedEventLog,
  fileRoomKeys,
  DEV_MASTER_KEY,
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
  ADMIN_ACCOUNTS_PREFIX,
  ADMIN_ACCOUNTS_METHODS,
  ADMIN_BILLING_SYSTEM_PREFIX,
  ADMIN_BILLING_SYSTEM_METHODS,
} from '@ephemera/proto';
import { startBillingModule, type BillingModule } from './module.ts';
import { AccountRoomsClient } from './clients.ts';
import { publicBillingRouter, internalBillingRouter } from './http.ts';
import type { GoogleConfig } from './google.ts';
import { paymentsRouter, paymentWebhookRouter, type PaymentsOptions } from './payments/index.ts';
import { internalAccountKeyRouter } from './account-keys-http.ts';

export async function startBillingServer(opts: {
  port: number;
  host?: string;
  databaseUrl: string;
  kafkaBrokers: string[];
  eventLogNamespace?: string;
  logger: Logger;
  roomUrl: string;
  redisUrl?: string;
  rateLimits?: LimitConfig;
  trustedProxies?: string[];
  metrics?: { port: number; host?: string };
  /** ACCOUNT_KEY_DIR: the account keys (a volume of this service only) and ACCOUNT_MASTER_KEY, which wraps them */
  accountKeyDir: string;
  masterKey?: Buffer;
  smtpUrl?: string;
  mailFrom?: string;
  superadminEmail?: string | null;
  google?: GoogleConfig | null;
  now?: () => Date;
  /** Stripe (STRIPE_*); absent: payments are off */
  payments?: PaymentsOptions;
  /** SERVICE_SECRET (internal calls are signed and verified with it) and INTERNAL_PORT (0 or absent: any free port) */
  serviceSecret: string;
  internalPort?: number;
}): Promise<ServiceServer & { module: BillingModule }> {
  const pool = createPool(opts.databaseUrl);
  const credential = serviceCredential('billing', opts.serviceSecret);
  if (!opts.masterKey)
    opts.logger.warn('ACCOUNT_MASTER_KEY is not set: account keys are wrapped by the insecure development key');
  const keys = fileRoomKeys(opts.accountKeyDir, opts.masterKey ?? DEV_MASTER_KEY);
  // Account events are sealed under each account's key, like room events under the room's (docs/crypto.md).
  const log = sealedEventLog(
    kafkaEventLog({
      brokers: opts.kafkaBrokers,
      clientId: 'billing',
      logger: opts.logger,
      namespace: opts.eventLogNamespace,
    }),
    keys.keyring,
    { logger: opts.logger },
  );
  await log.init(Object.values(TOPICS));
  const maintenance = await MaintenanceState.start({ log, processId: 'billing', logger: opts.logger }); // writes refused while on
  const module = await startBillingModule({
    databaseUrl: opts.databaseUrl,
    pool,
    log,
    logger: opts.logger,
    accountKeys: keys.store,
    accountKeyring: keys.keyring,
    rooms: new AccountRoomsClient(opts.roomUrl, credential),
    smtpUrl: opts.smtpUrl,
    mailFrom: opts.mailFrom,
    superadminEmail: opts.superadminEmail,
    google: opts.google,
    now: opts.now,
    payments: opts.payments,
  });
  const limits = createRateLimits({
    redisUrl: opts.redisUrl,
    namespace: opts.eventLogNamespace,
    config: opts.rateLimits,
  });
  const server = await serveHttp({
    name: 'billing',
    port: opts.port,
    host: opts.host,
    logger: opts.logger,
    rawBodyRouters: [paymentWebhookRouter(module.payments.provider, module.payments.outcomes)], // the signature is over the raw body
    routers: [
      maintenanceGuard(maintenance),
      paymentsRouter(module.service, module.payments.service),
      publicBillingRouter(module.service, module.google, limits),
    ],
    // The internal listener: the room service (sessions), admin-analytics (its commands on accounts and the System
    // tab, and the keys that open billing's events).
    internal: {
      port: opts.internalPort ?? 0,
      secret: credential.secret,
      routers: [
        internalBillingRouter(module.service),
        internalRpcRouter(ADMIN_ACCOUNTS_PREFIX, module.adminAccounts, ADMIN_ACCOUNTS_METHODS),
        internalRpcRouter(ADMIN_BILLING_SYSTEM_PREFIX, module.adminSystem, ADMIN_BILLING_SYSTEM_METHODS),
        internalAccountKeyRouter(keys.store),
        backupPartRouter('billing', module.backup),
      ],
    }, // admin-analytics: the service backup
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
