import { configOrExit, createLogger, startTelemetry, stopOnSignals, internalPortOf } from '@ephemera/platform';
import { startPresenceServer } from './server.ts';
import { presenceConfig } from './config.ts';

const config = configOrExit(presenceConfig);
startTelemetry('presence', { exporter: config.OTEL_TRACES_EXPORTER });
const logger = createLogger('presence', config.LOG_LEVEL);
const server = await startPresenceServer({ port: config.PORT, redisUrl: config.REDIS_URL, logger, metrics: { port: config.METRICS_PORT, host: config.METRICS_HOST },
  serviceSecret: config.SERVICE_SECRET, internalPort: internalPortOf(config.PORT, config.INTERNAL_PORT) });
logger.info({ port: server.port, internalPort: server.internalPort }, 'presence service listening');
stopOnSignals(server.stop, logger);
