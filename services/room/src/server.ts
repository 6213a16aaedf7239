/** The room service as its own process (distributed mode): Kafka event log, Postgres read model, HTTP API. */
import {
  kafkaEventLog, createPool, pgReady, serveHttp, createRateLimits, type LimitConfig, type Logger, type ServiceServer,
} from '@ephemera/platform';
import { TOPICS } from '@ephemera/proto';
import { startRoomModule } from './index.ts';
import { publicRoomRouter, internalRoomRouter } from './http.ts';

export async function startRoomServer(opts: {
  port: number; host?: string; databaseUrl: string; kafkaBrokers: string[]; eventLogNamespace?: string; logger: Logger; sweepIntervalMs?: number; now?: () => Date;
  /** shared rate-limit counters (password guesses, creations, name checks); absent: this process's memory */
  redisUrl?: string; rateLimits?: LimitConfig; trustedProxies?: string[]; metrics?: { port: number; host?: string };
}): Promise<ServiceServer & { module: Awaited<ReturnType<typeof startRoomModule>> }> {
  const pool = createPool(opts.databaseUrl);
  const log = kafkaEventLog({ brokers: opts.kafkaBrokers, clientId: 'room', logger: opts.logger, namespace: opts.eventLogNamespace });
  await log.init(Object.values(TOPICS));
  const module = await startRoomModule({ databaseUrl: opts.databaseUrl, pool, log, logger: opts.logger, sweepIntervalMs: opts.sweepIntervalMs, now: opts.now });
  const limits = createRateLimits({ redisUrl: opts.redisUrl, namespace: opts.eventLogNamespace, config: opts.rateLimits });
  const server = await serveHttp({
    name: 'room', port: opts.port, host: opts.host, logger: opts.logger,
    routers: [publicRoomRouter(module.service, limits), internalRoomRouter(module.service)],
    ready: () => pgReady(pool),
    trustProxy: opts.trustedProxies, metrics: opts.metrics,
    onStop: async () => { await module.stop(); await log.close(); await pool.end(); await limits.close(); },
  });
  return { ...server, module };
}
