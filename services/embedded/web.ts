/**
 * Embedded mode's one express app behind the gateway: the ops routes, the guards every public app has, and each
 * module's public routers in the order their paths need, then the frontend. Modules call each other by method here,
 * so no internal route exists. Apart from the wiring of the modules (app.ts), which hands the modules in.
 */
import express from 'express';
import {
  errorHandler,
  frontendStatic,
  noStore,
  opsRoutes,
  securityHeaders,
  refuseControlCharacterPaths,
  httpMetrics,
  maintenanceGuard,
  BodyHandoff,
  refuseInternalPaths,
  assertRoutesFromTable,
  type Logger,
  type MaintenanceState,
  type RateLimits,
} from '@ephemera/platform';
import { publicRoomRouter, accountRoomRouter, type startRoomModule } from '@ephemera/room';
import { publicBillingRouter, paymentsRouter, paymentWebhookRouter, type startBillingModule } from '@ephemera/billing';
import {
  publicMessagingRouter,
  fileRouter,
  type linkPreviewServiceFromEnv,
  type startMessagingModule,
} from '@ephemera/messaging';
import { adminRouter, type AdminModule } from '@ephemera/admin-analytics';

export interface EmbeddedWebDeps {
  room: Awaited<ReturnType<typeof startRoomModule>>;
  billing: Awaited<ReturnType<typeof startBillingModule>>;
  messaging: Awaited<ReturnType<typeof startMessagingModule>>;
  admin: AdminModule;
  linkPreviews: ReturnType<typeof linkPreviewServiceFromEnv>;
  limits: RateLimits;
  maintenance: MaintenanceState;
  ready: () => Promise<boolean>;
  logger: Logger;
  frontendDist: string;
}

/** The app, and the hand-off by which the gateway gives uploads' bodies to its file routes in-process. */
export function embeddedWeb(deps: EmbeddedWebDeps): { web: express.Express; bodyHandoff: BodyHandoff } {
  const { room, billing, messaging, admin, linkPreviews, limits, maintenance, ready, logger } = deps;
  const web = express();
  web.disable('x-powered-by');
  web.set('trust proxy', 'loopback'); // only the gateway in front of us
  web.use(httpMetrics()); // first, so every answer is timed (http_request_duration_seconds)
  web.use(securityHeaders());
  web.use(opsRoutes(ready, logger));
  // Modules call each other by method here: no internal route exists, and no spelling of one reaches a page either.
  web.use(refuseInternalPaths());
  web.use(refuseControlCharacterPaths()); // a name or id never holds one: 400 before any route
  web.use(paymentWebhookRouter(billing.payments.provider, billing.payments.outcomes)); // raw body: before the JSON parser
  web.use('/api', noStore(), express.json({ limit: '64kb' }));
  web.use(maintenanceGuard(maintenance)); // writes under /api/ refused while maintenance is on
  web.use(accountRoomRouter(room.service, billing.service, limits)); // before the room router: same paths
  web.use(publicRoomRouter(room.service, limits));
  web.use(paymentsRouter(billing.service, billing.payments.service));
  web.use(publicBillingRouter(billing.service, billing.google, limits));
  web.use(
    publicMessagingRouter({
      // POST /api/link-preview/fetch, GET /api/link-preview/image
      tokens: room.service,
      linkPreview: linkPreviews, // whose a bearer token is: the room service's one check
      limit: (key) => limits.consume('linkPreviewsPerUser', key),
      imageLimit: (key) => limits.consume('linkPreviewImagesPerAddress', key),
    }),
  );
  web.use(adminRouter(admin.context)); // /api/admin/ (superadmin), page views, the maintenance banner
  // Uploads' bodies come from the gateway in-process (bodyHandoff); the loopback request carries their headers only.
  const bodyHandoff = new BodyHandoff();
  if (messaging.files)
    web.use(
      fileRouter({
        tokens: room.service,
        files: messaging.files,
        limit: (key) => limits.consume('uploadsPerUser', key),
        bodyHandoff,
      }),
    );
  web.use('/api', (_req, res) => {
    res.status(404).json({ success: false, code: 'VALIDATION', message: 'Unknown API route' });
  });
  // Metrics have their own listener (METRICS_PORT); the public port never serves them ('metrics' is a reserved name).
  web.all('/metrics', (_req, res) => {
    res.status(404).json({ success: false, code: 'VALIDATION', message: 'Not found' });
  });
  web.use(frontendStatic(deps.frontendDist));
  web.use(errorHandler(logger));
  assertRoutesFromTable(web); // a public route without its authorization row is never served
  return { web, bodyHandoff };
}
