/**
 * The configuration's one row (admin.config, kept by projection.ts from the admin.config-changed and
 * admin.maintenance-changed events): read here, shaped with its defaults in config.ts.
 */
import type { Pool } from '@ephemera/platform';

interface ConfigRow {
  maintenance_enabled: boolean;
  maintenance_message: string | null;
  maintenance_seq: string;
  auto_delete_enabled: boolean;
  auto_delete_days: number;
}

/** the stored configuration; null while nothing was ever changed */
export async function configRow(pool: Pool): Promise<ConfigRow | null> {
  const { rows } = await pool.query<ConfigRow>(
    'SELECT maintenance_enabled, maintenance_message, maintenance_seq, auto_delete_enabled, auto_delete_days FROM admin.config WHERE id',
  );
  return rows[0] ?? null;
}
