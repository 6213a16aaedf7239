/**
 * The admin-analytics service's configuration (platform/config.ts says how it is used): the backup and auto-delete
 * settings, which the embedded process reads too, and the distributed process's schema.
 */
import { z } from 'zod';
import { configSpec, envVar, loadConfig } from '@ephemera/platform/src/config.ts';
import {
  commonEnv,
  databaseUrl,
  kafkaEnv,
  keyDir,
  masterKey,
  metricsHost,
  metricsPort,
  nodeEnv,
  optionalRedisUrl,
  port,
  rateLimitEnv,
  roomEncryptionEnv,
  serviceSecret,
  serviceUrl,
  superadminEmail,
  trustedProxies,
  wholeNumber,
} from '@ephemera/platform/src/config-vars.ts';
import { parseHealthTargets } from './analytics/service-health.ts';

const ADMIN = 'Admin area';
export const DEFAULT_BACKUP_MAX_BYTES = 1024 * 1024 * 1024;

export const adminEnv = {
  ADMIN_BACKUP_MAX_BYTES: envVar(wholeNumber(1).default(DEFAULT_BACKUP_MAX_BYTES), {
    group: ADMIN,
    doc: "the largest backup an import accepts: spooled to disk and restored as a stream, so this bounds disk, not memory (the chart's ingress takes its body limit from it)",
    accepts: 'a whole number of bytes, at least 1',
  }),
  ADMIN_AUTO_DELETE_INTERVAL_MS: envVar(wholeNumber(0).default(3_600_000), {
    group: ADMIN,
    doc: "how often the auto-delete sweep runs while the Settings tab's switch is on; 0: never",
    accepts: 'a whole number of milliseconds (0: never)',
  }),
};

/** The admin settings from the environment, validated: the admin module started in-process without them (tests). */
export const adminSettingsFromEnv = (env: NodeJS.ProcessEnv = process.env) =>
  loadConfig(configSpec('admin settings', adminEnv), env);

/** The distributed admin-analytics process (main.ts). */
export const adminAnalyticsConfig = configSpec(
  'admin-analytics',
  {
    ...commonEnv,
    PORT: port(8205),
    SERVICE_SECRET: serviceSecret(),
    DATABASE_URL: databaseUrl(),
    ...kafkaEnv,
    ROOM_URL: serviceUrl("the room service's internal listener"),
    BILLING_URL: serviceUrl("the billing service's internal listener"),
    MESSAGING_URL: serviceUrl("the messaging service's internal listener"),
    REDIS_URL: optionalRedisUrl('the page-view reload filter and the rate-limit counters, shared by every replica'),
    TRUSTED_PROXIES: trustedProxies(),
    METRICS_PORT: metricsPort(9205),
    METRICS_HOST: metricsHost(),
    ADMIN_KEY_DIR: keyDir(
      './data/admin-keys',
      "the admin aggregate's data key: a volume of the admin-analytics service only (docs/crypto.md)",
    ),
    ADMIN_MASTER_KEY: masterKey(
      'wraps the admin key; backups are encrypted under a key derived from it, so a backup imports only where the same key is set. Unset outside production: an insecure development key',
    ),
    SUPERADMIN_EMAIL: superadminEmail(),
    BACKUP_DIR: envVar(z.string().default('./data/backups'), {
      group: ADMIN,
      doc: 'where backups are written: a volume of the admin-analytics service only (embedded: DATA_DIR/backups)',
      accepts: 'a directory path',
    }),
    ...adminEnv,
    ADMIN_HEALTH_TARGETS: envVar(
      z
        .string()
        .transform((v, ctx) => {
          try {
            return parseHealthTargets(v);
          } catch (err) {
            ctx.addIssue({ code: 'custom', message: (err as Error).message });
            return z.NEVER;
          }
        })
        .default([]),
      {
        group: ADMIN,
        doc: "the other services' /metrics addresses: System Health counts their answers and uptime (the chart and the local stack set it)",
        accepts: 'http(s) URLs, comma-separated',
        defaultText: '',
      },
    ),
    NODE_ENV: nodeEnv(),
    ...rateLimitEnv,
    ...roomEncryptionEnv,
  },
  { requiredInProduction: ['ADMIN_MASTER_KEY'] },
);
