/**
 * The local distributed stack's ports (deploy/local/stack.ts starts it; the bench finds its servers by them): each
 * server's variable and default, the metrics listener of every service at its own port + METRICS_PORT_OFFSET, and
 * the internal listener of each service with internal routes at its own port + INTERNAL_PORT_OFFSET (the services'
 * own default, services/platform/src/config.ts).
 * The defaults lie below Linux's ephemeral range (32768-60999): a port in it can be taken as the source port of any
 * outgoing connection (a bench's thousands of sockets), and the next start then fails with EADDRINUSE.
 */
import { INTERNAL_PORT_OFFSET } from '../../services/platform/src/config.ts';

export const STACK_PORTS = {
  // the ingress (the browser's one origin), then the services
  http: ['PORT', 8080], gateway1: ['GATEWAY_1_PORT', 8101], gateway2: ['GATEWAY_2_PORT', 8102],
  room: ['ROOM_PORT', 8201], messaging: ['MESSAGING_PORT', 8202], presence: ['PRESENCE_PORT', 8203],
  billing: ['BILLING_PORT', 8204], admin: ['ADMIN_PORT', 8205],
  // the infrastructure servers
  postgres: ['POSTGRES_PORT', 15432], redis: ['REDIS_PORT', 16379], kafka: ['KAFKA_PORT', 19092],
  kafkaController: ['KAFKA_CONTROLLER_PORT', 19093], s3: ['S3_PORT', 17070],
} as const satisfies Record<string, readonly [variable: string, fallback: number]>;

export type StackServer = keyof typeof STACK_PORTS;

/** The stack's ports as `env` sets them (unset: the defaults above). */
export function stackPorts(env: NodeJS.ProcessEnv = process.env): Record<StackServer, number> {
  return Object.fromEntries(Object.entries(STACK_PORTS).map(([name, [variable, fallback]]) => [name, Number(env[variable] ?? fallback)])) as Record<StackServer, number>;
}

/** A service's INTERNAL_PORT: its own port + 2000 (the rule the services apply when INTERNAL_PORT is unset). */
export const internalPortOf = (port: number) => port + INTERNAL_PORT_OFFSET;

/** A service's METRICS_PORT: its own port + 1000. */
export const METRICS_PORT_OFFSET = 1000;
export const metricsPortOf = (port: number) => port + METRICS_PORT_OFFSET;
