/** Configuration is read once from the environment and parsed with zod, so a bad value fails at start-up with a clear message. */
import { z } from 'zod';

export function loadConfig<S extends z.ZodTypeAny>(schema: S, env: NodeJS.ProcessEnv = process.env): z.output<S> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  return parsed.data;
}

/** Pieces shared by the services' config schemas. */
export const commonEnv = {
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  OTEL_TRACES_EXPORTER: z.enum(['none', 'console', 'otlp']).default('none'),
};
/** The event log settings of every service that uses Kafka. */
export const kafkaEnv = {
  KAFKA_BROKERS: z.string().min(1).transform((s) => s.split(',')),
  /** prefix for topics and consumer groups when several deployments share one Kafka */
  EVENT_LOG_NAMESPACE: z.string().regex(/^[A-Za-z0-9_-]*$/).optional(),
};
/** TRUSTED_PROXIES: peers whose X-Forwarded-For is believed (comma-separated addresses, CIDRs, or loopback/linklocal/uniquelocal). */
export const trustedProxies = z.string().default('').transform((s) => s.split(',').map((p) => p.trim()).filter(Boolean));
/** METRICS_HOST: where the /metrics listener binds; 0.0.0.0 in a pod so Prometheus reaches it. */
export const metricsHost = z.string().min(1).default('127.0.0.1');
export const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
export const url = z.string().url();

/**
 * SERVICE_SECRET: what every internal call is signed with (service-credential.ts); the same value in every service
 * of a deployment, at least 32 characters. Required: without it no internal call could be made or verified.
 */
export const serviceSecret = z.string().min(32, 'SERVICE_SECRET must be at least 32 characters (docs/security.md)');
/**
 * INTERNAL_PORT: the internal listener of a service with internal routes. Unset: the service's PORT plus
 * INTERNAL_PORT_OFFSET, the one rule the local stack (deploy/local/ports.ts) and the chart's values follow too.
 */
export const INTERNAL_PORT_OFFSET = 2000;
export const internalPort = z.coerce.number().int().min(0).max(65535).optional();
export const internalPortOf = (publicPort: number, configured?: number) =>
  configured ?? (publicPort === 0 ? 0 : publicPort + INTERNAL_PORT_OFFSET);
