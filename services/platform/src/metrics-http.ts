/**
 * The request-latency histogram every HTTP server exports (alerts: p99 latency and 5xx error rate per service).
 * Labels are bounded on purpose: the method, the route *pattern* (`/internal/rooms/:id`, never the id itself)
 * and the status class (2xx..5xx). A request no route matched is `unmatched`, so a scanner probing random paths
 * cannot grow the series count.
 */
import type { RequestHandler, Response } from 'express';
import client from 'prom-client';

export const httpRequestDuration = new client.Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request latency by method, route pattern and status class',
  labelNames: ['method', 'route', 'status_class'] as const,
  // Chat commands answer in milliseconds; the alert's threshold (p99 > 0.5 s) sits between two buckets.
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
});

/**
 * Buckets of the chat's own latencies (a socket command's answer, a send's stages): fine around the
 * send-to-ack targets of docs/product/performance.md PF10 (5 ms embedded, 20 ms distributed), so their p99 reads off
 * the histogram without guessing.
 */
export const COMMAND_LATENCY_BUCKETS = [
  0.001, 0.0025, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.03, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5,
];

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** A method label from a fixed set (anything else is OTHER). */
export function methodLabel(method: string): string {
  const m = method.toUpperCase();
  return METHODS.has(m) ? m : 'OTHER';
}

export function statusClass(status: number): string {
  return status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : 'other';
}

/** Record one request that took `seconds`. */
export function observeHttpRequest(method: string, route: string, status: number, seconds: number): void {
  httpRequestDuration.observe({ method: methodLabel(method), route, status_class: statusClass(status) }, seconds);
}

const COUNTED_PER_CALL = Symbol('http metrics: counted per call');

/**
 * This response's request carries calls that are each observed as a request of their own route (a batch of internal
 * calls, internal-routes.ts): the middleware does not count the carrier too.
 */
export function countedPerCall(res: Response): void {
  (res.locals as Record<symbol, unknown>)[COUNTED_PER_CALL] = true;
}

/**
 * Express middleware, mounted first: times each request until its response is written. The route label is the
 * pattern of the route that answered (req.route stays set after routing; our routers are mounted at the root, so
 * its path is the whole pattern); static files and 404s are `unmatched`.
 */
export function httpMetrics(): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      if ((res.locals as Record<symbol, unknown>)[COUNTED_PER_CALL]) return;
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      observeHttpRequest(req.method, routeOf(req.route?.path), res.statusCode, seconds);
    });
    next();
  };
}

function routeOf(path: unknown): string {
  if (typeof path === 'string') return path;
  if (path instanceof RegExp) return path.source;
  return 'unmatched';
}
