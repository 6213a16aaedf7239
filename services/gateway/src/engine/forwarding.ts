/**
 * What both engines' HTTP forwarders (uws-proxy.ts, node-proxy.ts) share: which routes stream, which bodies are
 * handed over in-process, which headers are the proxy's own, and the client that sends to the upstream.
 */
import http from 'node:http';
import https from 'node:https';
import { FILE_ROUTE_PATTERN, UPLOAD_ROUTE_PATTERN } from '@ephemera/proto';
import { BODY_HANDOFF_HEADER } from '@ephemera/platform';

/** A request body's cap on the routes that are not streamed (the API's JSON bodies are far smaller). */
export const MAX_BODY = 1024 * 1024;
/** the superadmin's backup import and download: files far above MAX_BODY, streamed like the file routes */
const BACKUP_FILE_ROUTE = /^\/api\/admin\/backup\/(import|download\/)/i;

/** File and backup routes stream both ways with backpressure; every other body is capped at MAX_BODY. */
export const isStreamedRoute = (url: string) => FILE_ROUTE_PATTERN.test(url) || BACKUP_FILE_ROUTE.test(url);
/** An upload, whose body the embedded proxy hands to the file route in-process. */
export const isUpload = (method: string, url: string) => method === 'POST' && UPLOAD_ROUTE_PATTERN.test(url);

/**
 * Hop-by-hop headers are the proxy's own; the server writes Date and Content-Length itself. A client's handoff
 * header is dropped with them: only the proxy names a handed-over body. Host is not among them: the upstream gets the
 * host the browser asked for (nginx's `proxy_set_header Host $host`), so an ingress behind the gateways routes by
 * its host rules (the layer-4 path, docs/deployment.md). Both adapters keep it.
 */
export const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'date',
  BODY_HANDOFF_HEADER,
]);

const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

/**
 * A request to the upstream (HTTP_UPSTREAM, http or https), on a kept-alive connection. node:http, not fetch: the
 * headers go as given, Host included (fetch sets Host from the target), and the answer's bytes come back as they
 * are (fetch decodes a compressed answer). Throws, as node:http does, on a request it cannot send.
 */
export function upstreamRequest(
  url: string,
  options: { method: string; headers: Record<string, string>; timeout?: number },
  onAnswer: (answer: http.IncomingMessage) => void,
): http.ClientRequest {
  const secure = url.startsWith('https:');
  return (secure ? https : http).request(url, { ...options, agent: secure ? agents.https : agents.http }, onAnswer);
}
