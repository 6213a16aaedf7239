/** The presence service as its own process (distributed mode): state and signals in Redis. */
import { RedisEphemeralStore, serveHttp, type Logger, type ServiceServer } from '@ephemera/platform';
import { PresenceService } from './presence-service.ts';
import { internalPresenceRouter } from './http.ts';

export async function startPresenceServer(opts: {
  port: number; host?: string; redisUrl: string; logger: Logger; metrics?: { port: number; host?: string };
}): Promise<ServiceServer> {
  const store = new RedisEphemeralStore(opts.redisUrl);
  const service = new PresenceService(store, { onError: (err) => opts.logger.warn({ err }, 'typing sweep failed') });
  return serveHttp({
    name: 'presence', port: opts.port, host: opts.host, logger: opts.logger,
    routers: [internalPresenceRouter(service, opts.logger)],
    jsonLimit: '16mb',
    metrics: opts.metrics,
    ready: async () => { await store.get('presence:ready-probe'); return true; },
    onStop: async () => { service.stop(); await store.close(); },
  });
}
