/**
 * The gateway's configuration (platform/config.ts says how it is used): its own variables, the call settings the
 * embedded process reads too, and the distributed gateway process's whole schema.
 */
import { z } from 'zod';
import { configSpec, envVar, loadConfig, type EnvGroupRule } from '@ephemera/platform/src/config.ts';
import {
  allowedOrigins,
  commaList,
  commonEnv,
  kafkaEnv,
  metricsHost,
  metricsPort,
  port,
  rateLimitEnv,
  redisUrl,
  roomEncryptionEnv,
  serviceSecret,
  serviceUrl,
  trustedProxies,
  wholeNumber,
  ENV_GROUPS,
} from '@ephemera/platform/src/config-vars.ts';
import type { IceConfig } from './ice.ts';
import { ENGINE_CHOICES } from './engine/port.ts';
import { BIG_ROOM } from '@ephemera/proto';
import type { BigRoomOptions } from './coalesce.ts';

const CALLS = 'Calls';

/** The spec's "two public STUN servers" when nothing is configured. */
export const DEFAULT_STUN_URLS = ['stun:stun.l.google.com:19302', 'stun:stun1.l.google.com:19302'];

const iceUrls = (schemes: string) =>
  commaList().refine(
    (urls) => urls.every((u) => new RegExp(`^(${schemes}):[^\\s]+$`).test(u)),
    `each must start with ${schemes
      .split('|')
      .map((s) => `${s}:`)
      .join(' or ')}`,
  );

export const callsEnv = {
  CALL_RING_TIMEOUT_MS: envVar(wholeNumber(1000, 600_000).default(30_000), {
    group: CALLS,
    doc: 'an unanswered call ends after this',
    accepts: 'a whole number of milliseconds from 1000 to 600000',
  }),
  STUN_URLS: envVar(
    z
      .string()
      .trim()
      .transform((s) => (s === 'none' ? '' : s))
      .pipe(iceUrls('stun|stuns'))
      .default(DEFAULT_STUN_URLS),
    {
      group: CALLS,
      doc: 'STUN addresses handed to callers',
      accepts: 'stun: or stuns: addresses, comma-separated; none for none',
      defaultText: DEFAULT_STUN_URLS.join(','),
    },
  ),
  TURN_URLS: envVar(iceUrls('turn|turns').optional(), {
    group: CALLS,
    doc: 'TURN addresses handed to callers with a credential minted from TURN_SECRET (docs/deployment.md "TURN for calls")',
    accepts: 'turn: or turns: addresses (turn:host:3478?transport=udp, turns:host:5349), comma-separated',
  }),
  TURN_SECRET: envVar(z.string().optional(), {
    group: CALLS,
    doc: "the TURN server's shared secret (coturn static-auth-secret): each call gets credentials valid for TURN_CREDENTIAL_TTL_SECONDS",
    accepts: 'any text',
    secret: true,
  }),
  TURN_CREDENTIAL_TTL_SECONDS: envVar(wholeNumber(60, 604_800).default(3600), {
    group: CALLS,
    doc: "how long a call's TURN credentials stay valid",
    accepts: 'a whole number of seconds from 60 to 604800 (a week)',
  }),
};
/** TURN addresses without the secret would be served without credentials; a secret without addresses serves nothing. */
export const turnGroup: EnvGroupRule = {
  what: 'TURN',
  members: ['TURN_URLS', 'TURN_SECRET'],
  required: ['TURN_URLS', 'TURN_SECRET'],
};

export const gatewayEngineEnv = {
  GATEWAY_ENGINE: envVar(z.enum(ENGINE_CHOICES).default('auto'), {
    group: ENV_GROUPS.SERVER,
    doc: "the gateway's websocket engine: auto takes uWebSockets.js where its binary loads for this Node and C library, else node (Node's HTTP server with ws); uws refuses to start without it",
    accepts: 'auto, uws or node',
  }),
};

/** Big rooms (coalesce.ts; docs/architecture.md "Big rooms"): the defaults are proto's BIG_ROOM. */
export const bigRoomEnv = {
  BIG_ROOM_SOCKETS: envVar(wholeNumber(1, 1_000_000).default(BIG_ROOM.coalesceFromSockets), {
    group: ENV_GROUPS.SERVER,
    doc: "a room's presence changes go out coalesced (one presence-batch frame per window) and its public channels show at most a few typers once this gateway holds this many of the room's sockets",
    accepts: 'a whole number from 1',
  }),
  ONLINE_PAGE_SIZE: envVar(wholeNumber(1, BIG_ROOM.onlinePageSize).default(BIG_ROOM.onlinePageSize), {
    group: ENV_GROUPS.SERVER,
    doc: "the online list's first page sent on join (the rest is paged by fetch-online-users)",
    accepts: `a whole number from 1 to ${BIG_ROOM.onlinePageSize}`,
  }),
};

/** The big-room options from a parsed configuration. */
export function bigRoomOptionsOf(config: z.output<z.ZodObject<typeof bigRoomEnv>>): Partial<BigRoomOptions> {
  return { coalesceFromSockets: config.BIG_ROOM_SOCKETS, onlinePageSize: config.ONLINE_PAGE_SIZE };
}

type CallsConfig = z.output<z.ZodObject<typeof callsEnv>>;

/** The calls' options from a parsed configuration. */
export function callOptionsOf(config: CallsConfig): { ringTimeoutMs: number; ice: IceConfig } {
  return {
    ringTimeoutMs: config.CALL_RING_TIMEOUT_MS,
    ice: {
      stunUrls: config.STUN_URLS,
      turnUrls: config.TURN_URLS ?? [],
      turnSecret: config.TURN_SECRET,
      turnCredentialTtlSeconds: config.TURN_CREDENTIAL_TTL_SECONDS,
    },
  };
}

/** The calls' options from the environment, validated: a gateway started in-process without them (tests). */
export const callOptionsFromEnv = (env: NodeJS.ProcessEnv = process.env) =>
  callOptionsOf(loadConfig(configSpec('calls', callsEnv, { groups: [turnGroup] }), env));

/** The distributed gateway process (main.ts). */
export const gatewayConfig = configSpec(
  'gateway',
  {
    ...commonEnv,
    PORT: port(8101, 'the socket (and, with HTTP_UPSTREAM, HTTP) port'),
    GATEWAY_ID: envVar(z.string().default('gateway-1'), {
      group: ENV_GROUPS.SERVER,
      doc: "this replica's name: its consumer group and presence source (unique per replica; the chart uses the pod name)",
      accepts: 'any text',
    }),
    ...gatewayEngineEnv,
    SERVICE_SECRET: serviceSecret(),
    ROOM_URL: serviceUrl("the room service's internal listener"),
    MESSAGING_URL: serviceUrl("the messaging service's internal listener"),
    PRESENCE_URL: serviceUrl("the presence service's internal listener"),
    ...kafkaEnv,
    REDIS_URL: redisUrl('the Redis of presence, calls and the shared rate-limit counters'),
    ALLOWED_ORIGINS: allowedOrigins(),
    HTTP_UPSTREAM: envVar(z.url({ protocol: /^https?$/ }).optional(), {
      group: ENV_GROUPS.SERVER,
      doc: 'forward non-socket HTTP (the /api routes) to this origin, for running without an ingress',
      accepts: 'an http(s) URL',
    }),
    TRUSTED_PROXIES: trustedProxies(),
    METRICS_PORT: metricsPort(9101),
    METRICS_HOST: metricsHost(),
    ...callsEnv,
    ...bigRoomEnv,
    ...rateLimitEnv,
    ...roomEncryptionEnv,
  },
  { groups: [turnGroup] },
);
