/**
 * The System, Feedback and Settings tabs' routes (docs/product/admin.md ADM9-ADM12; mounted after the
 * superadmin check). Handlers parse, call one use case, answer; every change is audited with the admin's e-mail.
 */
import express from 'express';
import { DomainError, FeedbackStatusBodySchema, type AuditEntry, type StorageUsage } from '@ephemera/proto';
import { parseOrThrow, type Pool } from '@ephemera/platform';
import type { AdminContext } from '../context.ts';
import { adminOf } from '../superadmin.ts';
import { readConfig, readMaintenance, setMaintenance, updateConfig } from './config.ts';
import type { AutoDelete } from './auto-delete.ts';
import { RESTORE_GROUP_PREFIX, type Backups } from './backup/backups.ts';
import { hasEmbeddedLog } from './backup/position.ts';
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

/**
 * The newest entries. An action on an account names it by its id; while the account exists the entry shows its
 * e-mail (opened under the account's key), after its deletion only the id it had.
 */
async function auditTrail(ctx: AdminContext, limit: number): Promise<AuditEntry[]> {
  const { rows } = await ctx.pool.query<{
    id: string;
    action: AuditEntry['action'];
    target: string | null;
    reason: string | null;
    admin: string;
    at: Date;
    sealed: string | null;
  }>(
    `SELECT au.event_id AS id, au.action, au.target, au.reason, au.admin, au.at, a.email AS sealed
     FROM admin.audit au LEFT JOIN admin.accounts a ON au.action LIKE 'user.%' AND a.id = au.target
     ORDER BY au.at DESC, au.seq DESC LIMIT $1`,
    [limit],
  );
  const entries: AuditEntry[] = [];
  for (const { sealed, ...r } of rows) {
    const account =
      sealed !== null && r.target
        ? await ctx.accountFields.open({ id: r.target, email: sealed, username: null })
        : null;
    entries.push({ ...r, target: account?.email ?? r.target, at: r.at.toISOString() });
  }
  return entries;
}

/**
 * databaseSize is the spec's "in keys": the rows of this service's read models (PostgreSQL's live-row statistics
 * for schema admin, which lag writes by a few seconds), labelled in databaseSizeUnit; databaseBytes is the whole
 * database on disk; memoryUsage is this process's resident set in bytes.
 */
async function storageUsage(
  pool: Pool,
  backups: Backups,
): Promise<StorageUsage & { databaseSizeUnit: 'rows'; databaseBytes: number }> {
  const [{ rows }, backupCount] = await Promise.all([
    pool.query<{ rows: string; bytes: string }>(
      `SELECT (SELECT coalesce(sum(n_live_tup), 0) FROM pg_stat_user_tables WHERE schemaname = 'admin')::text AS rows,
              pg_database_size(current_database())::text AS bytes`,
    ),
    backups.store.count(),
  ]);
  return {
    databaseSize: Number(rows[0]?.rows ?? 0),
    databaseSizeUnit: 'rows',
    databaseBytes: Number(rows[0]?.bytes ?? 0),
    memoryUsage: process.memoryUsage().rss,
    backupCount,
  };
}

/** embedded mode: the offsets of backup-import replays a crash left behind (this service's own consumer groups) */
async function removeLeftoverReplayGroups(pool: Pool): Promise<number> {
  const client = await pool.connect();
  try {
    if (!(await hasEmbeddedLog(client))) return 0;
    const r = await client.query('DELETE FROM event_log_offsets WHERE group_id LIKE $1', [`${RESTORE_GROUP_PREFIX}%`]);
    return r.rowCount ?? 0;
  } finally {
    client.release();
  }
}
