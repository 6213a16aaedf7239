/**
 * The analytics part's /api/admin/ routes (mounted after the superadmin check): the Dashboard and Analytics tabs'
 * figures, the historical revenue filter, Reset Revenue (audited) and the analytics JSON export (audited).
 */
import express from 'express';
import type { AdminContext } from '../context.ts';
import { adminOf } from '../superadmin.ts';
import { dayOf } from './days.ts';
import { analyticsReport, dashboardAnalytics } from './report.ts';
import { customRevenue } from './revenue.ts';
import { paymentsBefore } from './revenue-repository.ts';
import { ReadinessSamples } from './system-metrics.ts';
import { publicRoute } from '@ephemera/platform';
import { adminCallers } from '../superadmin.ts';

export function analyticsRouter(ctx: AdminContext): express.Router {
  const r = express.Router();
  const callers = adminCallers(ctx);
  const readiness = new ReadinessSamples(ctx.pool, { targets: ctx.healthTargets, logger: ctx.logger });

  publicRoute(r, 'adminDashboard', callers, async (_req, res) => {
    res.json(await dashboardAnalytics(ctx, readiness));
  });
  publicRoute(r, 'adminReport', callers, async (_req, res) => {
    res.json(await analyticsReport(ctx, readiness));
  });
  publicRoute(r, 'adminCustomRevenue', callers, async (req, res) => {
    res.json(await customRevenue(ctx.pool, req.query));
  });

  // Reset Revenue: every payment recorded before now stops counting (admin.revenue-reset), then the audit entry.
  publicRoute(r, 'adminResetRevenue', callers, async (_req, res) => {
    const before = ctx.now().toISOString();
    const deletedRecords = await paymentsBefore(ctx.pool, before);
    await ctx.events.record('admin.revenue-reset', { before, deletedRecords });
    await ctx.events.audit(adminOf(res), 'revenue.reset', null, null, { deletedRecords, before });
    res.json({ success: true, deletedRecords });
  });

  // Export Analytics: the report as a JSON download named analytics-export-{YYYY-MM-DD}.json.
  publicRoute(
    r,
    'adminExport',
    callers,
    async (_req, res) => {
      const report = await analyticsReport(ctx, readiness);
      await ctx.events.audit(adminOf(res), 'export.downloaded', 'analytics');
      res.set('Content-Disposition', `attachment; filename="analytics-export-${dayOf(ctx.now())}.json"`);
      res.type('application/json').send(JSON.stringify(report, null, 2));
    },
    (req, _res, next) => {
      // Any other kind: the directory router's route (users; the others refused there, once its row let the caller in).
      next(req.params.kind === 'analytics' ? undefined : 'route');
    },
  );
  return r;
}
