/**
 * Configuration and maintenance mode: each change is an admin event (config-changed, maintenance-changed) plus its
 * audit entry; reads come from admin.config (projection.ts), with the defaults while nothing was ever changed.
 */
import {
  ADMIN_LIMITS,
  ADMIN_TEXT,
  ConfigBodySchema,
  DomainError,
  MaintenanceBodySchema,
  type AdminConfig,
  type MaintenanceState as MaintenanceView,
} from '@ephemera/proto';
import { parseOrThrow, type MaintenanceSnapshot, type Pool } from '@ephemera/platform';
import type { AdminContext } from '../context.ts';
import { configRow } from './config-repository.ts';

export async function readConfig(pool: Pool): Promise<AdminConfig> {
  const row = await configRow(pool);
  return {
    maintenanceMode: row?.maintenance_enabled ?? false,
    maintenanceMessage: row?.maintenance_enabled ? row.maintenance_message : null,
    autoDeleteEnabled: row?.auto_delete_enabled ?? false,
    autoDeleteDaysAfterGracePeriod: row?.auto_delete_days ?? ADMIN_LIMITS.autoDelete.defaultDays,
  };
}

/** the banner's state (GET /api/maintenance) */
export async function readMaintenance(pool: Pool): Promise<MaintenanceView> {
  const c = await readConfig(pool);
  return { enabled: c.maintenanceMode, message: c.maintenanceMessage };
}

/**
 * The state a process starts from when it shares this service's database (embedded mode): MaintenanceState's
 * `initial` (platform/maintenance.ts), with the sequence that orders it against the events that follow.
 */
export async function maintenanceSnapshot(pool: Pool): Promise<MaintenanceSnapshot> {
  const row = await configRow(pool);
  return {
    enabled: row?.maintenance_enabled ?? false,
    message: row?.maintenance_message ?? null,
    sequence: Number(row?.maintenance_seq ?? -1),
  };
}

/**
 * PUT /api/admin/config. Any day count that is not a whole number from 1 to 1000 (0, 1001, 1.5, "x") is refused
 * with the spec's one text, whatever zod would have said about its type.
 */
export async function updateConfig(ctx: AdminContext, admin: string, body: unknown): Promise<AdminConfig> {
  const parsed = ConfigBodySchema.safeParse(body ?? {});
  if (!parsed.success && parsed.error.issues.some((i) => i.path[0] === 'autoDeleteDaysAfterGracePeriod')) {
    throw new DomainError('VALIDATION', ADMIN_TEXT.autoDeleteDays);
  }
  const change = parseOrThrow(ConfigBodySchema, body ?? {});
  const current = await readConfig(ctx.pool);
  const next = {
    autoDeleteEnabled: change.autoDeleteEnabled ?? current.autoDeleteEnabled,
    autoDeleteDaysAfterGracePeriod: change.autoDeleteDaysAfterGracePeriod ?? current.autoDeleteDaysAfterGracePeriod,
  };
  await ctx.events.record('admin.config-changed', { ...next, at: ctx.now().toISOString() });
  await ctx.events.audit(admin, 'config.changed', null, null, { ...change });
  return readConfig(ctx.pool);
}

/** POST /api/admin/maintenance: enabling needs a message (the banner's and every refusal's text). */
export async function setMaintenance(ctx: AdminContext, admin: string, body: unknown): Promise<MaintenanceView> {
  const { enabled, message } = parseOrThrow(MaintenanceBodySchema, body ?? {});
  const text = enabled ? message! : null;
  await ctx.events.record('admin.maintenance-changed', { enabled, message: text, at: ctx.now().toISOString() });
  await ctx.events.audit(admin, 'maintenance.changed', null, text, { enabled });
  return readMaintenance(ctx.pool);
}
