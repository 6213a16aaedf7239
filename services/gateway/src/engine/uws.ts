/**
 * The uWS adapter: uWebSockets.js (the `@btc-vision/uwebsockets.js` republish of uWS v20.57) with Socket.IO
 * attached through io.attachApp. The republish carries native binaries for Node 20, 22, 24 and 25 on glibc 2.38
 * or newer (Debian 13, Ubuntu 24.04 and the container images); on Node 26, or an older C library (Debian 12), its
 * binary does not load and the gateway runs the node adapter instead (index.ts).
 */
import { createRequire } from 'node:module';
import type * as Uws from '@btc-vision/uwebsockets.js';
import { observeHttpRequest } from '@ephemera/platform';
import { walkOnlyPollingSockets } from '../socket-io-polling-walk.ts';
import { proxyTo } from './uws-proxy.ts';
import { healthAnswer, type GatewayEngine, type RunningEngine } from './port.ts';

export type UwsModule = typeof Uws;
const PACKAGE = '@btc-vision/uwebsockets.js';

let loaded: { uws: UwsModule; from: string } | { reason: string } | undefined;

/** uWS's native module for this Node and C library, or why there is none (its first line). Loaded once. */
export function loadUws(): { uws: UwsModule; from: string } | { reason: string } {
  if (loaded) return loaded;
  try {
    // The republish throws when no binary of it loads (it has no JavaScript fallback).
    const uws = createRequire(import.meta.url)(PACKAGE) as UwsModule;
    loaded = { uws, from: 'v20.57 (@btc-vision/uwebsockets.js)' };
  } catch (err) {
    const text = String((err as Error).message ?? err);
    // The useful part is the loader's own message (a missing GLIBC version, no binary for this ABI).
    const cause = text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .find((l) => /GLIBC_\d|cannot open shared object|Cannot find module|No such file|invalid ELF/.test(l));
    loaded = { reason: (cause ?? text.split('\n')[0]).slice(0, 300) };
  }
  return loaded;
}

export function uwsEngine(uws: UwsModule): GatewayEngine {
  return {
    name: 'uws',
    async start(o): Promise<RunningEngine> {
      const app = uws.App();
      if (o.io) {
        o.io.attachApp(app);
        walkOnlyPollingSockets(o.io); // after attachApp, which replaces the broadcast it wraps (socket-io-polling-walk.ts)
        o.attached?.(o.io);
      }
      // Liveness and readiness are timed here; proxied requests are timed by the server that answers them.
      for (const path of ['/healthz', '/readyz'] as const) {
        app.get(path, (res) => {
          const started = performance.now();
          let aborted = false;
          res.onAborted(() => {
            aborted = true;
          });
          void healthAnswer(path, o.ready).then(({ status, body }) => {
            if (!aborted)
              res.cork(() =>
                res
                  .writeStatus(status === 200 ? '200 OK' : '503 Service Unavailable')
                  .writeHeader('content-type', 'application/json')
                  .end(body),
              );
            observeHttpRequest('GET', path, status, (performance.now() - started) / 1000);
          });
        });
      }
      app.any(
        '/*',
        o.upstream
          ? proxyTo(o.upstream, o.addressOf, o.handoff)
          : (res, req) => {
              res.writeStatus('404 Not Found').end('Not found');
              observeHttpRequest(req.getMethod(), 'unmatched', 404, 0);
            },
      );
      const { listenSocket, port } = await new Promise<{ listenSocket: Uws.us_listen_socket; port: number }>(
        (resolve, reject) => {
          app.listen(o.host, o.port, (token) => {
            if (!token) return reject(new Error(`gateway could not listen on port ${o.port}`));
            resolve({ listenSocket: token, port: uws.us_socket_local_port(token) });
          });
        },
      );
      return {
        port,
        async close() {
          uws.us_listen_socket_close(listenSocket);
          if (o.io) await new Promise<void>((r) => o.io!.close(() => r()));
        },
      };
    },
  };
}
