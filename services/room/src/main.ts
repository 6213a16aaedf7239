import {
  configOrExit, createLogger, startTelemetry, stopOnSignals, parseMasterKey, parsePreviousMasterKeys, internalPortOf, rateLimitsOf,
} from '@ephemera/platform';
import { startRoomServer } from './server.ts';
import { roomConfig } from './config.ts';

const config = configOrExit(roomConfig);
startTelemetry('room', { exporter: config.OTEL_TRACES_EXPORTER });
const logger = createLogger('room', config.LOG_LEVEL);
const server = await startRoomServer({ port: config.PORT, databaseUrl: config.DATABASE_URL, kafkaBrokers: config.KAFKA_BROKERS, eventLogNamespace: config.EVENT_LOG_NAMESPACE || undefined, logger, sweepIntervalMs: config.SWEEP_INTERVAL_MS,
  redisUrl: config.REDIS_URL, trustedProxies: config.TRUSTED_PROXIES, metrics: { port: config.METRICS_PORT, host: config.METRICS_HOST },
  roomKeyDir: config.ROOM_KEY_DIR, masterKey: config.ROOM_MASTER_KEY ? parseMasterKey(config.ROOM_MASTER_KEY) : undefined,
  previousMasterKeys: parsePreviousMasterKeys(config.ROOM_MASTER_KEYS_PREVIOUS), billingUrl: config.BILLING_URL,
  serviceSecret: config.SERVICE_SECRET, internalPort: internalPortOf(config.PORT, config.INTERNAL_PORT), rateLimits: rateLimitsOf(config) });
logger.info({ port: server.port, internalPort: server.internalPort }, 'room service listening');
stopOnSignals(server.stop, logger);
