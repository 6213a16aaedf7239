/**
 * The variables several processes read, declared once (config.ts says how declarations are used). A service's own
 * variables are declared in its src/config.ts; the embedded process's schema is the union of its modules'. The
 * reference's groups are config-groups.ts; the rate limits' variables config-rate-limits.ts.
 */
import { z } from 'zod';
import { envVar, loadConfig, configSpec } from './config.ts';
import { ENV_GROUPS } from './config-groups.ts';
import { parseMasterKey } from './crypto/master-key.ts';

// Other services may import this file (and config.ts) of the platform's configuration, not the parts below.
export { ENV_GROUPS } from './config-groups.ts';
export { rateLimitEnv, rateLimitsOf, rateLimitConfig, rateLimitsFromEnv } from './config-rate-limits.ts';

const { SERVER, LOGS, CONNECTIONS, KEYS } = ENV_GROUPS;

/** a whole number in [min, max]: the one spelling of "a count of milliseconds/seconds/bytes" */
export const wholeNumber = (min: number, max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().min(min).max(max);
/** comma-separated, each trimmed, empties dropped */
export const commaList = () =>
  z.string().transform((s) =>
    s
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean),
  );
const httpUrl = () => z.url({ protocol: /^https?$/ });

export const port = (fallback: number, doc = 'the public HTTP port') =>
  envVar(wholeNumber(0, 65535).default(fallback), {
    group: SERVER,
    doc,
    accepts: 'a TCP port, 0 to 65535 (0: any free port)',
  });

export const commonEnv = {
  LOG_LEVEL: envVar(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'), {
    group: LOGS,
    doc: 'the level of the JSON logs (pino)',
    accepts: 'fatal, error, warn, info, debug, trace or silent',
  }),
  OTEL_TRACES_EXPORTER: envVar(z.enum(['none', 'console', 'otlp']).default('none'), {
    group: LOGS,
    doc: 'where trace spans go: nowhere, printed, or over OTLP/HTTP to the collector the next variables name (docs/deployment.md "Tracing")',
    accepts: 'none, console or otlp',
  }),
  OTEL_EXPORTER_OTLP_ENDPOINT: envVar(httpUrl().optional(), {
    group: LOGS,
    doc: "with otlp: the collector's base address (spans go to its /v1/traces); read by the OpenTelemetry exporter, like its other standard OTEL_* variables",
    accepts: 'an http(s) URL',
    defaultText: 'http://localhost:4318',
  }),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: envVar(httpUrl().optional(), {
    group: LOGS,
    doc: 'with otlp: the full address spans are posted to, instead of the endpoint above',
    accepts: 'an http(s) URL',
  }),
  OTEL_EXPORTER_OTLP_HEADERS: envVar(
    z
      .string()
      .regex(/^[^=,]+=[^,]*(,[^=,]+=[^,]*)*$/)
      .optional(),
    {
      group: LOGS,
      doc: 'with otlp: headers sent to the collector (an API key, say)',
      accepts: 'key=value pairs, comma-separated',
      secret: true,
    },
  ),
};

/** The event log settings of every process that uses Kafka. */
export const kafkaEnv = {
  KAFKA_BROKERS: envVar(
    z
      .string()
      .regex(/^[^,\s]+:\d+(,[^,\s]+:\d+)*$/)
      .transform((s) => s.split(',')),
    {
      group: CONNECTIONS,
      doc: 'the Kafka brokers of the event log',
      accepts: 'host:port pairs, comma-separated',
    },
  ),
  EVENT_LOG_NAMESPACE: envVar(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/)
      .optional(),
    {
      group: CONNECTIONS,
      doc: 'prefixes every Kafka topic and consumer group, rate-limit key and call deadline in Redis: several deployments (or test stacks) on one Kafka and Redis',
      accepts: 'letters, digits, - and _',
    },
  ),
};

export const trustedProxies = () =>
  envVar(commaList().default([]), {
    group: SERVER,
    doc: "proxies in front whose X-Forwarded-For names the client (rate limits per address) and whose X-Forwarded-Host the origin check believes; nobody else's",
    accepts: 'addresses, CIDRs, or loopback / linklocal / uniquelocal, comma-separated',
    defaultText: '',
  });
export const allowedOrigins = () =>
  envVar(commaList().default([]), {
    group: SERVER,
    doc: 'extra browser origins allowed to open a socket (the same host is always allowed)',
    accepts: 'origins (https://chat.example.com), comma-separated',
    defaultText: '',
  });
export const metricsPort = (fallback: number) =>
  envVar(wholeNumber(0, 65535).default(fallback), {
    group: SERVER,
    doc: 'the Prometheus /metrics listener (never on the public port)',
    accepts: 'a TCP port, 0 to 65535',
  });
export const metricsHost = () =>
  envVar(z.string().default('127.0.0.1'), {
    group: SERVER,
    doc: 'the address the /metrics listener binds: 0.0.0.0 in a pod, so Prometheus reaches it',
    accepts: 'an address',
  });
export const nodeEnv = () =>
  envVar(z.string().optional(), {
    group: KEYS,
    doc: "production: the master keys (and billing's SMTP_URL) are required instead of falling back to development ones",
    accepts: 'production, or anything else',
  });

/** Where another service's internal listener is (distributed mode). */
export const serviceUrl = (doc: string) => envVar(httpUrl(), { group: CONNECTIONS, doc, accepts: 'an http(s) URL' });
export const optionalServiceUrl = (doc: string) =>
  envVar(httpUrl().optional(), { group: CONNECTIONS, doc, accepts: 'an http(s) URL' });
export const databaseUrl = () =>
  envVar(z.url({ protocol: /^postgres(ql)?$/ }), {
    group: CONNECTIONS,
    doc: 'the PostgreSQL database of this service',
    accepts: 'postgres://user:password@host:port/database',
    secret: true,
  });
export const redisUrl = (doc: string) =>
  envVar(z.url({ protocol: /^rediss?$/ }), {
    group: CONNECTIONS,
    doc,
    accepts: 'redis://host:port or rediss://...',
    secret: true,
  });
export const optionalRedisUrl = (doc: string) =>
  envVar(z.url({ protocol: /^rediss?$/ }).optional(), {
    group: CONNECTIONS,
    doc,
    accepts: 'redis://host:port or rediss://...',
    secret: true,
  });

/** SERVICE_SECRET: what every internal call is signed with (service-credential.ts); the same in every service. */
export const serviceSecret = () =>
  envVar(z.string().min(32, 'at least 32 characters'), {
    group: CONNECTIONS,
    doc: 'every internal call between services is signed with it (docs/security.md); the same value in every service',
    accepts: 'at least 32 characters',
    secret: true,
  });

/**
 * INTERNAL_PORT: the internal listener of a service with internal routes. Unset: the service's PORT plus
 * INTERNAL_PORT_OFFSET, the one rule the local stack (deploy/local/ports.ts) and the chart's values follow too.
 */
export const INTERNAL_PORT_OFFSET = 2000;
export const internalPort = () =>
  envVar(wholeNumber(0, 65535).optional(), {
    group: SERVER,
    doc: "the listener of the service's internal routes (signed calls only; no ingress may route to it)",
    accepts: 'a TCP port, 0 to 65535',
    defaultText: `PORT + ${INTERNAL_PORT_OFFSET}`,
  });
export const internalPortOf = (publicPort: number, configured?: number) =>
  configured ?? (publicPort === 0 ? 0 : publicPort + INTERNAL_PORT_OFFSET);

/** 32 bytes, hex or base64: what master keys look like (crypto/master-key.ts parseMasterKey). */
const isMasterKey = (s: string) => {
  try {
    parseMasterKey(s);
    return true;
  } catch {
    return false;
  }
};
export const masterKey = (doc: string) =>
  envVar(z.string().refine(isMasterKey, '32 bytes expected').optional(), {
    group: KEYS,
    doc,
    accepts: '32 bytes: 64 hex characters or base64',
    secret: true,
  });
export const previousMasterKeys = (doc: string) =>
  envVar(
    z
      .string()
      .refine(
        (s) =>
          s
            .split(',')
            .map((k) => k.trim())
            .filter(Boolean)
            .every(isMasterKey),
        'each must be 32 bytes',
      )
      .optional(),
    {
      group: KEYS,
      doc,
      accepts: 'master keys (32 bytes, hex or base64), comma-separated',
      secret: true,
    },
  );
/** SUPERADMIN_EMAIL: billing (who is superadmin) and admin-analytics (who may act) read the same one. */
export const superadminEmail = () =>
  envVar(z.email().optional(), {
    group: 'Accounts',
    doc: 'the one account (once signed in with this address) that sees and may use the admin area; unset: nobody',
    accepts: 'an e-mail address',
  });

/** ROOM_MASTER_KEY: room and messaging read the same one. */
export const roomMasterKey = () =>
  masterKey(
    'wraps the room keys (room) and signs link-preview image addresses (messaging): the same value in both. Unset outside production: an insecure development key, with a warning',
  );
export const roomMasterKeysPrevious = () =>
  previousMasterKeys(
    'during a master-key rotation: the old master keys; every room key is re-wrapped under the current one at start (docs/crypto.md "Rotation")',
  );
export const keyDir = (fallback: string, doc: string) =>
  envVar(z.string().default(fallback), { group: KEYS, doc, accepts: 'a directory path' });

/** ROOM_ENCRYPTION: the encryption-cost benchmark's switch (docs/crypto.md); every process that seals room data. */
export const roomEncryptionEnv = {
  ROOM_ENCRYPTION: envVar(z.enum(['on', 'off']).default('on'), {
    group: ENV_GROUPS.BENCH,
    doc: 'off: room events and message rows are stored unsealed, to measure what sealing costs (load-tests/crypto-bench.ts); never in a deployment',
    accepts: 'on or off',
    testOnly: true,
  }),
};
let roomEncryption: 'on' | 'off' | undefined;
/** Whether room data is sealed: ROOM_ENCRYPTION, validated like the rest and read once per process. */
export function roomEncryptionOn(): boolean {
  roomEncryption ??= loadConfig(configSpec('room encryption', roomEncryptionEnv)).ROOM_ENCRYPTION;
  return roomEncryption === 'on';
}
