/**
 * The analytics part's /api/admin/ routes (mounted after the superadmin check): the Dashboard and Analytics tabs'
 * figures, the historical revenue filter, Reset Revenue (audited) and the analytics JSON export (audited).
 */
import express from 'express';
import { DomainError, HTTP_ROUTES } from '@ephemera/proto';
import { route } from '@ephemera/platform';
import type { AdminContext } from '../context.ts';
import { adminOf } from '../superadmin.ts';
import { dayOf } from './days.ts';
import { analyticsReport, dashboardAnalytics } from './report.ts';
import { customRevenue, paymentsBefore } from './revenue.ts';
import { ReadinessSamples } from './system-metrics.ts';

/** the export kinds of GET /api/admin/export/{kind}: 'users' is the directory part's (mounted after this router) */
const EXPORT_KINDS = new Set(['users', 'analytics']);

export function analyticsRouter(ctx: AdminContext): express.Router {
  const r = express.Router();
  const readiness = new ReadinessSamples(ctx.pool, { targets: ctx.healthTargets, logger: ctx.logger });

  r.get(HTTP_ROUTES.adminDashboard.path, route(async (_req, res) => { res.json(await dashboardAnalytics(ctx, readiness)); }));
  r.get(HTTP_ROUTES.adminReport.path, route(async (_req, res) => { res.json(await analyticsReport(ctx, readiness)); }));
  r.get(HTTP_ROUTES.adminCustomRevenue.path, route(async (req, res) => { res.json(await customRevenue(ctx.pool, req.query)); }));

  // Reset Revenue: every payment recorded before now stops counting (admin.revenue-reset), then the audit entry.
  r.post(HTTP_ROUTES.adminResetRevenue.path, route(async (_req, res) => {
    const before = ctx.now().toISOString();
    const deletedRecords = await paymentsBefore(ctx.pool, before);
    await ctx.events.record('admin.revenue-reset', { before, deletedRecords });
    await ctx.events.audit(adminOf(res), 'revenue.reset', null, null, { deletedRecords, before });
    res.json({ success: true, deletedRecords });
  }));

  // Export Analytics: the report as a JSON download named analytics-export-{YYYY-MM-DD}.json.
  const exportAnalytics = route(async (_req, res) => {
    const report = await analyticsReport(ctx, readiness);
    await ctx.events.audit(adminOf(res), 'export.downloaded', 'analytics');
    res.set('Content-Disposition', `attachment; filename="analytics-export-${dayOf(ctx.now())}.json"`);
    res.type('application/json').send(JSON.stringify(report, null, 2));
  });
  r.get(HTTP_ROUTES.adminExport.path, (req, res, next) => {
    const kind = String(req.params.kind);
    if (kind === 'analytics') return exportAnalytics(req, res, next);
    if (EXPORT_KINDS.has(kind)) return next(); // users: the directory router's
    return next(new DomainError('VALIDATION', 'Export kind must be users or analytics'));
  });
  return r;
}
