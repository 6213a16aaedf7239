/**
 * Batched internal calls (distributed mode). A gateway makes one to three internal calls per socket join and one per
 * send, typing or read mark; each was an HTTP request of its own, and the HTTP and Express work around a call (parse,
 * route, body, answer, write) cost the callee more CPU than most calls' own work: a third of the presence service's
 * busy time in a join storm (docs/decisions/2026-11-27-internal-calls-batched.md). So calls to one service that are
 * made in the same event-loop turn leave together: one POST of `{ calls: [{ path, body, trace }] }` to the owner's batch route, which
 * runs each call's handler (the very handler its own route runs) concurrently and answers
 * `{ answers: [{ status, body }] }` in order, each what the call's own route would have answered. A turn with one call
 * sends it to its own route as before, so a quiet service sees no change.
 *
 * The callee: `internalRouter(batchPath)` instead of `express.Router()`, and `internalRoute` (or `commandRoute`) to
 * add routes to it. The caller: `serviceClient(url, timeout, { batchPath })`.
 */
import express from 'express';
import { context } from '@opentelemetry/api';
import { z } from 'zod';
import type { SessionActor } from '@ephemera/proto';
import { actorOf, errorBody, parseOrThrow, route } from './http.ts';
import { BATCH_MAX_CALLS } from './service-client.ts';
import { contextFrom, inSpan, SpanKind } from './telemetry.ts';
import { countedPerCall, observeHttpRequest } from './metrics-http.ts';
import type { Logger } from './log.ts';

type Handler = (body: unknown) => Promise<unknown>;

/** An Express router whose POST routes can also be called through its batch route. */
export type InternalRouter = express.Router & { readonly internalHandlers: Map<string, Handler> };

const BatchSchema = z.object({
  calls: z
    .array(
      z.object({
        path: z.string().max(200),
        body: z.unknown(),
        trace: z.record(z.string(), z.string()).optional(),
      }),
    )
    .min(1)
    .max(BATCH_MAX_CALLS),
});

export interface BatchAnswer {
  status: number;
  body: unknown;
}

/** A router with a batch route at `batchPath`; a failed call answers what the service's error handler would. */
export function internalRouter(batchPath: string, logger?: Logger): InternalRouter {
  const router = express.Router() as InternalRouter;
  const handlers = new Map<string, Handler>();
  Object.defineProperty(router, 'internalHandlers', { value: handlers });
  router.post(batchPath, (req, res, next) => {
    const parsed = BatchSchema.safeParse(req.body);
    if (!parsed.success) {
      res.status(400).json({ success: false, code: 'VALIDATION', message: 'Malformed batch' });
      return;
    }
    // Each call is timed and counted as a request of its own route, as it would be alone (its handler's time, without
    // the batch's parse and write), and the batch itself is not: it answers 200 whatever its calls answered, so the
    // alerts' error rate and p99 (http_request_duration_seconds) would not see a call that failed or was slow.
    countedPerCall(res);
    Promise.all(
      parsed.data.calls.map(async (call): Promise<BatchAnswer> => {
        const started = performance.now();
        const handler = handlers.get(call.path);
        const answer = await answerCall(call, handler, logger);
        observeHttpRequest(
          'POST',
          handler ? call.path : 'unmatched',
          answer.status,
          (performance.now() - started) / 1000,
        );
        return answer;
      }),
    ).then((answers) => {
      res.json({ answers });
    }, next);
  });
  return router;
}

async function answerCall(
  call: { path: string; body?: unknown; trace?: Record<string, string> },
  handler: Handler | undefined,
  logger?: Logger,
): Promise<BatchAnswer> {
  // as a missing route answers alone: no error code, so the caller gets "unavailable"
  if (!handler) return { status: 404, body: { success: false, message: `no batched route ${call.path}` } };
  const ctx = contextFrom(call.trace ?? {});
  try {
    const result = await context.with(ctx, () =>
      inSpan(`POST ${call.path}`, SpanKind.SERVER, () => handler(call.body), ctx),
    );
    return { status: 200, body: result ?? {} };
  } catch (err) {
    const answer = errorBody(err);
    if (answer.status >= 500) logger?.error({ err, path: call.path }, 'batched call failed');
    return answer;
  }
}

/** POST `path` on the router (its JSON body -> the handler's answer), and through its batch route when it has one. */
export function internalRoute(router: express.Router, path: string, handler: Handler): void {
  router.post(
    path,
    route(async (req, res) => {
      res.json((await handler(req.body)) ?? {});
    }),
  );
  (router as { internalHandlers?: Map<string, Handler> }).internalHandlers?.set(path, handler);
}

/**
 * An internal command route: POST { actor, input } -> the service method's answer. The actor is the gateway's
 * authenticated session; the input is parsed by the same proto schema the gateway parsed the socket payload with.
 */
export function commandRoute<S extends z.ZodTypeAny>(
  router: express.Router,
  path: string,
  schema: S,
  run: (actor: SessionActor, input: z.output<S>) => Promise<unknown>,
): void {
  internalRoute(router, path, (body) =>
    run(actorOf(body), parseOrThrow(schema, (body as { input?: unknown } | null)?.input)),
  );
}
