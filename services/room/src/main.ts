import { z } from 'zod';
import { loadConfig, commonEnv, kafkaEnv, trustedProxies, metricsHost, port, createLogger, startTelemetry, stopOnSignals } from '@ephemera/platform';
import { startRoomServer } from './server.ts';

const config = loadConfig(z.object({
  ...commonEnv,
  PORT: port(8201),
  DATABASE_URL: z.string().url(),
  ...kafkaEnv,
  SWEEP_INTERVAL_MS: z.coerce.number().int().positive().default(60_000),
  /** rate-limit counters shared with every replica; without it each process counts alone */
  REDIS_URL: z.string().url().optional(),
  TRUSTED_PROXIES: trustedProxies,
  METRICS_PORT: port(9201),
  METRICS_HOST: metricsHost,
}));
startTelemetry('room', { exporter: config.OTEL_TRACES_EXPORTER });
const logger = createLogger('room', config.LOG_LEVEL);
const server = await startRoomServer({ port: config.PORT, databaseUrl: config.DATABASE_URL, kafkaBrokers: config.KAFKA_BROKERS, eventLogNamespace: config.EVENT_LOG_NAMESPACE || undefined, logger, sweepIntervalMs: config.SWEEP_INTERVAL_MS,
  redisUrl: config.REDIS_URL, trustedProxies: config.TRUSTED_PROXIES, metrics: { port: config.METRICS_PORT, host: config.METRICS_HOST } });
logger.info({ port: server.port }, 'room service listening');
stopOnSignals(server.stop, logger);
