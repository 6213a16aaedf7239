import { z } from 'zod';
import {
  loadConfig, commonEnv, kafkaEnv, trustedProxies, metricsHost, port, createLogger, startTelemetry, stopOnSignals, serviceSecret, internalPort, internalPortOf,
} from '@ephemera/platform';
import { startMessagingServer } from './server.ts';
import { storageFromEnv } from './files/index.ts';
import { parseMasterKey } from '@ephemera/platform';

const config = loadConfig(z.object({
  ...commonEnv,
  PORT: port(8202),
  /** the shared secret of internal calls (docs/security.md) and the internal listener's port (unset: PORT + 2000) */
  SERVICE_SECRET: serviceSecret,
  INTERNAL_PORT: internalPort,
  DATABASE_URL: z.string().url(),
  ...kafkaEnv,
  /** 32 bytes (hex or base64); the room search keys derive from it. Required when NODE_ENV=production. */
  ROOM_MASTER_KEY: z.string().optional(),
  NODE_ENV: z.string().optional(),
  /** rate-limit counters shared with every replica; without it each process counts alone */
  REDIS_URL: z.string().url().optional(),
  TRUSTED_PROXIES: trustedProxies,
  METRICS_PORT: port(9202),
  METRICS_HOST: metricsHost,
  /** the room service's internal listener: room keys come from its internal route (docs/crypto.md) */
  ROOM_URL: z.string().url(),
  /** uploaded files: an S3-compatible bucket (README, Configuration); without S3_BUCKET the file routes answer 503 */
  S3_ENDPOINT: z.string().url().optional().or(z.literal('')),
  S3_BUCKET: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('false'),
}));
if (!config.ROOM_MASTER_KEY && config.NODE_ENV === 'production') throw new Error('ROOM_MASTER_KEY is required in production');
startTelemetry('messaging', { exporter: config.OTEL_TRACES_EXPORTER });
const logger = createLogger('messaging', config.LOG_LEVEL);
const server = await startMessagingServer({ port: config.PORT, databaseUrl: config.DATABASE_URL, kafkaBrokers: config.KAFKA_BROKERS, eventLogNamespace: config.EVENT_LOG_NAMESPACE || undefined, logger,
  masterKey: config.ROOM_MASTER_KEY ? parseMasterKey(config.ROOM_MASTER_KEY) : undefined,
  redisUrl: config.REDIS_URL, trustedProxies: config.TRUSTED_PROXIES, metrics: { port: config.METRICS_PORT, host: config.METRICS_HOST },
  roomUrl: config.ROOM_URL, storage: config.S3_BUCKET ? await storageFromEnv(config) : undefined,
  serviceSecret: config.SERVICE_SECRET, internalPort: internalPortOf(config.PORT, config.INTERNAL_PORT) });
logger.info({ port: server.port, internalPort: server.internalPort }, 'messaging service listening');
stopOnSignals(server.stop, logger);
