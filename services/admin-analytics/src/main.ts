import { z } from 'zod';
import {
  loadConfig, commonEnv, kafkaEnv, trustedProxies, metricsHost, port, createLogger, startTelemetry, stopOnSignals, parseMasterKey, serviceSecret,
} from '@ephemera/platform';
import { startAdminServer } from './server.ts';
import { parseHealthTargets } from './analytics/service-health.ts';

const config = loadConfig(z.object({
  ...commonEnv,
  PORT: port(8205),
  /** the shared secret its internal calls are signed with (docs/security.md) */
  SERVICE_SECRET: serviceSecret,
  DATABASE_URL: z.string().url(),
  ...kafkaEnv,
  /** the owners of what the superadmin acts on and of the keys that open their events: their internal listeners */
  ROOM_URL: z.string().url(),
  BILLING_URL: z.string().url(),
  MESSAGING_URL: z.string().url(),
  REDIS_URL: z.string().url().optional(),
  TRUSTED_PROXIES: trustedProxies,
  METRICS_PORT: port(9205),
  METRICS_HOST: metricsHost,
  /** the admin aggregate's data key: a volume of this service only (docs/crypto.md) */
  ADMIN_KEY_DIR: z.string().min(1).default('./data/admin-keys'),
  /** 32 bytes (hex or base64) wrapping the admin key; backups are encrypted under a key derived from it. Required when NODE_ENV=production. */
  ADMIN_MASTER_KEY: z.string().optional(),
  /** the one superadmin account (signed in through billing); empty: nobody is superadmin */
  SUPERADMIN_EMAIL: z.string().optional(),
  /** where backups are written: a volume of this service only */
  BACKUP_DIR: z.string().min(1).default('./data/backups'),
  /** the largest backup an import accepts (read by system/backup/routes.ts; the chart's ingress follows it) */
  ADMIN_BACKUP_MAX_BYTES: z.coerce.number().int().positive().default(1024 * 1024 * 1024),
  /** the other services' /metrics URLs, comma-separated: System Health counts their answers and uptime (service-health.ts) */
  ADMIN_HEALTH_TARGETS: z.string().optional().transform((v, ctx) => {
    try { return parseHealthTargets(v); } catch (err) { ctx.addIssue({ code: 'custom', message: (err as Error).message }); return z.NEVER; }
  }),
  /** how often the auto-delete sweep runs while the Settings switch is on (read by system/index.ts; 0: never) */
  ADMIN_AUTO_DELETE_INTERVAL_MS: z.coerce.number().int().min(0).default(3_600_000),
  NODE_ENV: z.string().optional(),
}));
if (config.NODE_ENV === 'production' && !config.ADMIN_MASTER_KEY) throw new Error('ADMIN_MASTER_KEY is required in production');
startTelemetry('admin-analytics', { exporter: config.OTEL_TRACES_EXPORTER });
const logger = createLogger('admin-analytics', config.LOG_LEVEL);
const server = await startAdminServer({
  port: config.PORT, databaseUrl: config.DATABASE_URL, kafkaBrokers: config.KAFKA_BROKERS, eventLogNamespace: config.EVENT_LOG_NAMESPACE || undefined,
  logger, roomUrl: config.ROOM_URL, billingUrl: config.BILLING_URL, messagingUrl: config.MESSAGING_URL,
  redisUrl: config.REDIS_URL, trustedProxies: config.TRUSTED_PROXIES, metrics: { port: config.METRICS_PORT, host: config.METRICS_HOST },
  adminKeyDir: config.ADMIN_KEY_DIR, masterKey: config.ADMIN_MASTER_KEY ? parseMasterKey(config.ADMIN_MASTER_KEY) : undefined,
  superadminEmail: config.SUPERADMIN_EMAIL ?? null, backupDir: config.BACKUP_DIR, healthTargets: config.ADMIN_HEALTH_TARGETS,
  serviceSecret: config.SERVICE_SECRET,
});
logger.info({ port: server.port }, 'admin-analytics service listening');
stopOnSignals(server.stop, logger);
