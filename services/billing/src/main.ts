import { configOrExit } from '@ephemera/platform/src/config.ts';
import { billingConfig, googleOf, paymentsOf } from './config.ts';

const config = configOrExit(billingConfig);
// The code that serves is loaded only once the configuration is accepted: a refusal is immediate and opens nothing.
const { createLogger, startTelemetry, stopOnSignals, parseMasterKey, internalPortOf, rateLimitsOf } =
  await import('@ephemera/platform');
const { startBillingServer } = await import('./server.ts');
startTelemetry('billing', { exporter: config.OTEL_TRACES_EXPORTER });
const logger = createLogger('billing', config.LOG_LEVEL);
const server = await startBillingServer({
  port: config.PORT,
  databaseUrl: config.DATABASE_URL,
  kafkaBrokers: config.KAFKA_BROKERS,
  eventLogNamespace: config.EVENT_LOG_NAMESPACE || undefined,
  logger,
  roomUrl: config.ROOM_URL,
  redisUrl: config.REDIS_URL,
  trustedProxies: config.TRUSTED_PROXIES,
  metrics: { port: config.METRICS_PORT, host: config.METRICS_HOST },
  accountKeyDir: config.ACCOUNT_KEY_DIR,
  masterKey: config.ACCOUNT_MASTER_KEY ? parseMasterKey(config.ACCOUNT_MASTER_KEY) : undefined,
  smtpUrl: config.SMTP_URL,
  mailFrom: config.MAIL_FROM,
  superadminEmail: config.SUPERADMIN_EMAIL ?? null,
  google: googleOf(config),
  payments: paymentsOf(config),
  rateLimits: rateLimitsOf(config),
  serviceSecret: config.SERVICE_SECRET,
  internalPort: internalPortOf(config.PORT, config.INTERNAL_PORT),
});
logger.info({ port: server.port, internalPort: server.internalPort }, 'billing service listening');
stopOnSignals(server.stop, logger);
