import { configOrExit } from '@ephemera/platform/src/config.ts';
import { presenceConfig } from './config.ts';

const config = configOrExit(presenceConfig);
// The code that serves is loaded only once the configuration is accepted: a refusal is immediate and opens nothing.
const { createLogger, startTelemetry, stopOnSignals, internalPortOf } = await import('@ephemera/platform');
const { startPresenceServer } = await import('./server.ts');
startTelemetry('presence', { exporter: config.OTEL_TRACES_EXPORTER });
const logger = createLogger('presence', config.LOG_LEVEL);
const server = await startPresenceServer({
  port: config.PORT,
  redisUrl: config.REDIS_URL,
  logger,
  metrics: { port: config.METRICS_PORT, host: config.METRICS_HOST },
  serviceSecret: config.SERVICE_SECRET,
  internalPort: internalPortOf(config.PORT, config.INTERNAL_PORT),
});
logger.info({ port: server.port, internalPort: server.internalPort }, 'presence service listening');
stopOnSignals(server.stop, logger);
