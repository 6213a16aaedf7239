/** The presence service's configuration (platform/config.ts says how it is used): the distributed process's schema. */
import { configSpec } from '@ephemera/platform/src/config.ts';
import {
  commonEnv,
  internalPort,
  metricsHost,
  metricsPort,
  port,
  redisUrl,
  serviceSecret,
} from '@ephemera/platform/src/config-vars.ts';

export const presenceConfig = configSpec('presence', {
  ...commonEnv,
  PORT: port(8203, 'the public HTTP port (presence serves only /healthz and /readyz there)'),
  REDIS_URL: redisUrl('where presence and typing live'),
  METRICS_PORT: metricsPort(9203),
  METRICS_HOST: metricsHost(),
  SERVICE_SECRET: serviceSecret(),
  INTERNAL_PORT: internalPort(),
});
