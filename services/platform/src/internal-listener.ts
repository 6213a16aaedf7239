/**
 * A service's internal listener (distributed mode): its /internal routes on a port of their own (INTERNAL_PORT),
 * never on the public port, so no ingress or forwarder that reaches the public port can reach them. Every request
 * but /healthz must carry a valid service credential (service-credential.ts): a missing, malformed, wrong or
 * expired one is answered 401 before any route runs, so a refused call changes nothing. The NetworkPolicies admit
 * to this port only the services that call it (docs/security.md).
 */
import express, { type Request, type Response, type NextFunction } from 'express';
import { BACKUP_INTERNAL_ROOT } from '@ephemera/proto';
import { errorHandler } from './http.ts';
import { httpMetrics } from './metrics-http.ts';
import type { Logger } from './log.ts';
import { SERVICE_CREDENTIAL_HEADER, verifyServiceRequest } from './service-credential.ts';

/**
 * The largest body of a backup import call: one row as large as PostgreSQL holds it in the backed-up tables, with
 * room to spare (a sealed message or profile is a few kB; the file itself is bounded by ADMIN_BACKUP_MAX_BYTES).
 */
const BACKUP_IMPORT_BODY_LIMIT = '16mb';

export interface InternalListenerOptions {
  /** INTERNAL_PORT (0: any free port) and its address (the pod's in a cluster) */
  port: number;
  host?: string;
  /** SERVICE_SECRET's bytes: what callers sign with */
  secret: Buffer;
  routers: express.Router[];
}

/** The express app of the internal listener; serveHttp listens with it. */
export function internalApp(opts: InternalListenerOptions & { logger: Logger; jsonLimit: string }): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.use(httpMetrics());
  // Unsigned: a probe or a start script asks whether the listener is up; it says nothing else.
  app.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });
  // The raw bytes first: the signature covers them exactly as they were sent. A backup import sends one row alone
  // when it is larger than a batch (backup-part.ts importBatches): its routes take rows up to BACKUP_IMPORT_BODY_LIMIT.
  app.use(BACKUP_INTERNAL_ROOT, express.raw({ type: () => true, limit: BACKUP_IMPORT_BODY_LIMIT }));
  app.use(express.raw({ type: () => true, limit: opts.jsonLimit }));
  app.use(verifyCredential(opts.secret, opts.logger));
  app.use(parseJson);
  for (const r of opts.routers) app.use(r);
  app.use((_req, res) => {
    res.status(404).json({ success: false, message: 'No such internal route' });
  });
  app.use(errorHandler(opts.logger));
  return app;
}

/**
 * 401 unless the request is signed under `secret`. The answer names no error code on purpose: a caller with a
 * wrong secret then reports the callee "unavailable" (service-client.ts) rather than passing a 401 on to a user.
 */
function verifyCredential(secret: Buffer, logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const check = verifyServiceRequest(
      secret,
      req.headers[SERVICE_CREDENTIAL_HEADER],
      req.method,
      req.originalUrl,
      body,
    );
    if (check.ok) {
      res.locals.serviceCaller = check.caller;
      next();
      return;
    }
    logger.warn(
      { path: req.path, reason: check.reason, peer: req.socket.remoteAddress },
      'internal call refused: service credential',
    );
    res.status(401).json({ success: false, message: `Service credential ${check.reason}` });
  };
}

/** The verified bytes as JSON (an empty body is `{}`), as express.json would have parsed them. */
function parseJson(req: Request, res: Response, next: NextFunction): void {
  const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  if (raw.length === 0) {
    req.body = {};
    next();
    return;
  }
  try {
    req.body = JSON.parse(raw.toString('utf8'));
    next();
  } catch {
    res.status(400).json({ success: false, code: 'VALIDATION', message: 'Malformed JSON body' });
  }
}
