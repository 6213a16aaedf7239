/**
 * The node adapter's HTTP forwarder (uws-proxy.ts is the uWS adapter's; both pass the engine contract suite):
 * every request that is not Socket.IO's or a health probe goes to the upstream, the answer comes back as it is.
 * Bodies stream both ways with Node's backpressure; outside the file and backup routes a body is capped at MAX_BODY.
 * Given a BodyHandoff (embedded), an upload's body is handed to the file route in-process and only the request's
 * line and headers make the loopback hop. A client that goes away ends the upstream request (a queued password
 * try, an upload), as with the uWS adapter.
 */
import http from 'node:http';
import { BODY_HANDOFF_HEADER, forwardablePath, type BodyHandoff } from '@ephemera/platform';
import { HOP_BY_HOP, MAX_BODY, isStreamedRoute, isUpload, upstreamRequest } from './forwarding.ts';
import { HandedBody } from './handed-body.ts';

export function nodeProxy(
  target: string,
  addressOf: (peer: string, headers: Record<string, string>) => string,
  handoff?: BodyHandoff,
) {
  return (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const method = (req.method ?? 'GET').toUpperCase();
    // What is checked is what is sent: refused (404) when the target, or any decoding of it, names a
    // service-to-service route (/internal/...), which no public port serves anyway.
    const url = forwardablePath(req.url ?? '/');
    if (url === null) {
      res.writeHead(404).end('Not found');
      return;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    headers['x-forwarded-for'] = addressOf(req.socket.remoteAddress ?? '', headers);
    const streamed = isStreamedRoute(url);
    const declared = req.headers['content-length'] === undefined ? null : Number(req.headers['content-length']);
    if (!streamed && declared !== null && declared > MAX_BODY) {
      refuseTooLarge(req, res);
      return;
    }
    const hasBody = declared !== null ? declared > 0 : req.headers['transfer-encoding'] !== undefined;
    const handed = hasBody && handoff && isUpload(method, url) ? handedBody(req) : null;
    const handoffId = handed ? handoff!.put(handed.body) : null;
    if (handoffId) {
      headers[BODY_HANDOFF_HEADER] = handoffId;
      headers['content-length'] = '0';
    } else if (declared !== null) headers['content-length'] = String(declared);
    else if (hasBody) headers['transfer-encoding'] = 'chunked';
    // Once answered, the route is done with a handed-over body: the rest (an early refusal's) is read and dropped.
    const releaseBody = () => {
      if (handed) {
        handed.stop();
        handoff!.drop(handoffId!);
      }
    };

    const upstream = upstreamRequest(target + url, { method, headers }, (answer) => {
      releaseBody();
      if (res.destroyed) {
        answer.destroy();
        return;
      }
      const out: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(answer.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
      if (answer.headers['content-length'] !== undefined) out['content-length'] = answer.headers['content-length'];
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, out);
      answer.pipe(res, { end: false });
      answer.on('end', () => endAfterRequest(req, res));
      answer.on('error', () => res.destroy());
    });
    // Set once a body over MAX_BODY was refused: the upstream request ended then, and its error is not the answer.
    let refused = false;
    upstream.on('error', () => {
      releaseBody();
      if (refused) return;
      if (res.headersSent) res.destroy();
      else if (!res.destroyed) res.writeHead(502).end('Bad gateway');
    });
    // A client gone before its answer is a request the upstream need not finish.
    res.on('close', () => {
      if (res.writableFinished) return;
      upstream.destroy();
      if (handed) {
        handed.abort();
        handoff!.drop(handoffId!);
      }
    });
    if (!hasBody || handed) {
      upstream.end();
      return;
    }
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (streamed || refused || size <= MAX_BODY) return;
      refused = true;
      req.unpipe(upstream);
      upstream.destroy();
      refuseTooLarge(req, res);
    });
    req.pipe(upstream);
  };
}

function refuseTooLarge(req: http.IncomingMessage, res: http.ServerResponse): void {
  if (res.headersSent) return;
  res.writeHead(413);
  res.write('Request body too large');
  endAfterRequest(req, res);
}

/**
 * An answer that comes before the request's body is in (a refusal: 401, 413, 415) is ended only once the rest of the
 * body has been read and dropped, as the uWS adapter does: Node closes a connection that is not kept alive as soon as
 * the answer ends, and a client still sending then sees its write fail (EPIPE) instead of the answer.
 */
function endAfterRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
  if (req.complete || req.destroyed) {
    res.end();
    return;
  }
  const end = () => {
    if (!res.writableEnded) res.end();
  };
  req.once('end', end);
  req.once('close', end);
  req.resume();
}

/** A request's body for the handoff (handed-body.ts): Node's request is paused while the route is behind. */
function handedBody(req: http.IncomingMessage): HandedBody {
  const handed = new HandedBody(req);
  req.on('data', (chunk: Buffer) => handed.push([chunk], false));
  req.on('end', () => handed.push([], true));
  return handed;
}
