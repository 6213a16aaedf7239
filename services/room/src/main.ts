import { z } from 'zod';
import {
  loadConfig, commonEnv, kafkaEnv, trustedProxies, metricsHost, port, createLogger, startTelemetry, stopOnSignals, parseMasterKey,
  parsePreviousMasterKeys, serviceSecret, internalPort, internalPortOf,
} from '@ephemera/platform';
import { startRoomServer } from './server.ts';

const config = loadConfig(z.object({
  ...commonEnv,
  PORT: port(8201),
  /** the shared secret of internal calls (docs/security.md) and the internal listener's port (unset: PORT + 2000) */
  SERVICE_SECRET: serviceSecret,
  INTERNAL_PORT: internalPort,
  DATABASE_URL: z.string().url(),
  ...kafkaEnv,
  SWEEP_INTERVAL_MS: z.coerce.number().int().positive().default(60_000),
  /** rate-limit counters shared with every replica; without it each process counts alone */
  REDIS_URL: z.string().url().optional(),
  TRUSTED_PROXIES: trustedProxies,
  METRICS_PORT: port(9201),
  METRICS_HOST: metricsHost,
  /** the room data keys: a volume of this service only (docs/crypto.md) */
  ROOM_KEY_DIR: z.string().min(1).default('./data/room-keys'),
  /** 32 bytes (hex or base64): wraps every room key. Required when NODE_ENV=production. */
  ROOM_MASTER_KEY: z.string().optional(),
  /** during a rotation: the old master keys, comma-separated; keys are re-wrapped under ROOM_MASTER_KEY at start */
  ROOM_MASTER_KEYS_PREVIOUS: z.string().optional(),
  NODE_ENV: z.string().optional(),
  /** the billing service's internal listener (accounts): resolves the dashboard's session tokens */
  BILLING_URL: z.string().url().optional(),
}));
if (!config.ROOM_MASTER_KEY && config.NODE_ENV === 'production') throw new Error('ROOM_MASTER_KEY is required in production');
startTelemetry('room', { exporter: config.OTEL_TRACES_EXPORTER });
const logger = createLogger('room', config.LOG_LEVEL);
const server = await startRoomServer({ port: config.PORT, databaseUrl: config.DATABASE_URL, kafkaBrokers: config.KAFKA_BROKERS, eventLogNamespace: config.EVENT_LOG_NAMESPACE || undefined, logger, sweepIntervalMs: config.SWEEP_INTERVAL_MS,
  redisUrl: config.REDIS_URL, trustedProxies: config.TRUSTED_PROXIES, metrics: { port: config.METRICS_PORT, host: config.METRICS_HOST },
  roomKeyDir: config.ROOM_KEY_DIR, masterKey: config.ROOM_MASTER_KEY ? parseMasterKey(config.ROOM_MASTER_KEY) : undefined,
  previousMasterKeys: parsePreviousMasterKeys(config.ROOM_MASTER_KEYS_PREVIOUS), billingUrl: config.BILLING_URL,
  serviceSecret: config.SERVICE_SECRET, internalPort: internalPortOf(config.PORT, config.INTERNAL_PORT) });
logger.info({ port: server.port, internalPort: server.internalPort }, 'room service listening');
stopOnSignals(server.stop, logger);
