/**
 * The embedded process's configuration (`npm start`; platform/config.ts says how it is used): the union of what its
 * modules read, each variable declared where its module's service declares it.
 */
import { z } from 'zod';
import { configSpec, envVar, loadConfig } from '@ephemera/platform/src/config.ts';
import {
  allowedOrigins,
  commonEnv,
  metricsHost,
  metricsPort,
  port,
  rateLimitEnv,
  roomEncryptionEnv,
  roomMasterKeysPrevious,
  trustedProxies,
  ENV_GROUPS,
} from '@ephemera/platform/src/config-vars.ts';
import { bigRoomEnv, callsEnv, gatewayEngineEnv, turnGroup } from '@ephemera/gateway/src/config.ts';
import { accountsEnv, googleGroup, paymentsEnv, stripeGroup } from '@ephemera/billing/src/config.ts';
import { linkPreviewEnv, s3Env, s3Groups } from '@ephemera/messaging/src/config.ts';
import { adminEnv } from '@ephemera/admin-analytics/src/config.ts';

export const embeddedConfig = configSpec(
  'embedded',
  {
    ...commonEnv,
    PORT: port(8080, 'the one HTTP and realtime port'),
    HOST: envVar(z.string().default('0.0.0.0'), {
      group: ENV_GROUPS.SERVER,
      doc: 'the address it listens on',
      accepts: 'an address (0.0.0.0, 127.0.0.1, ::)',
    }),
    DATA_DIR: envVar(z.string().default('./data'), {
      group: ENV_GROUPS.KEYS,
      doc: 'everything embedded keeps: its PostgreSQL, the room keys (keys/), master.key (created at the first start, mode 0600), uploaded files and backups',
      accepts: 'a directory path',
    }),
    ALLOWED_ORIGINS: allowedOrigins(),
    TRUSTED_PROXIES: trustedProxies(),
    METRICS_PORT: metricsPort(9464),
    METRICS_HOST: metricsHost(),
    ROOM_MASTER_KEYS_PREVIOUS: roomMasterKeysPrevious(),
    ...gatewayEngineEnv,
    ...callsEnv,
    ...bigRoomEnv,
    ...accountsEnv,
    ...paymentsEnv,
    ...s3Env,
    ...linkPreviewEnv,
    ...adminEnv,
    ...rateLimitEnv,
    ...roomEncryptionEnv,
  },
  { groups: [turnGroup, googleGroup, stripeGroup, ...s3Groups] },
);

export type EmbeddedConfig = z.output<typeof embeddedConfig.schema>;

/** The configuration from the environment, validated: the app started in-process without one (tests, benchmarks). */
export const embeddedConfigFromEnv = (env: NodeJS.ProcessEnv = process.env): EmbeddedConfig =>
  loadConfig(embeddedConfig, env);
