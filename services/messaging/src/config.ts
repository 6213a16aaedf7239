/**
 * The messaging service's configuration (platform/config.ts says how it is used): uploaded files' S3 bucket and the
 * link-preview fetcher's test allow-list, which the embedded process reads too, and the distributed process's schema.
 */
import { z } from 'zod';
import { configSpec, envVar, loadConfig, type EnvGroupRule } from '@ephemera/platform/src/config.ts';
import {
  commaList,
  commonEnv,
  databaseUrl,
  internalPort,
  kafkaEnv,
  roomMasterKey,
  metricsHost,
  metricsPort,
  nodeEnv,
  optionalRedisUrl,
  port,
  rateLimitEnv,
  roomEncryptionEnv,
  serviceSecret,
  serviceUrl,
  trustedProxies,
  ENV_GROUPS,
} from '@ephemera/platform/src/config-vars.ts';

const FILES = 'Uploaded files (S3)';

export const s3Env = {
  S3_BUCKET: envVar(
    z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'not a bucket name')
      .optional(),
    {
      group: FILES,
      doc: "uploaded files go to this S3-compatible bucket (encrypted under each room's key); unset: embedded keeps them under DATA_DIR/files, a distributed messaging service answers 503 to file routes",
      accepts: 'a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens',
    },
  ),
  S3_ENDPOINT: envVar(z.url({ protocol: /^https?$/ }).optional(), {
    group: FILES,
    doc: 'the S3 server (versitygw, MinIO...); unset: AWS S3',
    accepts: 'an http(s) URL',
  }),
  S3_REGION: envVar(z.string().default('us-east-1'), {
    group: FILES,
    doc: "the bucket's region",
    accepts: 'a region name',
  }),
  S3_ACCESS_KEY_ID: envVar(z.string().optional(), {
    group: FILES,
    doc: "the S3 access key; unset with the secret too: the SDK's default credentials (instance role...)",
    accepts: 'any text',
  }),
  S3_SECRET_ACCESS_KEY: envVar(z.string().optional(), {
    group: FILES,
    doc: 'the S3 secret key',
    accepts: 'any text',
    secret: true,
  }),
  S3_FORCE_PATH_STYLE: envVar(z.enum(['true', 'false']).default('false'), {
    group: FILES,
    doc: 'address the bucket in the path rather than the host name (most self-hosted S3 servers need true)',
    accepts: 'true or false',
  }),
};
export const s3Groups: EnvGroupRule[] = [
  {
    what: 'S3 file storage',
    members: ['S3_BUCKET', 'S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'],
    required: ['S3_BUCKET'],
  },
  {
    what: 'an S3 key',
    members: ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'],
    required: ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'],
  },
];

export const linkPreviewEnv = {
  LINK_PREVIEW_ALLOW_HOSTS: envVar(
    commaList()
      .refine((hosts) => hosts.every((h) => /^(\[[0-9a-fA-F:.]+\]|[^\s:/[\]]+):\d+$/.test(h)), 'each must be host:port')
      .optional(),
    {
      group: ENV_GROUPS.BENCH,
      doc: 'host:port pairs the link-preview fetcher may reach without its address and port checks (a test page on 127.0.0.1:4321); never in production (docs/link-previews.md)',
      accepts: 'host:port pairs, comma-separated',
      testOnly: true,
    },
  ),
};

/** LINK_PREVIEW_ALLOW_HOSTS from the environment, validated: the link-preview service of any process. */
export const linkPreviewAllowHostsFromEnv = (env: NodeJS.ProcessEnv = process.env): string[] =>
  loadConfig(configSpec('link previews', linkPreviewEnv), env).LINK_PREVIEW_ALLOW_HOSTS ?? [];

/** The distributed messaging process (main.ts). */
export const messagingConfig = configSpec(
  'messaging',
  {
    ...commonEnv,
    PORT: port(8202),
    SERVICE_SECRET: serviceSecret(),
    INTERNAL_PORT: internalPort(),
    DATABASE_URL: databaseUrl(),
    ...kafkaEnv,
    ROOM_MASTER_KEY: roomMasterKey(),
    NODE_ENV: nodeEnv(),
    REDIS_URL: optionalRedisUrl('rate-limit counters shared by every replica; unset: each process counts alone'),
    TRUSTED_PROXIES: trustedProxies(),
    METRICS_PORT: metricsPort(9202),
    METRICS_HOST: metricsHost(),
    ROOM_URL: serviceUrl("the room service's internal listener"),
    ...s3Env,
    ...linkPreviewEnv,
    ...rateLimitEnv,
    ...roomEncryptionEnv,
  },
  { groups: s3Groups, requiredInProduction: ['ROOM_MASTER_KEY'] },
);
