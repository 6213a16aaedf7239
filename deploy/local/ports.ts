/**
 * The local distributed stack's ports (deploy/local/stack.ts starts it; the bench finds its servers by them): each
 * server's variable and default (config.ts), the metrics listener of every service at its own port +
 * METRICS_PORT_OFFSET, and the internal listener of each service with internal routes at its own port +
 * INTERNAL_PORT_OFFSET (the services' own default, services/platform/src/config-vars.ts).
 */
import { INTERNAL_PORT_OFFSET } from '../../services/platform/src/config-vars.ts';

export { STACK_PORTS, stackPorts, type StackServer } from './config.ts';

/** A service's INTERNAL_PORT: its own port + 2000 (the rule the services apply when INTERNAL_PORT is unset). */
export const internalPortOf = (port: number) => port + INTERNAL_PORT_OFFSET;

/** A service's METRICS_PORT: its own port + 1000. */
export const METRICS_PORT_OFFSET = 1000;
export const metricsPortOf = (port: number) => port + METRICS_PORT_OFFSET;
