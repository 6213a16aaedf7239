import { configOrExit } from '@ephemera/platform/src/config.ts';
import { messagingConfig } from './config.ts';

const config = configOrExit(messagingConfig);
// The code that serves is loaded only once the configuration is accepted: a refusal is immediate and opens nothing.
const { createLogger, parseMasterKey, rateLimitsOf, startTelemetry, stopOnSignals, internalPortOf } =
  await import('@ephemera/platform');
const { startMessagingServer } = await import('./server.ts');
const { storageFromEnv } = await import('./files/index.ts');
startTelemetry('messaging', { exporter: config.OTEL_TRACES_EXPORTER });
const logger = createLogger('messaging', config.LOG_LEVEL);
const server = await startMessagingServer({
  port: config.PORT,
  databaseUrl: config.DATABASE_URL,
  kafkaBrokers: config.KAFKA_BROKERS,
  eventLogNamespace: config.EVENT_LOG_NAMESPACE || undefined,
  logger,
  masterKey: config.ROOM_MASTER_KEY ? parseMasterKey(config.ROOM_MASTER_KEY) : undefined,
  redisUrl: config.REDIS_URL,
  trustedProxies: config.TRUSTED_PROXIES,
  metrics: { port: config.METRICS_PORT, host: config.METRICS_HOST },
  roomUrl: config.ROOM_URL,
  storage: config.S3_BUCKET ? await storageFromEnv(config) : undefined,
  serviceSecret: config.SERVICE_SECRET,
  internalPort: internalPortOf(config.PORT, config.INTERNAL_PORT),
  rateLimits: rateLimitsOf(config),
});
logger.info({ port: server.port, internalPort: server.internalPort }, 'messaging service listening');
stopOnSignals(server.stop, logger);
