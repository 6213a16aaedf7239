/**
 * The system part's read models (migrations/1734300000000_system.sql), projected from the admin topic inside
 * applyOnce's transaction: configuration and maintenance (one row), the audit trail, and the cleanup history.
 */
import type { AnyEventEnvelope } from '@ephemera/proto';
import type { PoolClient } from '@ephemera/platform';

export async function projectSystem(client: PoolClient, event: AnyEventEnvelope): Promise<void> {
  switch (event.type) {
    case 'admin.config-changed': {
      const p = event.payload;
      await client.query(
        `INSERT INTO admin.config (id, auto_delete_enabled, auto_delete_days, config_changed_at) VALUES (true, $1, $2, $3)
         ON CONFLICT (id) DO UPDATE SET auto_delete_enabled = $1, auto_delete_days = $2, config_changed_at = $3`,
        [p.autoDeleteEnabled, p.autoDeleteDaysAfterGracePeriod, p.at],
      );
      return;
    }
    case 'admin.maintenance-changed': {
      const p = event.payload;
      // The newest change wins even if an older one arrives later (the sequence is the admin aggregate's).
      await client.query(
        `INSERT INTO admin.config (id, maintenance_enabled, maintenance_message, maintenance_seq, maintenance_changed_at) VALUES (true, $1, $2, $3, $4)
         ON CONFLICT (id) DO UPDATE SET maintenance_enabled = $1, maintenance_message = $2, maintenance_seq = $3, maintenance_changed_at = $4
         WHERE admin.config.maintenance_seq < $3`,
        [p.enabled, p.message, event.sequence, p.at],
      );
      return;
    }
    case 'admin.action-recorded': {
      const p = event.payload;
      await client.query(
        `INSERT INTO admin.audit (event_id, seq, action, target, reason, admin, details, at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (event_id) DO NOTHING`,
        [event.id, event.sequence, p.action, p.target, p.reason, p.admin, JSON.stringify(p.details ?? {}), p.at],
      );
      if (p.action === 'cleanup.run') {
        const d = p.details as { trigger?: unknown; eligible?: unknown; deleted?: unknown; failed?: unknown };
        await client.query(
          `INSERT INTO admin.cleanup_runs (event_id, at, trigger, eligible, deleted, failed) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (event_id) DO NOTHING`,
          [
            event.id,
            p.at,
            d.trigger === 'scheduled' ? 'scheduled' : 'manual',
            count(d.eligible),
            count(d.deleted),
            count(d.failed),
          ],
        );
      }
      return;
    }
    default:
      return;
  }
}

const count = (v: unknown): number => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : 0);
