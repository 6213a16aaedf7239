/**
 * The admin-analytics service's HTTP surface: the two public routes (page views, the maintenance banner) and every
 * /api/admin/ route, each registered from its row of the authorization table (publicRoute; the superadmin's rows
 * need the SUPERADMIN_EMAIL account's session: superadmin.ts). Each part's routes are in its folder.
 */
import express from 'express';
import type { AdminContext } from './context.ts';
import { analyticsRouter, publicAnalyticsRouter } from './analytics/index.ts';
import { directoryRouter } from './directory/index.ts';
import { systemRouter, publicSystemRouter } from './system/index.ts';

export function adminRouter(ctx: AdminContext): express.Router {
  const r = express.Router();
  r.use(publicAnalyticsRouter(ctx)); // POST /api/admin/analytics/pageview
  r.use(publicSystemRouter(ctx)); // GET /api/maintenance
  r.use(analyticsRouter(ctx));
  r.use(directoryRouter(ctx));
  r.use(systemRouter(ctx));
  r.all(/^\/api\/admin\//, (_req, res) => {
    res.status(404).json({ success: false, code: 'VALIDATION', message: 'Unknown API route' });
  });
  return r;
}
