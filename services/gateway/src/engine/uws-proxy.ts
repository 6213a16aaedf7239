/**
 * The uWS adapter's HTTP forwarder (node-proxy.ts is the node adapter's; both pass the engine contract suite).
 * Embedded mode serves everything on one port: uWS takes the socket traffic and hands every other HTTP request
 * to the express app (API + built frontend) listening on a loopback port. Bodies are capped, except the file
 * routes (/api/workspaces/{id}/files...), which stream both ways with backpressure (streamFiles): an upload of
 * hundreds of MB passes through in bounded memory and the service enforces the tier's size limit. Given a
 * BodyHandoff (embedded), an upload's body does not cross the loopback socket at all: the express route takes it
 * in-process (uws-body.ts), and only the request's line and headers, and the answer, make the loopback hop.
 */
import http from 'node:http';
import type { HttpRequest, HttpResponse } from '@btc-vision/uwebsockets.js';
import { BODY_HANDOFF_HEADER, forwardablePath, type BodyHandoff } from '@ephemera/platform';
import { HOP_BY_HOP, MAX_BODY, isStreamedRoute, isUpload, upstreamRequest } from './forwarding.ts';
import { uwsBody } from './uws-body.ts';

/**
 * addressOf: the client's address from the peer and the headers (trusted proxies only), sent as X-Forwarded-For.
 * handoff (embedded only: the upstream is this process's express app): uploads' bodies are handed over in-process.
 */
export function proxyTo(
  target: string,
  addressOf: (peer: string, headers: Record<string, string>) => string = (peer) => peer,
  handoff?: BodyHandoff,
) {
  return (res: HttpResponse, req: HttpRequest) => {
    // uWS request data is only valid synchronously: copy what we need first.
    const method = req.getMethod().toUpperCase();
    // What is checked is what is sent: the target as the URL parser resolves it (dot segments, %2e), refused (404)
    // when it or any decoding of it names a service-to-service route (/internal/...), which no public port serves.
    const url = forwardablePath(req.getUrl() + (req.getQuery() ? `?${req.getQuery()}` : ''));
    if (url === null) {
      res.writeStatus('404 Not Found').end('Not found');
      return;
    }
    const headers: Record<string, string> = {};
    req.forEach((k, v) => {
      if (!HOP_BY_HOP.has(k)) headers[k] = v;
    });
    if (!sendable(method, headers)) {
      res.writeStatus('400 Bad Request').end('Bad request');
      return;
    }
    headers['x-forwarded-for'] = addressOf(Buffer.from(res.getRemoteAddressAsText()).toString(), headers);
    if (isStreamedRoute(url)) {
      streamFiles(target, url, method, headers, res, isUpload(method, url) ? handoff : undefined);
      return;
    }
    forwardBuffered(target, url, method, headers, res);
  };
}

/** RFC 9110's token: what a method may be made of. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * uWS's parser lets through a method or a header that HTTP does not allow (a DEL in a value, say), which Node's
 * parser refuses with a 400 and node:http refuses to send (it throws). Refused here the same way: 400.
 */
function sendable(method: string, headers: Record<string, string>): boolean {
  if (!TOKEN.test(method)) return false;
  try {
    for (const [name, value] of Object.entries(headers)) {
      http.validateHeaderName(name);
      http.validateHeaderValue(name, value);
    }
    return true;
  } catch {
    return false;
  }
}

/** An upstream silent this long (no answer yet, or an answer that stalls) is given up: 502, as undici's defaults. */
const UPSTREAM_TIMEOUT_MS = 300_000;

/**
 * Every route but the file routes: the request body (capped at MAX_BODY) is read whole, then sent with its length;
 * the answer is read whole and written in one go.
 */
function forwardBuffered(
  target: string,
  url: string,
  method: string,
  headers: Record<string, string>,
  res: HttpResponse,
): void {
  // Set once the client has its answer or is gone: nothing more is written to `res` (uWS throws on its use then).
  let done = false;
  let upstream: http.ClientRequest | null = null;
  // A client gone is a request the upstream need not finish (a queued password try, say): its request is ended.
  res.onAborted(() => {
    done = true;
    upstream?.destroy();
  });
  const badGateway = () => {
    if (done) return;
    done = true;
    res.cork(() => res.writeStatus('502 Bad Gateway').end('Bad gateway'));
  };
  const forward = (body: Buffer | null) => {
    if (body) headers['content-length'] = String(body.length);
    try {
      upstream = upstreamRequest(target + url, { method, headers, timeout: UPSTREAM_TIMEOUT_MS }, (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => parts.push(chunk));
        answer.on('end', () => {
          if (done) return;
          done = true;
          res.cork(() => {
            writeHead(res, answer);
            res.end(Buffer.concat(parts));
          });
        });
        // an answer cut short (the upstream went away mid-body): 'close' without 'end'
        answer.on('close', badGateway);
        answer.on('error', badGateway);
      });
    } catch {
      // a request node:http refuses to send that sendable() let through: answered, never a crash
      badGateway();
      return;
    }
    upstream.on('timeout', () => upstream!.destroy(new Error('upstream timed out')));
    upstream.on('error', badGateway);
    upstream.end(body ?? undefined);
  };
  if (method === 'GET' || method === 'HEAD') {
    forward(null);
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  res.onData((chunk, isLast) => {
    if (done) return;
    size += chunk.byteLength;
    if (size > MAX_BODY) {
      done = true;
      res.cork(() => res.writeStatus('413 Payload Too Large').end('Request body too large'));
      return;
    }
    // uWS reuses the chunk's memory after this callback: copy before keeping it.
    chunks.push(Buffer.from(chunk.slice(0)));
    if (isLast) forward(Buffer.concat(chunks));
  });
}

/** The answer's status line and headers as the upstream gave them, but for the proxy's own (HOP_BY_HOP). */
function writeHead(res: HttpResponse, answer: http.IncomingMessage): void {
  res.writeStatus(`${answer.statusCode ?? 502} ${answer.statusMessage ?? ''}`.trim());
  for (const [k, v] of Object.entries(answer.headers)) {
    if (v === undefined || HOP_BY_HOP.has(k)) continue;
    for (const value of Array.isArray(v) ? v : [v]) res.writeHeader(k, value);
  }
}

/**
 * Streams a file route's request body up (or, given a handoff, hands it over in-process and sends the headers only)
 * and its answer down, pausing whichever side is faster.
 */
function streamFiles(
  target: string,
  url: string,
  method: string,
  headers: Record<string, string>,
  res: HttpResponse,
  handoff?: BodyHandoff,
): void {
  let aborted = false;
  let answered = false;
  // The answer can end before the request body does (an upload refused early: 401, 413, 415). From then on uWS
  // throws on any use of `res` (pause/resume included), so the rest of the body is dropped without touching it.
  let finished = false;
  let paused = false; // the request body's socket, while the upstream is behind (not used for a handed-over body)
  const resumeBody = () => {
    if (paused) {
      paused = false;
      res.resume();
    }
  };
  const handed = handoff ? uwsBody(res) : null;
  const handoffId = handed ? handoff!.put(handed.body) : null;
  if (handoffId) {
    headers[BODY_HANDOFF_HEADER] = handoffId;
    headers['content-length'] = '0';
  }
  // Once answered, the route is done with a handed-over body: the rest (an early refusal's) is read and dropped,
  // and an id the route never took is dropped with it.
  const releaseBody = () => {
    if (handed) {
      handed.stop();
      handoff!.drop(handoffId!);
    }
  };
  let upstream: http.ClientRequest;
  try {
    upstream = upstreamRequest(target + url, { method, headers }, (answer) => {
      releaseBody();
      if (aborted) {
        answer.destroy();
        return;
      }
      answered = true;
      res.cork(() => writeHead(res, answer));
      answer.on('data', (chunk: Buffer) => {
        if (aborted) return;
        let ok = true;
        res.cork(() => {
          ok = res.write(chunk);
        });
        if (!ok) {
          answer.pause();
          res.onWritable(() => {
            answer.resume();
            return true;
          });
        }
      });
      answer.on('end', () => {
        if (aborted || finished) return;
        finished = true;
        // A socket left paused (the body's last bytes came in after a pause, before the drain) would stay paused for
        // the connection's next request: a keep-alive client then saw its next upload reset.
        resumeBody();
        res.cork(() => res.end());
      });
      answer.on('error', () => {
        if (!aborted) {
          aborted = true;
          res.close();
        }
      });
    });
  } catch {
    // a request node:http refuses to send that sendable() let through: answered, never a crash
    releaseBody();
    res.cork(() => res.writeStatus('502 Bad Gateway').end('Bad gateway'));
    return;
  }
  upstream.on('error', () => {
    releaseBody();
    if (aborted) return;
    aborted = true;
    if (finished) return;
    finished = true;
    if (answered) res.close();
    else res.cork(() => res.writeStatus('502 Bad Gateway').end('Bad gateway'));
  });
  res.onAborted(() => {
    aborted = true;
    upstream.destroy();
    if (handed) {
      handed.abort();
      handoff!.drop(handoffId!);
    }
  });
  if (method === 'GET' || method === 'HEAD' || handed) {
    upstream.end();
    return;
  }
  res.onData((chunk, isLast) => {
    if (aborted || finished || upstream.destroyed || upstream.writableEnded) return;
    // uWS reuses the chunk's memory after this callback: copy before handing it on.
    const ok = upstream.write(Buffer.from(chunk.slice(0)));
    if (isLast) {
      upstream.end();
      return;
    }
    if (!ok && !paused) {
      paused = true;
      res.pause();
      upstream.once('drain', () => {
        if (!aborted && !finished) resumeBody();
      });
    }
  });
}
