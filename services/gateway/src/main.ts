import { configOrExit } from '@ephemera/platform/src/config.ts';
import { bigRoomOptionsOf, callOptionsOf, gatewayConfig } from './config.ts';

const config = configOrExit(gatewayConfig);
// The code that serves is loaded only once the configuration is accepted: a refusal is immediate and opens nothing.
const { createLogger, rateLimitsOf, startTelemetry, stopOnSignals } = await import('@ephemera/platform');
const { startGatewayServer } = await import('./server.ts');
startTelemetry(`gateway`, { exporter: config.OTEL_TRACES_EXPORTER });
const logger = createLogger(config.GATEWAY_ID, config.LOG_LEVEL);
const gateway = await startGatewayServer({
  port: config.PORT,
  gatewayId: config.GATEWAY_ID,
  roomUrl: config.ROOM_URL,
  messagingUrl: config.MESSAGING_URL,
  presenceUrl: config.PRESENCE_URL,
  kafkaBrokers: config.KAFKA_BROKERS,
  eventLogNamespace: config.EVENT_LOG_NAMESPACE || undefined,
  redisUrl: config.REDIS_URL,
  allowedOrigins: config.ALLOWED_ORIGINS,
  logger,
  httpUpstream: config.HTTP_UPSTREAM,
  trustedProxies: config.TRUSTED_PROXIES,
  metrics: { port: config.METRICS_PORT, host: config.METRICS_HOST },
  serviceSecret: config.SERVICE_SECRET,
  rateLimits: rateLimitsOf(config),
  calls: callOptionsOf(config),
  engine: config.GATEWAY_ENGINE,
  bigRoom: bigRoomOptionsOf(config),
});
logger.info({ port: gateway.port }, 'gateway listening');
stopOnSignals(gateway.stop, logger);
