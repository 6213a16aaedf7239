import { z } from 'zod';
import { loadConfig, commonEnv, metricsHost, port, createLogger, startTelemetry, stopOnSignals, serviceSecret, internalPort, internalPortOf } from '@ephemera/platform';
import { startPresenceServer } from './server.ts';

const config = loadConfig(z.object({
  ...commonEnv, PORT: port(8203), REDIS_URL: z.string().url(), METRICS_PORT: port(9203), METRICS_HOST: metricsHost,
  /** the shared secret of internal calls (docs/security.md) and the internal listener's port (unset: PORT + 2000) */
  SERVICE_SECRET: serviceSecret,
  INTERNAL_PORT: internalPort,
}));
startTelemetry('presence', { exporter: config.OTEL_TRACES_EXPORTER });
const logger = createLogger('presence', config.LOG_LEVEL);
const server = await startPresenceServer({ port: config.PORT, redisUrl: config.REDIS_URL, logger, metrics: { port: config.METRICS_PORT, host: config.METRICS_HOST },
  serviceSecret: config.SERVICE_SECRET, internalPort: internalPortOf(config.PORT, config.INTERNAL_PORT) });
logger.info({ port: server.port, internalPort: server.internalPort }, 'presence service listening');
stopOnSignals(server.stop, logger);
