/**
 * The test stack's stand-in for the ingress's HTTP routing (deploy/local/nginx.conf.template): requests whose path
 * starts with a route's prefix go to that route's service, everything else to the fallback (room). The gateways'
 * HTTP_UPSTREAM points here, so a test reaches every public route through a gateway as a browser would.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PathRouter {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export async function startPathRouter(
  routes: { prefix?: string; pattern?: RegExp; target: string }[],
  fallback: string,
): Promise<PathRouter> {
  // Idle connections are closed here after 4 s, before the services' servers close them (Node's keepAliveTimeout, 5 s):
  // reusing one the server is closing at that moment fails the request (ECONNRESET, answered 502 here).
  const agent = new http.Agent({ keepAlive: true, timeout: 4_000 });
  const server = http.createServer((req, res) => {
    const url = req.url ?? '';
    const target = new URL(
      routes.find((r) => (r.prefix !== undefined && url.startsWith(r.prefix)) || r.pattern?.test(url))?.target ??
        fallback,
    );
    const upstream = http.request(
      {
        hostname: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('Bad gateway');
    });
    req.pipe(upstream);
    // As nginx does: a client gone before its answer ends the upstream request too.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    async stop() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      agent.destroy();
    },
  };
}
