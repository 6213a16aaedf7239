/** The room service's configuration (platform/config.ts says how it is used): the distributed process's schema. */
import { configSpec, envVar } from '@ephemera/platform/src/config.ts';
import {
  commonEnv,
  databaseUrl,
  internalPort,
  kafkaEnv,
  keyDir,
  metricsHost,
  metricsPort,
  nodeEnv,
  optionalRedisUrl,
  optionalServiceUrl,
  port,
  rateLimitEnv,
  roomEncryptionEnv,
  roomMasterKey,
  roomMasterKeysPrevious,
  serviceSecret,
  trustedProxies,
  wholeNumber,
} from '@ephemera/platform/src/config-vars.ts';

export const roomConfig = configSpec(
  'room',
  {
    ...commonEnv,
    PORT: port(8201),
    SERVICE_SECRET: serviceSecret(),
    INTERNAL_PORT: internalPort(),
    DATABASE_URL: databaseUrl(),
    ...kafkaEnv,
    SWEEP_INTERVAL_MS: envVar(wholeNumber(1).default(60_000), {
      group: 'Rooms',
      doc: 'how often expired rooms are looked for and deleted',
      accepts: 'a whole number of milliseconds, at least 1',
    }),
    REDIS_URL: optionalRedisUrl('rate-limit counters shared by every replica; unset: each process counts alone'),
    TRUSTED_PROXIES: trustedProxies(),
    METRICS_PORT: metricsPort(9201),
    METRICS_HOST: metricsHost(),
    ROOM_KEY_DIR: keyDir(
      './data/room-keys',
      "each room's data key, one file per room: a volume of the room service only (docs/crypto.md)",
    ),
    ROOM_MASTER_KEY: roomMasterKey(),
    ROOM_MASTER_KEYS_PREVIOUS: roomMasterKeysPrevious(),
    NODE_ENV: nodeEnv(),
    BILLING_URL: optionalServiceUrl(
      "the billing service's internal listener: resolves the dashboard's account sessions",
    ),
    ...rateLimitEnv,
    ...roomEncryptionEnv,
  },
  { requiredInProduction: ['ROOM_MASTER_KEY'] },
);
