/**
 * What every deployable service process shares: an express app with ops routes, JSON bodies and the error
 * handler; listening; graceful stop on SIGTERM/SIGINT (Kubernetes sends SIGTERM before killing a pod). The public
 * app answers 404 to any path that resolves to an internal route; those are served on the internal listener only.
 */
import { assertRoutesFromTable } from './public-route.ts';
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorHandler, opsRoutes, startDefaultMetrics } from './http.ts';
import type { Logger } from './log.ts';
import { startMetricsServer } from './metrics-server.ts';
import { httpMetrics } from './metrics-http.ts';
import { stopTelemetry } from './telemetry.ts';
import { refuseInternalPaths } from './internal-path.ts';
import { refuseControlCharacterPaths } from './path-guard.ts';
import { internalApp, type InternalListenerOptions } from './internal-listener.ts';

export interface ServiceServer {
  port: number;
  url: string;
  metricsPort?: number;
  /** the internal listener (a service with internal routes): where other services call it */
  internalPort?: number;
  internalUrl?: string;
  stop(): Promise<void>;
}

export async function serveHttp(opts: {
  name: string;
  port: number;
  host?: string;
  logger: Logger;
  routers: express.Router[];
  /** routers that read the raw body themselves (a signed webhook), mounted before the JSON parser */
  rawBodyRouters?: express.Router[];
  ready: () => Promise<boolean>;
  onStop?: () => Promise<void>;
  /** request body cap; the default suits commands, presence heartbeats list every connection of a replica */
  jsonLimit?: string;
  /** Prometheus /metrics on its own listener (METRICS_PORT); absent: not served */
  metrics?: { port: number; host?: string };
  /** TRUSTED_PROXIES: whose X-Forwarded-For gives req.ip (the ingress, the gateway's HTTP forwarding) */
  trustProxy?: string[];
  /** the service's /internal routes, on a listener of their own behind the service credential (internal-listener.ts) */
  internal?: InternalListenerOptions;
}): Promise<ServiceServer> {
  startDefaultMetrics(opts.name);
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', opts.trustProxy && opts.trustProxy.length > 0 ? opts.trustProxy : false);
  app.use(httpMetrics()); // first, so every answer (ops routes, refusals, errors) is timed
  app.use(opsRoutes(opts.ready, opts.logger.child({ server: opts.name }))); // its readiness lines name this server
  app.use(refuseInternalPaths());
  app.use(refuseControlCharacterPaths()); // a name or id never holds one: 400 before any route
  for (const r of opts.rawBodyRouters ?? []) app.use(r);
  app.use(express.json({ limit: opts.jsonLimit ?? '64kb' }));
  for (const r of opts.routers) app.use(r);
  app.use(errorHandler(opts.logger));
  assertRoutesFromTable(app); // a public route without its authorization row is never served
  const server = await listen(app, opts.port, opts.host);
  const port = (server.address() as AddressInfo).port;
  const internal = opts.internal
    ? await listen(
        internalApp({ ...opts.internal, logger: opts.logger, jsonLimit: opts.jsonLimit ?? '64kb' }),
        opts.internal.port,
        opts.internal.host ?? opts.host,
      )
    : null;
  const internalPort = internal ? (internal.address() as AddressInfo).port : undefined;
  // A taken metrics port must not take the service down with it: logged, and the service serves on.
  const metrics = opts.metrics
    ? await startMetricsServer(opts.metrics).catch((err) => {
        opts.logger.error({ err }, 'metrics listener failed: /metrics not served');
        return null;
      })
    : null;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    metricsPort: metrics?.port,
    internalPort,
    internalUrl: internalPort === undefined ? undefined : `http://127.0.0.1:${internalPort}`,
    async stop() {
      await metrics?.stop();
      for (const s of [server, internal]) {
        if (!s) continue;
        await new Promise((r) => s.close(r));
        s.closeAllConnections();
      }
      await opts.onStop?.();
    },
  };
}

function listen(app: express.Express, port: number, host = '0.0.0.0'): Promise<Server> {
  return new Promise((resolve, reject) => {
    const s = app.listen(port, host, (err?: Error) => {
      if (err) reject(err);
      else resolve(s);
    });
  });
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
      stop()
        .then(stopTelemetry)
        .then(
          () => process.exit(0),
          (err) => {
            logger.error({ err }, 'stop failed');
            process.exit(1);
          },
        );
    });
  }
}
