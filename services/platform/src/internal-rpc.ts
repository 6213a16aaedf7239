/**
 * A port between services as internal routes, one per method: POST {prefix}/{method} with the method's one
 * argument as the JSON body, answered { result }. The callee mounts internalRpcRouter(impl); the caller (distributed
 * mode) uses internalRpcClient, which has the port's type; embedded mode passes the implementation itself. Errors
 * come back as the DomainError the callee threw (serviceClient). The routes are served on the callee's internal
 * listener only, behind the service credential (internal-listener.ts).
 */
import express from 'express';
import { route } from './http.ts';
import { serviceClient } from './service-client.ts';
import type { ServiceCredential } from './service-credential.ts';

type Port = { [K: string]: (input: never) => Promise<unknown> };

export function internalRpcRouter<T extends object>(
  prefix: string,
  impl: T,
  methods: readonly (keyof T & string)[],
): express.Router {
  const r = express.Router();
  for (const method of methods) {
    const fn = (impl as unknown as Port)[method];
    r.post(
      `${prefix}/${method}`,
      route(async (req, res) => {
        res.json({ result: (await fn.call(impl, req.body as never)) ?? null });
      }),
    );
  }
  return r;
}

export function internalRpcClient<T extends object>(
  baseUrl: string,
  credential: ServiceCredential,
  prefix: string,
  methods: readonly (keyof T & string)[],
  timeoutMs?: number,
): T {
  const call = serviceClient(baseUrl, credential, timeoutMs);
  const client: Record<string, (input: unknown) => Promise<unknown>> = {};
  for (const method of methods)
    client[method] = async (input) => (await call<{ result: unknown }>(`${prefix}/${method}`, input ?? {})).result;
  return client as unknown as T;
}
