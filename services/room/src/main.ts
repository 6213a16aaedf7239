import { configOrExit } from '@ephemera/platform/src/config.ts';
import { roomConfig } from './config.ts';

const config = configOrExit(roomConfig);
// The code that serves is loaded only once the configuration is accepted: a refusal is immediate and opens nothing.
const {
  createLogger,
  startTelemetry,
  stopOnSignals,
  parseMasterKey,
  parsePreviousMasterKeys,
  internalPortOf,
  rateLimitsOf,
} = await import('@ephemera/platform');
const { startRoomServer } = await import('./server.ts');
startTelemetry('room', { exporter: config.OTEL_TRACES_EXPORTER });
const logger = createLogger('room', config.LOG_LEVEL);
const server = await startRoomServer({
  port: config.PORT,
  databaseUrl: config.DATABASE_URL,
  kafkaBrokers: config.KAFKA_BROKERS,
  eventLogNamespace: config.EVENT_LOG_NAMESPACE || undefined,
  logger,
  sweepIntervalMs: config.SWEEP_INTERVAL_MS,
  redisUrl: config.REDIS_URL,
  trustedProxies: config.TRUSTED_PROXIES,
  metrics: { port: config.METRICS_PORT, host: config.METRICS_HOST },
  roomKeyDir: config.ROOM_KEY_DIR,
  masterKey: config.ROOM_MASTER_KEY ? parseMasterKey(config.ROOM_MASTER_KEY) : undefined,
  previousMasterKeys: parsePreviousMasterKeys(config.ROOM_MASTER_KEYS_PREVIOUS),
  billingUrl: config.BILLING_URL,
  serviceSecret: config.SERVICE_SECRET,
  internalPort: internalPortOf(config.PORT, config.INTERNAL_PORT),
  rateLimits: rateLimitsOf(config),
});
logger.info({ port: server.port, internalPort: server.internalPort }, 'room service listening');
stopOnSignals(server.stop, logger);
