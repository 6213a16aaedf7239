/**
 * Embedded mode serves everything on one port: uWS takes the socket traffic and hands every other HTTP request
 * to the express app (API + built frontend) listening on a loopback port. Bodies are capped (files will be
 * streamed to their own route later).
 */
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';

const MAX_BODY = 1024 * 1024;
// Hop-by-hop headers are the proxy's own; uWS writes Date and Content-Length itself.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'content-length', 'host', 'date']);

/** addressOf: the client's address from the peer and the headers (trusted proxies only), sent as X-Forwarded-For. */
export function proxyTo(target: string, addressOf: (peer: string, headers: Record<string, string>) => string = (peer) => peer) {
  return (res: HttpResponse, req: HttpRequest) => {
    // uWS request data is only valid synchronously: copy what we need first.
    const method = req.getMethod().toUpperCase();
    // Service-to-service routes (/internal/..., e.g. change-tier) are for callers inside the cluster, never a browser.
    if (/^\/+internal(\/|$)/i.test(req.getUrl())) { res.writeStatus('404 Not Found').end('Not found'); return; }
    const url = req.getUrl() + (req.getQuery() ? `?${req.getQuery()}` : '');
    const headers: Record<string, string> = {};
    req.forEach((k, v) => { if (!HOP_BY_HOP.has(k)) headers[k] = v; });
    headers['x-forwarded-for'] = addressOf(Buffer.from(res.getRemoteAddressAsText()).toString(), headers);
    let aborted = false;
    res.onAborted(() => { aborted = true; });

    const chunks: Buffer[] = [];
    let size = 0;
    const forward = async () => {
      try {
        const upstream = await fetch(target + url, {
          method, headers, body: method === 'GET' || method === 'HEAD' ? undefined : Buffer.concat(chunks), redirect: 'manual',
        });
        const body = Buffer.from(await upstream.arrayBuffer());
        if (aborted) return;
        res.cork(() => {
          res.writeStatus(`${upstream.status} ${upstream.statusText || ''}`.trim());
          upstream.headers.forEach((v, k) => { if (!HOP_BY_HOP.has(k) && k !== 'content-encoding') res.writeHeader(k, v); });
          res.end(body);
        });
      } catch {
        if (!aborted) res.cork(() => res.writeStatus('502 Bad Gateway').end('Bad gateway'));
      }
    };
    if (method === 'GET' || method === 'HEAD') { void forward(); return; }
    res.onData((chunk, isLast) => {
      size += chunk.byteLength;
      if (size > MAX_BODY) {
        if (!aborted) { aborted = true; res.cork(() => res.writeStatus('413 Payload Too Large').end('Request body too large')); }
        return;
      }
      chunks.push(Buffer.from(chunk.slice(0)));
      if (isLast && !aborted) void forward();
    });
  };
}
