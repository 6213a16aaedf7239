/** The presence service as its own process (distributed mode): state and signals in Redis. */
import { RedisEphemeralStore, serveHttp, serviceCredential, type Logger, type ServiceServer } from '@ephemera/platform';
import { PresenceService } from './presence-service.ts';
import { internalPresenceRouter } from './http.ts';

export async function startPresenceServer(opts: {
  port: number;
  host?: string;
  redisUrl: string;
  logger: Logger;
  metrics?: { port: number; host?: string };
  /** SERVICE_SECRET (the gateways' calls are verified with it) and INTERNAL_PORT (0 or absent: any free port) */
  serviceSecret: string;
  internalPort?: number;
}): Promise<ServiceServer> {
  const store = new RedisEphemeralStore(opts.redisUrl);
  const service = new PresenceService(store, { onError: (err) => opts.logger.warn({ err }, 'typing sweep failed') });
  return serveHttp({
    name: 'presence',
    port: opts.port,
    host: opts.host,
    logger: opts.logger,
    // Presence has no public routes: the gateways call it on its internal listener only.
    routers: [],
    internal: {
      port: opts.internalPort ?? 0,
      secret: serviceCredential('presence', opts.serviceSecret).secret,
      routers: [internalPresenceRouter(service, opts.logger)],
    },
    jsonLimit: '16mb',
    metrics: opts.metrics,
    ready: async () => {
      await store.get('presence:ready-probe');
      return true;
    },
    onStop: async () => {
      service.stop();
      await store.close();
    },
  });
}
