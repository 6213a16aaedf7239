/**
 * Express helpers shared by the services: body validation with the proto schemas, one error handler that turns
 * DomainError into the ErrorBody shape, liveness/readiness and Prometheus metrics endpoints, and trace context
 * extraction for incoming requests.
 */
import express, { type Request, type Response, type NextFunction, type RequestHandler } from 'express';
import { context } from '@opentelemetry/api';
import client from 'prom-client';
import { z } from 'zod';
import { DomainError, ERRORS, SessionActorSchema, type ErrorBody, type SessionActor } from '@ephemera/proto';
import { contextFrom, inSpan, SpanKind } from './telemetry.ts';
import { ServiceUnavailableError } from './service-client.ts';
import type { Logger } from './log.ts';
import { RateLimitedError, type LimitName, type RateLimits } from './rate-limit.ts';

export function parseOrThrow<S extends z.ZodTypeAny>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

/** The actor of an internal command body ({ actor, input }), set by the gateway from its authenticated session. */
export function actorOf(body: unknown): SessionActor {
  return parseOrThrow(SessionActorSchema, (body as { actor?: unknown } | null)?.actor);
}

export function validationError(error: z.ZodError): DomainError & { issues: ErrorBody['issues'] } {
  const issues = error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  // The first issue's message is the user-facing text (the schemas carry the spec's wording).
  const err = new DomainError('VALIDATION', issues[0]?.message ?? ERRORS.VALIDATION) as DomainError & {
    issues: ErrorBody['issues'];
  };
  err.issues = issues;
  return err;
}

export function errorBody(err: unknown): { status: number; body: ErrorBody } {
  if (err instanceof DomainError) {
    const body = err.toBody();
    const issues = (err as { issues?: ErrorBody['issues'] }).issues;
    return { status: err.status, body: issues ? { ...body, issues } : body };
  }
  if (err instanceof ServiceUnavailableError)
    return { status: 503, body: { success: false, code: 'UNAVAILABLE', message: ERRORS.UNAVAILABLE } };
  return { status: 500, body: { success: false, code: 'INTERNAL', message: ERRORS.INTERNAL } };
}

/** Wrap an async route so a thrown error reaches the error handler (and runs inside the caller's trace). */
export const route =
  (fn: (req: Request, res: Response) => Promise<unknown>): RequestHandler =>
  (req, res, next) => {
    const ctx = contextFrom(req.headers as Record<string, string>);
    const name = `${req.method} ${req.route?.path ?? req.path}`;
    context.with(ctx, () => inSpan(name, SpanKind.SERVER, () => fn(req, res), ctx)).catch(next);
  };

export function errorHandler(log: Logger) {
  return (err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    // express.json() raises SyntaxError / 413 for bad bodies: they are the client's fault, not ours.
    const e = err as { type?: string; status?: number };
    if (e?.type === 'entity.parse.failed')
      return res.status(400).json({ success: false, code: 'VALIDATION', message: 'Malformed JSON body' });
    if (e?.type === 'entity.too.large')
      return res.status(413).json({ success: false, code: 'VALIDATION', message: 'Request body too large' });
    // A malformed percent-encoding in a path parameter (express decodes them with decodeURIComponent).
    if (err instanceof URIError || (e?.status === 400 && !(err instanceof DomainError))) {
      return res.status(400).json({ success: false, code: 'VALIDATION', message: 'Malformed request' });
    }
    const { status, body } = errorBody(err);
    if (err instanceof RateLimitedError) res.set('Retry-After', String(err.retryAfterSec));
    // Maintenance refusals are the superadmin's decision, not a failure: not logged as errors.
    if (status >= 500 && !(err instanceof DomainError && err.code === 'MAINTENANCE'))
      log.error({ err }, 'request failed');
    res.status(status).json(body);
  };
}

/** Take one point of a limit per request, keyed by the client address (req.ip, with the app's trust proxy). */
export function rateLimited(
  limits: RateLimits,
  name: LimitName,
  keyOf: (req: Request) => string = (req) => req.ip ?? 'unknown',
): RequestHandler {
  return (req, _res, next) => {
    limits.consume(name, keyOf(req)).then(() => next(), next);
  };
}

/**
 * /healthz (alive) and /readyz (dependencies reachable). /metrics is on its own listener (metrics-server.ts).
 * A change of readiness is logged once, with the reason when it is lost: the probe's answer says only "not ready"
 * (it is no place for internal errors), and the operator reading the logs needs to know what is missing. Probes
 * come every few seconds, so an unchanged state is not logged again.
 */
export function opsRoutes(ready: () => Promise<boolean>, logger?: Logger): express.Router {
  const router = express.Router();
  let lastKind: string | null = null; // null: ready
  router.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });
  router.get(
    '/readyz',
    route(async (_req, res) => {
      let reason = 'a dependency is not ready';
      const ok = await ready().catch((err: unknown) => {
        reason = err instanceof Error ? err.message : String(err);
        return false;
      });
      // Logged again when the kind of failure changes (refused, then timing out...), not when only its figures do.
      const kind = ok ? null : reason.replace(/\d+/g, '#');
      if (kind !== lastKind) {
        if (ok) logger?.info('ready again');
        else logger?.warn({ reason }, 'not ready');
        lastKind = kind;
      }
      res.status(ok ? 200 : 503).json({ ok });
    }),
  );
  return router;
}

let defaultMetricsStarted = false;
export function startDefaultMetrics(service: string): void {
  if (defaultMetricsStarted) return;
  defaultMetricsStarted = true;
  client.register.setDefaultLabels({ service });
  // The event-loop delay histogram samples every 10 ms by default: 100 wakeups a second, about 0.5 % of a core in
  // an idle process (half the idle budget). Sampled every 100 ms it costs ~0.04 % and still shows a stalled loop
  // (the alert's threshold is 100 ms).
  client.collectDefaultMetrics({ eventLoopMonitoringPrecision: 100 });
}

export { client as metrics };
