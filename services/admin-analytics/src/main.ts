import { configOrExit } from '@ephemera/platform/src/config.ts';
import { adminAnalyticsConfig } from './config.ts';

const config = configOrExit(adminAnalyticsConfig);
// The code that serves is loaded only once the configuration is accepted: a refusal is immediate and opens nothing.
const { createLogger, parseMasterKey, rateLimitsOf, startTelemetry, stopOnSignals } =
  await import('@ephemera/platform');
const { startAdminServer } = await import('./server.ts');
startTelemetry('admin-analytics', { exporter: config.OTEL_TRACES_EXPORTER });
const logger = createLogger('admin-analytics', config.LOG_LEVEL);
const server = await startAdminServer({
  port: config.PORT,
  databaseUrl: config.DATABASE_URL,
  kafkaBrokers: config.KAFKA_BROKERS,
  eventLogNamespace: config.EVENT_LOG_NAMESPACE || undefined,
  logger,
  roomUrl: config.ROOM_URL,
  billingUrl: config.BILLING_URL,
  messagingUrl: config.MESSAGING_URL,
  redisUrl: config.REDIS_URL,
  trustedProxies: config.TRUSTED_PROXIES,
  metrics: { port: config.METRICS_PORT, host: config.METRICS_HOST },
  adminKeyDir: config.ADMIN_KEY_DIR,
  masterKey: config.ADMIN_MASTER_KEY ? parseMasterKey(config.ADMIN_MASTER_KEY) : undefined,
  superadminEmail: config.SUPERADMIN_EMAIL ?? null,
  backupDir: config.BACKUP_DIR,
  healthTargets: config.ADMIN_HEALTH_TARGETS,
  serviceSecret: config.SERVICE_SECRET,
  rateLimits: rateLimitsOf(config),
  autoDeleteIntervalMs: config.ADMIN_AUTO_DELETE_INTERVAL_MS,
  backupMaxBytes: config.ADMIN_BACKUP_MAX_BYTES,
});
logger.info({ port: server.port }, 'admin-analytics service listening');
stopOnSignals(server.stop, logger);
