/**
 * The System tab's reads of this service's own tables (the audit trail, storage usage) and the one clean-up of its
 * own consumer groups; the routes (routes.ts) call these and hold no SQL.
 */
import type { AuditEntry, StorageUsage } from '@ephemera/proto';
import type { Pool } from '@ephemera/platform';
import type { AdminContext } from '../context.ts';
import { RESTORE_GROUP_PREFIX, type Backups } from './backup/backups.ts';
import { hasEmbeddedLog } from './backup/event-log-repository.ts';

/**
 * The newest entries. An action on an account names it by its id; while the account exists the entry shows its
 * e-mail (opened under the account's key), after its deletion only the id it had.
 */
export async function auditTrail(ctx: AdminContext, limit: number): Promise<AuditEntry[]> {
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
export async function storageUsage(
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
export async function removeLeftoverReplayGroups(pool: Pool): Promise<number> {
  const client = await pool.connect();
  try {
    if (!(await hasEmbeddedLog(client))) return 0;
    const r = await client.query('DELETE FROM event_log_offsets WHERE group_id LIKE $1', [`${RESTORE_GROUP_PREFIX}%`]);
    return r.rowCount ?? 0;
  } finally {
    client.release();
  }
}
