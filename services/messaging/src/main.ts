import { z } from 'zod';
import { loadConfig, commonEnv, kafkaEnv, port, createLogger, startTelemetry, stopOnSignals } from '@ephemera/platform';
import { startMessagingServer } from './server.ts';

const config = loadConfig(z.object({
  ...commonEnv,
  PORT: port(8202),
  DATABASE_URL: z.string().url(),
  ...kafkaEnv,
}));
startTelemetry('messaging', { exporter: config.OTEL_TRACES_EXPORTER });
const logger = createLogger('messaging', config.LOG_LEVEL);
const server = await startMessagingServer({ port: config.PORT, databaseUrl: config.DATABASE_URL, kafkaBrokers: config.KAFKA_BROKERS, eventLogNamespace: config.EVENT_LOG_NAMESPACE || undefined, logger });
logger.info({ port: server.port }, 'messaging service listening');
stopOnSignals(server.stop, logger);
