import { z } from 'zod';
import { loadConfig, commonEnv, kafkaEnv, trustedProxies, metricsHost, port, createLogger, startTelemetry, stopOnSignals, serviceSecret } from '@ephemera/platform';
import { startGatewayServer } from './server.ts';

const config = loadConfig(z.object({
  ...commonEnv,
  PORT: port(8101),
  GATEWAY_ID: z.string().min(1).default('gateway-1'),
  /** the internal listeners of room, messaging and presence, and the secret every call to them is signed with */
  SERVICE_SECRET: serviceSecret,
  ROOM_URL: z.string().url(),
  MESSAGING_URL: z.string().url(),
  PRESENCE_URL: z.string().url(),
  ...kafkaEnv,
  REDIS_URL: z.string().url(),
  ALLOWED_ORIGINS: z.string().default('').transform((s) => s.split(',').map((o) => o.trim()).filter(Boolean)),
  /** optional: forward non-socket HTTP (the /api routes) to this origin, for running without an ingress */
  HTTP_UPSTREAM: z.string().url().optional(),
  TRUSTED_PROXIES: trustedProxies,
  METRICS_PORT: port(9101),
  METRICS_HOST: metricsHost,
}));
startTelemetry(`gateway`, { exporter: config.OTEL_TRACES_EXPORTER });
const logger = createLogger(config.GATEWAY_ID, config.LOG_LEVEL);
const gateway = await startGatewayServer({
  port: config.PORT, gatewayId: config.GATEWAY_ID, roomUrl: config.ROOM_URL, messagingUrl: config.MESSAGING_URL,
  presenceUrl: config.PRESENCE_URL, kafkaBrokers: config.KAFKA_BROKERS, eventLogNamespace: config.EVENT_LOG_NAMESPACE || undefined, redisUrl: config.REDIS_URL,
  allowedOrigins: config.ALLOWED_ORIGINS, logger, httpUpstream: config.HTTP_UPSTREAM,
  trustedProxies: config.TRUSTED_PROXIES, metrics: { port: config.METRICS_PORT, host: config.METRICS_HOST }, serviceSecret: config.SERVICE_SECRET,
});
logger.info({ port: gateway.port }, 'gateway listening');
stopOnSignals(gateway.stop, logger);
