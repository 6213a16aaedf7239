/**
 * Prometheus metrics on a listener of their own (METRICS_PORT), never on the public port: process, heap and
 * business counters are for the scraper, not for visitors. Bound to 127.0.0.1 by default; a Kubernetes pod sets
 * METRICS_HOST=0.0.0.0 so Prometheus can reach it on the pod address.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import client from 'prom-client';

export interface MetricsServer {
  port: number;
  stop(): Promise<void>;
}

export async function startMetricsServer(opts: { port: number; host?: string }): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    client.register.metrics().then(
      (text) => res.writeHead(200, { 'content-type': client.register.contentType }).end(text),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    async stop() {
      await new Promise((r) => server.close(r));
      server.closeAllConnections();
    },
  };
}
