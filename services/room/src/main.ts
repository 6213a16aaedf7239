import { z } from 'zod';
import { loadConfig, commonEnv, port, createLogger, startTelemetry, stopOnSignals } from '@ephemera/platform';
import { startRoomServer } from './server.ts';

const config = loadConfig(z.object({
  ...commonEnv,
  PORT: port(8201),
  DATABASE_URL: z.string().url(),
  KAFKA_BROKERS: z.string().min(1).transform((s) => s.split(',')),
  /** prefix for topics and consumer groups when several deployments share one Kafka */
  EVENT_LOG_NAMESPACE: z.string().regex(/^[A-Za-z0-9_-]*$/).optional(),
  SWEEP_INTERVAL_MS: z.coerce.number().int().positive().default(60_000),
}));
startTelemetry('room', { exporter: config.OTEL_TRACES_EXPORTER });
const logger = createLogger('room', config.LOG_LEVEL);
const server = await startRoomServer({ port: config.PORT, databaseUrl: config.DATABASE_URL, kafkaBrokers: config.KAFKA_BROKERS, eventLogNamespace: config.EVENT_LOG_NAMESPACE || undefined, logger, sweepIntervalMs: config.SWEEP_INTERVAL_MS });
logger.info({ port: server.port }, 'room service listening');
stopOnSignals(server.stop, logger);
