/**
 * Calling another service's internal route over HTTP (distributed mode). Carries the trace context and turns an
 * ErrorBody answer back into the DomainError the callee threw, so callers handle errors the same way in both modes.
 */
import { DomainError, ERRORS, type ErrorBody, type ErrorCode } from '@ephemera/proto';
import { traceHeaders } from './telemetry.ts';

export class ServiceUnavailableError extends Error {}

export function serviceClient(baseUrl: string, timeoutMs = 10_000) {
  return async function call<T>(path: string, body: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(baseUrl + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...traceHeaders() },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new ServiceUnavailableError(`${baseUrl}${path}: ${(err as Error).message}`);
    }
    const text = await res.text();
    const json = text ? JSON.parse(text) : {};
    if (!res.ok) {
      const e = json as ErrorBody;
      if (res.status >= 500 || !(e.code in ERRORS)) throw new ServiceUnavailableError(`${path} answered ${res.status}`);
      throw new DomainError(e.code as ErrorCode, e.message, res.status);
    }
    return json as T;
  };
}
