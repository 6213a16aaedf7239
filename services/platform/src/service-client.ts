/**
 * Calling another service's internal route over HTTP (distributed mode). Carries the trace context and turns an
 * ErrorBody answer back into the DomainError the callee threw, so callers handle errors the same way in both modes.
 *
 * Requests go through one undici Pool per service (kept-alive connections), not the global fetch: fetch's WHATWG
 * streams, Request/Response objects and AbortSignal cost about 0.7 ms of CPU per call here, more than the callee's
 * whole work for most internal routes, and every socket join and send makes one to three of these calls
 * (load-tests/README.md, "W3 distributed against B1").
 */
import { Pool } from 'undici';
import { DomainError, ERRORS, type ErrorBody, type ErrorCode } from '@ephemera/proto';
import { traceHeaders } from './telemetry.ts';

export class ServiceUnavailableError extends Error {}

/** One pool per origin for the whole process: services calling the same peer share its connections. */
const pools = new Map<string, Pool>();

function poolFor(origin: string): Pool {
  let pool = pools.get(origin);
  if (!pool) {
    // Enough connections for a gateway's bursts of joins; idle ones close after the keep-alive timeout.
    pool = new Pool(origin, { connections: 64, keepAliveTimeout: 30_000, connectTimeout: 5_000 });
    pools.set(origin, pool);
  }
  return pool;
}

export function serviceClient(baseUrl: string, timeoutMs = 10_000) {
  const url = new URL(baseUrl);
  const prefix = url.pathname.replace(/\/$/, '');
  const pool = poolFor(url.origin);
  return async function call<T>(path: string, body: unknown): Promise<T> {
    let status: number;
    let text: string;
    try {
      const res = await pool.request({
        path: prefix + path,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...traceHeaders() },
        body: JSON.stringify(body),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      status = res.statusCode;
      text = await res.body.text();
    } catch (err) {
      throw new ServiceUnavailableError(`${baseUrl}${path}: ${(err as Error).message}`);
    }
    let json: unknown = {};
    try { json = text ? JSON.parse(text) : {}; } catch { throw new ServiceUnavailableError(`${path} answered ${status} with a body that is not JSON`); }
    if (status < 200 || status >= 300) {
      const e = json as ErrorBody;
      if (status >= 500 || typeof e?.code !== 'string' || !(e.code in ERRORS)) throw new ServiceUnavailableError(`${path} answered ${status}`);
      throw new DomainError(e.code as ErrorCode, e.message, status);
    }
    return json as T;
  };
}

/** Closes every pool (tests; a stopping service exits without it). Calls made afterwards open new ones. */
export async function closeServiceClients(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((p) => p.close().catch(() => {})));
}
