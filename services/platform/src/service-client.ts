/**
 * Calling another service's internal route over HTTP (distributed mode). Signs every request with the caller's
 * service credential (service-credential.ts), carries the trace context and turns an ErrorBody answer back into the
 * DomainError the callee threw, so callers handle errors the same way in both modes.
 *
 * Requests go through one undici Pool per service (kept-alive connections), not the global fetch: fetch's WHATWG
 * streams, Request/Response objects and AbortSignal cost about 0.7 ms of CPU per call here, more than the callee's
 * whole work for most internal routes, and every socket join and send makes one to three of these calls
 * (docs/decisions/2026-11-26-distributed-w3-costs.md).
 */
import { Pool } from 'undici';
import { DomainError, ERRORS, type ErrorBody, type ErrorCode } from '@ephemera/proto';
import { traceHeaders } from './telemetry.ts';
import { SERVICE_CREDENTIAL_HEADER, signServiceRequest, type ServiceCredential } from './service-credential.ts';

/** Calls in one batch at most (internal-routes.ts), and their JSON bodies' total size (the services' JSON limit is 64 KB). */
export const BATCH_MAX_CALLS = 64;
export const BATCH_MAX_BYTES = 48 * 1024;

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

export interface ServiceClientOptions {
  /**
   * The callee's batch route (internal-routes.ts): calls made in the same event-loop turn leave as one request.
   * Without it every call is a request of its own.
   */
  batchPath?: string;
}

export type ServiceCall = <T>(path: string, body: unknown) => Promise<T>;

interface Queued {
  path: string;
  json: string;
  trace: Record<string, string>;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

/** One request to another service's internal listener, signed with `credential`: its status and parsed JSON body. */
export type SignedRequest = (
  method: 'GET' | 'POST',
  path: string,
  json?: string,
  headers?: Record<string, string>,
) => Promise<{ status: number; json: unknown }>;

/**
 * Signed requests to the internal listener at `baseUrl` (its path a prefix of every request's); a request that gets
 * no usable answer (no connection, a timeout, a body that is not JSON) throws ServiceUnavailableError.
 */
export function signedRequests(baseUrl: string, credential: ServiceCredential, timeoutMs = 10_000): SignedRequest {
  const url = new URL(baseUrl);
  const prefix = url.pathname.replace(/\/$/, '');
  const pool = poolFor(url.origin);
  return async (method, path, json, headers = {}) => {
    let status: number;
    let text: string;
    const target = prefix + path;
    try {
      const res = await pool.request({
        path: target,
        method,
        headers: {
          ...(json === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
          [SERVICE_CREDENTIAL_HEADER]: signServiceRequest(credential, method, target, json ?? ''),
        },
        body: json,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      status = res.statusCode;
      text = await res.body.text();
    } catch (err) {
      throw new ServiceUnavailableError(`${baseUrl}${path}: ${(err as Error).message}`);
    }
    try {
      return { status, json: text ? JSON.parse(text) : {} };
    } catch {
      throw new ServiceUnavailableError(`${path} answered ${status} with a body that is not JSON`);
    }
  };
}

/** Internal calls (POST, JSON both ways) to the service at `baseUrl`, each signed with `credential`. */
export function serviceClient(
  baseUrl: string,
  credential: ServiceCredential,
  timeoutMs = 10_000,
  options: ServiceClientOptions = {},
): ServiceCall {
  const request = signedRequests(baseUrl, credential, timeoutMs);
  const post = (path: string, json: string, trace: Record<string, string>) => request('POST', path, json, trace);

  /** A call's answer as its route gave it: the body, or the DomainError the callee threw. */
  function settle(path: string, status: number, json: unknown): unknown {
    if (status < 200 || status >= 300) {
      const e = json as ErrorBody;
      if (status >= 500 || typeof e?.code !== 'string' || !(e.code in ERRORS))
        throw new ServiceUnavailableError(`${path} answered ${status}`);
      throw new DomainError(e.code as ErrorCode, e.message, status);
    }
    return json;
  }

  const one = async (path: string, json: string, trace: Record<string, string>) => {
    const answer = await post(path, json, trace);
    return settle(path, answer.status, answer.json);
  };

  const batchPath = options.batchPath;
  if (!batchPath)
    return <T>(path: string, body: unknown) => one(path, JSON.stringify(body), traceHeaders()) as Promise<T>;

  let queue: Queued[] = [];
  const flush = () => {
    const calls = queue;
    queue = [];
    for (let i = 0; i < calls.length;) {
      // as many as fit in one batch
      let bytes = 0;
      let j = i;
      while (
        j < calls.length &&
        j - i < BATCH_MAX_CALLS &&
        (j === i || bytes + calls[j].json.length <= BATCH_MAX_BYTES)
      )
        bytes += calls[j++].json.length;
      const chunk = calls.slice(i, j);
      i = j;
      if (chunk.length === 1) {
        const [c] = chunk;
        one(c.path, c.json, c.trace).then(c.resolve, c.reject);
        continue;
      }
      // the bodies are JSON already: spliced in, not parsed and stringified again
      const json = `{"calls":[${chunk.map((c) => `{"path":${JSON.stringify(c.path)},"trace":${JSON.stringify(c.trace)},"body":${c.json}}`).join(',')}]}`;
      post(batchPath, json, {})
        .then(({ status, json: answer }) => {
          const answers = (answer as { answers?: { status: number; body: unknown }[] }).answers;
          if (status !== 200 || !Array.isArray(answers) || answers.length !== chunk.length) {
            throw new ServiceUnavailableError(`${batchPath} answered ${status}`);
          }
          chunk.forEach((c, k) => {
            try {
              c.resolve(settle(c.path, answers[k].status, answers[k].body));
            } catch (err) {
              c.reject(err);
            }
          });
        })
        .catch((err) => {
          for (const c of chunk) c.reject(err);
        });
    }
  };
  return <T>(path: string, body: unknown) =>
    new Promise<T>((resolve, reject) => {
      if (queue.length === 0) setImmediate(flush);
      queue.push({
        path,
        json: JSON.stringify(body),
        trace: traceHeaders(),
        resolve: resolve as (v: unknown) => void,
        reject,
      });
    });
}

/** Closes every pool (tests; a stopping service exits without it). Calls made afterwards open new ones. */
export async function closeServiceClients(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((p) => p.close().catch(() => {})));
}
