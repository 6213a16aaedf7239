/**
 * The System, Feedback and Settings tabs' routes (docs/product/admin.md ADM9-ADM12; mounted after the
 * superadmin check). Handlers parse, call one use case, answer; every change is audited with the admin's e-mail.
 */
import express from 'express';
import { DomainError, FeedbackStatusBodySchema } from '@ephemera/proto';
import { parseOrThrow } from '@ephemera/platform';
import type { AdminContext } from '../context.ts';
import { adminOf } from '../superadmin.ts';
import { readConfig, readMaintenance, setMaintenance, updateConfig } from './config.ts';
import type { AutoDelete } from './auto-delete.ts';
import type { Backups } from './backup/backups.ts';
import { auditTrail, removeLeftoverReplayGroups, storageUsage } from './read-model.ts';
import { backupRoutes } from './backup/routes.ts';
import { publicRoute } from '@ephemera/platform';
import { adminCallers } from '../superadmin.ts';

const FEEDBACK_ID = /^[A-Za-z0-9_-]{1,100}$/;
const feedbackId = (raw: unknown): string => {
  const id = String(raw);
  if (!FEEDBACK_ID.test(id)) throw new DomainError('FEEDBACK_NOT_FOUND');
  return id;
};

export function systemRoutes(ctx: AdminContext, autoDelete: AutoDelete, backups: Backups): express.Router {
  const r = express.Router();
  const callers = adminCallers(ctx);

  publicRoute(r, 'adminConfig', callers, async (_req, res) => {
    res.json(await readConfig(ctx.pool));
  });
  publicRoute(r, 'adminUpdateConfig', callers, async (req, res) => {
    res.json(await updateConfig(ctx, adminOf(res), req.body));
  });
  publicRoute(r, 'adminMaintenance', callers, async (req, res) => {
    res.json({ success: true, ...(await setMaintenance(ctx, adminOf(res), req.body)) });
  });

  publicRoute(r, 'adminAudit', callers, async (req, res) => {
    const limit = Math.min(Math.max(Number.parseInt(String(req.query.limit ?? ''), 10) || 200, 1), 1000);
    res.json(await auditTrail(ctx, limit));
  });

  publicRoute(r, 'adminFeedback', callers, async (_req, res) => {
    res.json(await ctx.billingSystem.feedbackList({ limit: 500 }));
  });
  publicRoute(r, 'adminFeedbackStatus', callers, async (req, res) => {
    const id = feedbackId(req.params.id);
    const { status } = parseOrThrow(FeedbackStatusBodySchema, req.body ?? {});
    const changed = await ctx.billingSystem.feedbackSetStatus({ id, status });
    await ctx.events.audit(adminOf(res), 'feedback.status-changed', id, null, { status });
    res.json({ success: true, ...changed });
  });
  publicRoute(r, 'adminDeleteFeedback', callers, async (req, res) => {
    const id = feedbackId(req.params.id);
    await ctx.billingSystem.feedbackDelete({ id });
    await ctx.events.audit(adminOf(res), 'feedback.deleted', id);
    res.json({ success: true, id });
  });

  publicRoute(r, 'adminCleanupStatus', callers, async (_req, res) => {
    res.json(await autoDelete.status());
  });
  publicRoute(r, 'adminCleanupRun', callers, async (_req, res) => {
    res.json(await autoDelete.run(adminOf(res), 'manual'));
  });

  publicRoute(r, 'adminDatabaseCleanup', callers, async (_req, res) => {
    const billing = await ctx.billingSystem.cleanupExpired({});
    const own = await removeLeftoverReplayGroups(ctx.pool);
    const removed = billing.removed + own;
    await ctx.events.audit(adminOf(res), 'database.cleanup', null, null, {
      removed,
      billing: billing.removed,
      adminAnalytics: own,
    });
    res.json({ success: true, removed });
  });

  publicRoute(r, 'adminStorageUsage', callers, async (_req, res) => {
    res.json(await storageUsage(ctx.pool, backups));
  });

  backupRoutes(r, backups, callers, ctx.backupMaxBytes);
  return r;
}

/** GET /api/maintenance: the red banner's state, for every visitor (never refused, maintenance or not) */
export function maintenanceStatusRouter(ctx: AdminContext): express.Router {
  const r = express.Router();
  const callers = adminCallers(ctx);
  publicRoute(r, 'maintenanceStatus', callers, async (_req, res) => {
    res.json(await readMaintenance(ctx.pool));
  });
  return r;
}
