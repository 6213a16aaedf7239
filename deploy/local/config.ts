/**
 * The local distributed stack's configuration (`npm run distributed:up`, deploy/local/stack.ts), declared like a
 * service's (services/platform/src/config.ts): its servers' ports, where it keeps its files and tools, and the
 * settings it hands every service. What a service itself reads passes through to it from the environment.
 */
import path from 'node:path';
import { z } from 'zod';
import { configSpec, envVar, loadConfig } from '../../services/platform/src/config.ts';
import { allowedOrigins, commonEnv, wholeNumber } from '../../services/platform/src/config-vars.ts';

const STACK = 'Local distributed stack (npm run distributed:up)';
const repo = path.resolve(import.meta.dirname, '..', '..');

/**
 * Each server's port variable and default. The defaults lie below Linux's ephemeral range (32768-60999): a port in it
 * can be taken as the source port of any outgoing connection (a bench's thousands of sockets), and the next start
 * then fails with EADDRINUSE.
 */
export const STACK_PORTS = {
  // the ingress (the browser's one origin), then the services
  http: ['PORT', 8080],
  // the layer-4 entry: nginx's stream module in front of the gateways (layer4.ts), the same product on one address
  l4: ['L4_PORT', 8090],
  gateway1: ['GATEWAY_1_PORT', 8101],
  gateway2: ['GATEWAY_2_PORT', 8102],
  room: ['ROOM_PORT', 8201],
  messaging: ['MESSAGING_PORT', 8202],
  presence: ['PRESENCE_PORT', 8203],
  billing: ['BILLING_PORT', 8204],
  admin: ['ADMIN_PORT', 8205],
  // the infrastructure servers
  postgres: ['POSTGRES_PORT', 15432],
  redis: ['REDIS_PORT', 16379],
  kafka: ['KAFKA_PORT', 19092],
  kafkaController: ['KAFKA_CONTROLLER_PORT', 19093],
  s3: ['S3_PORT', 17070],
} as const satisfies Record<string, readonly [variable: string, fallback: number]>;

export type StackServer = keyof typeof STACK_PORTS;

const portsEnv = Object.fromEntries(
  Object.entries(STACK_PORTS).map(([name, [variable, fallback]]) => [
    variable,
    envVar(wholeNumber(1, 65535).default(fallback), {
      group: STACK,
      doc:
        name === 'http'
          ? "the stack's one address: nginx in front of the gateways and services"
          : name === 'l4'
            ? "the stack's layer-4 address: nginx's stream module passing connections to the gateways, which forward HTTP to the first address"
            : `the local ${name} server's port`,
      accepts: 'a TCP port, 1 to 65535',
    }),
  ]),
) as Record<string, z.ZodDefault<z.ZodCoercedNumber>>;

const toolsEnv = {
  EPHEMERA_TOOLS: envVar(z.string().default(path.join('deploy', 'local', '.tools')), {
    group: STACK,
    doc: 'where deploy/local/install.sh and deploy/ops/install-tools.sh put the tools the stack and the tests run (Kafka, Redis, nginx, versitygw...)',
    accepts: 'a directory path',
  }),
};

export const localStackConfig = configSpec('local stack', {
  LOG_LEVEL: commonEnv.LOG_LEVEL,
  ...portsEnv,
  ...toolsEnv,
  EPHEMERA_RUN_DIR: envVar(z.string().default(path.join('deploy', 'local', '.run')), {
    group: STACK,
    doc: "the stack's data, logs, pid files and service secret",
    accepts: 'a directory path',
  }),
  SERVICE_SECRET: envVar(z.string().min(32, 'at least 32 characters').optional(), {
    group: STACK,
    doc: "the services' shared secret; unset: a random one, written to EPHEMERA_RUN_DIR/service-secret (mode 0600)",
    accepts: 'at least 32 characters',
    secret: true,
  }),
  ALLOWED_ORIGINS: allowedOrigins(),
  STACK_CPU_PROFILE: envVar(z.string().optional(), {
    group: STACK,
    doc: 'service processes (gateway-1,messaging...) that write a V8 CPU profile to EPHEMERA_RUN_DIR/profiles when they stop',
    accepts: 'process names, comma-separated',
    testOnly: true,
  }),
  STACK_NODE_FLAGS: envVar(z.string().optional(), {
    group: STACK,
    doc: 'more V8 flags for every service process while investigating (--trace-gc ...)',
    accepts: 'flags, space-separated',
    testOnly: true,
  }),
});
export type LocalStackConfig = z.output<typeof localStackConfig.schema>;

/** The stack's ports from a parsed configuration. */
export function stackPortsOf(config: Record<string, unknown>): Record<StackServer, number> {
  return Object.fromEntries(
    Object.entries(STACK_PORTS).map(([name, [variable]]) => [name, config[variable] as number]),
  ) as Record<StackServer, number>;
}

/** The stack's ports as `env` sets them (unset: the defaults above). */
export const stackPorts = (env: NodeJS.ProcessEnv = process.env) =>
  stackPortsOf(loadConfig(configSpec('local stack ports', portsEnv), env));

/** EPHEMERA_TOOLS, absolute. */
export const toolsDir = (env: NodeJS.ProcessEnv = process.env) =>
  path.resolve(repo, loadConfig(configSpec('tools', toolsEnv), env).EPHEMERA_TOOLS);
