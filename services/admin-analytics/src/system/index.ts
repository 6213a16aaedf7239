/**
 * The System, Feedback and Settings tabs' server side: configuration and maintenance mode (projected from admin
 * events; enforced in every process by platform/maintenance.ts), the audit trail, backups that restore, auto-delete
 * of inactive accounts, database cleanup, storage usage, and feedback (billing's contact messages).
 */
import express from 'express';
import type { AdminContext } from '../context.ts';
import { AutoDelete } from './auto-delete.ts';
import { Backups } from './backup/backups.ts';
import { maintenanceStatusRouter, systemRoutes } from './routes.ts';

export { projectSystem } from './projection.ts';
export { maintenanceSnapshot, readConfig } from './config.ts';
export { AutoDelete, AUTO_DELETE_REASON } from './auto-delete.ts';

/** one auto-delete per module: the routes and the sweeper share its "running" state */
const autoDeletes = new WeakMap<AdminContext, AutoDelete>();
function autoDeleteOf(ctx: AdminContext): AutoDelete {
  let a = autoDeletes.get(ctx);
  if (!a) {
    a = new AutoDelete(ctx);
    autoDeletes.set(ctx, a);
  }
  return a;
}

/** this part's /api/admin/ routes; mounted after the superadmin check */
export function systemRouter(ctx: AdminContext): express.Router {
  return systemRoutes(ctx, autoDeleteOf(ctx), new Backups(ctx, ctx.eventLogKafka));
}

/** this part's routes every visitor may call (before the superadmin check): GET /api/maintenance */
export function publicSystemRouter(ctx: AdminContext): express.Router {
  return maintenanceStatusRouter(ctx);
}

/**
 * The scheduled sweeps, started by the module: auto-delete (runs only while the Settings tab's switch is on) and the
 * backups' retention (always: a backup past it is deleted whether or not anyone generates another).
 */
export function startAutoDeleteSweeper(ctx: AdminContext, intervalMs: number): { stop(): void } {
  const autoDelete = autoDeleteOf(ctx);
  autoDelete.startSweeper(intervalMs);
  const backups = new Backups(ctx, ctx.eventLogKafka);
  const retention =
    intervalMs > 0
      ? setInterval(() => {
          backups.pruneExpired().catch((err) => ctx.logger.warn({ err }, 'backup retention sweep failed'));
        }, intervalMs)
      : null;
  retention?.unref();
  return {
    stop: () => {
      autoDelete.stopSweeper();
      if (retention) clearInterval(retention);
    },
  };
}
