/**
 * What every deployable service process shares: an express app with ops routes, JSON bodies and the error
 * handler; listening; graceful stop on SIGTERM/SIGINT (Kubernetes sends SIGTERM before killing a pod).
 */
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorHandler, opsRoutes, startDefaultMetrics } from './http.ts';
import type { Logger } from './log.ts';
import { startMetricsServer } from './metrics-server.ts';
import { httpMetrics } from './metrics-http.ts';
import { stopTelemetry } from './telemetry.ts';

export interface ServiceServer { port: number; url: string; metricsPort?: number; stop(): Promise<void> }

export async function serveHttp(opts: {
  name: string; port: number; host?: string; logger: Logger; routers: express.Router[];
  /** routers that read the raw body themselves (a signed webhook), mounted before the JSON parser */
  rawBodyRouters?: express.Router[];
  ready: () => Promise<boolean>; onStop?: () => Promise<void>;
  /** request body cap; the default suits commands, presence heartbeats list every connection of a replica */
  jsonLimit?: string;
  /** Prometheus /metrics on its own listener (METRICS_PORT); absent: not served */
  metrics?: { port: number; host?: string };
  /** TRUSTED_PROXIES: whose X-Forwarded-For gives req.ip (the ingress, the gateway's HTTP forwarding) */
  trustProxy?: string[];
}): Promise<ServiceServer> {
  startDefaultMetrics(opts.name);
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', opts.trustProxy && opts.trustProxy.length > 0 ? opts.trustProxy : false);
  app.use(httpMetrics()); // first, so every answer (ops routes, refusals, errors) is timed
  app.use(opsRoutes(opts.ready, opts.logger.child({ server: opts.name }))); // its readiness lines name this server
  for (const r of opts.rawBodyRouters ?? []) app.use(r);
  app.use(express.json({ limit: opts.jsonLimit ?? '64kb' }));
  for (const r of opts.routers) app.use(r);
  app.use(errorHandler(opts.logger));
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(opts.port, opts.host ?? '0.0.0.0', () => resolve(s));
  });
  const port = (server.address() as AddressInfo).port;
  // A taken metrics port must not take the service down with it: logged, and the service serves on.
  const metrics = opts.metrics
    ? await startMetricsServer(opts.metrics).catch((err) => { opts.logger.error({ err }, 'metrics listener failed: /metrics not served'); return null; })
    : null;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    metricsPort: metrics?.port,
    async stop() {
      await metrics?.stop();
      await new Promise((r) => server.close(r));
      server.closeAllConnections();
      await opts.onStop?.();
    },
  };
}

/** Stop cleanly on SIGTERM/SIGINT, once. */
export function stopOnSignals(stop: () => Promise<void>, logger: Logger): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, 'stopping');
      // Spans still buffered for the OTLP exporter are flushed before the process ends.
      stop().then(stopTelemetry).then(() => process.exit(0), (err) => { logger.error({ err }, 'stop failed'); process.exit(1); });
    });
  }
}
