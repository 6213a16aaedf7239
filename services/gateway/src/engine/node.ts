/**
 * The node adapter: Node's own HTTP server with Socket.IO attached (io.attach, Socket.IO's default `ws` websocket
 * engine). It runs on every Node line; the gateway uses it wherever uWS's binary does not load (index.ts).
 */
import http from 'node:http';
import type net from 'node:net';
import { observeHttpRequest } from '@ephemera/platform';
import { nodeProxy } from './node-proxy.ts';
import { healthAnswer, type GatewayEngine, type RunningEngine } from './port.ts';

export const nodeEngine: GatewayEngine = {
  name: 'node',
  async start(o): Promise<RunningEngine> {
    const forward = o.upstream ? nodeProxy(o.upstream, o.addressOf, o.handoff) : null;
    const server = http.createServer(
      {
        // An upload of hundreds of MB on a slow link takes longer than Node's default 5 minutes per request; the
        // headers still have to arrive within headersTimeout (60 s), so a client cannot hold a socket by trickling them.
        requestTimeout: 0,
      },
      (req, res) => {
        const path = (req.url ?? '/').split('?')[0];
        if (req.method === 'GET' && (path === '/healthz' || path === '/readyz')) {
          const started = performance.now();
          void healthAnswer(path, o.ready).then(({ status, body }) => {
            if (!res.destroyed) res.writeHead(status, { 'content-type': 'application/json' }).end(body);
            observeHttpRequest('GET', path, status, (performance.now() - started) / 1000);
          });
          return;
        }
        if (forward) {
          forward(req, res);
          return;
        }
        res.writeHead(404).end('Not found');
        observeHttpRequest(req.method ?? 'GET', 'unmatched', 404, 0);
      },
    );
    // Socket.IO takes /socket.io/ requests and upgrades; it hands every other request to the listener above.
    if (o.io) {
      o.io.attach(server);
      o.attached?.(o.io);
    }
    const port = await new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(o.port, o.host, () => {
        server.off('error', reject);
        resolve((server.address() as net.AddressInfo).port);
      });
    });
    return {
      port,
      async close() {
        const closed = new Promise<void>((r) => server.close(() => r()));
        if (o.io) await new Promise<void>((r) => o.io!.close(() => r()));
        server.closeAllConnections();
        await closed;
      },
    };
  },
};
