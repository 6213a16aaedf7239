/**
 * Backups that restore (System tab). Generate: a snapshot of every admin read model with its log position, sealed
 * (format.ts) and written to the backup directory. Import: opened and checked (format, this install's key, the
 * checksum, each table's shape), then the read models are replaced in one transaction (snapshot.ts), then made
 * consistent with the log again:
 *  - same log (an in-place restore): the log is replayed over the snapshot through applyOnce. What the snapshot
 *    holds is in its processed_events and is skipped; everything after it is applied, so a room or account deleted
 *    after the backup was taken is deleted again (its workspace.deleted / account.deleted tombstones are readable)
 *    and nothing it recorded is resurrected. Events of rooms deleted meanwhile do not open (their keys are gone).
 *  - another install's log (a restore into a fresh install): the snapshot stands as of the import, and the log's
 *    events from then on apply over it. Earlier events of this install are not merged in.
 * Rooms deleted or expired before the backup are not in it: the directory removed them when their tombstones came,
 * and their content was never in these read models; their keys are gone everywhere, so nothing can read them.
 */
import { randomBytes } from 'node:crypto';
import { TOPICS, type BackupInfo } from '@ephemera/proto';
import { applyOnce, KeyedMutex } from '@ephemera/platform';
import type { AdminContext } from '../../context.ts';
import { projectAdmin } from '../../projection.ts';
import { BACKUP_FORMAT, BACKUP_VERSION, openBackup, sealBackup } from './format.ts';
import { currentLogId, hasEmbeddedLog, type KafkaLocation } from './position.ts';
import { exportSnapshot, restoreSnapshot } from './snapshot.ts';
import { BackupStore } from './store.ts';

export interface ImportResult { success: true; createdAt: string; sameLog: boolean; replayedEvents: number; rows: number }

export class Backups {
  readonly store: BackupStore;
  /** one import at a time in this process (the database serialises replicas: TRUNCATE locks every table) */
  private readonly mutex = new KeyedMutex();

  constructor(private readonly ctx: AdminContext, private readonly kafka?: KafkaLocation) {
    this.store = new BackupStore(ctx.backupDir);
  }

  async generate(admin: string): Promise<BackupInfo> {
    const createdAt = this.ctx.now();
    const snapshot = await exportSnapshot(this.ctx.pool, this.kafka);
    const bytes = sealBackup({ format: BACKUP_FORMAT, version: BACKUP_VERSION, createdAt: createdAt.toISOString(), schema: 'admin', ...snapshot }, this.ctx.backupKey);
    const info = await this.store.write(this.store.newName(createdAt), bytes);
    await this.ctx.events.audit(admin, 'backup.generated', info.filename, null, {
      size: info.size, tables: Object.keys(snapshot.tables).length, position: snapshot.position.kind,
    });
    return info;
  }

  /** BACKUP_INVALID (and nothing changed) for a file that is not a good backup of this install's. */
  async import(admin: string, file: Buffer, filename: string): Promise<ImportResult> {
    const content = openBackup(file, this.ctx.backupKey);
    return this.mutex.run('import', async () => {
      const here = await this.withClient((c) => currentLogId(c, this.kafka));
      const sameLog = content.position.logId !== null && content.position.logId === here;
      await restoreSnapshot(this.ctx.pool, content);
      const replayedEvents = sameLog ? await this.replayLog() : 0;
      const rows = Object.values(content.tables).reduce((n, t) => n + t.rows.length, 0);
      await this.ctx.events.audit(admin, 'backup.imported', filename, null, { createdAt: content.createdAt, sameLog, replayedEvents, rows });
      return { success: true, createdAt: content.createdAt, sameLog, replayedEvents, rows };
    });
  }

  /** The whole log through applyOnce, with a group of its own that is dropped afterwards; answers how many applied. */
  private async replayLog(): Promise<number> {
    const groupId = `${RESTORE_GROUP_PREFIX}${Date.now()}-${randomBytes(3).toString('hex')}`;
    let applied = 0;
    const replay = await this.ctx.log.subscribe({
      groupId, topics: Object.values(TOPICS), fromBeginning: true,
      handler: async ({ event }) => { applied += (await applyOnce(this.ctx.pool, 'admin', [event], projectAdmin)).length; },
    });
    try {
      await replay.caughtUp();
    } finally {
      await replay.stop();
    }
    await this.withClient(async (c) => {
      if (await hasEmbeddedLog(c)) await c.query('DELETE FROM event_log_offsets WHERE group_id = $1', [groupId]);
    });
    this.ctx.logger.info({ applied }, 'backup import: the log replayed over the restored read models');
    return applied;
  }

  private async withClient<T>(fn: (c: import('@ephemera/platform').PoolClient) => Promise<T>): Promise<T> {
    const client = await this.ctx.pool.connect();
    try { return await fn(client); } finally { client.release(); }
  }
}

/** the replay's consumer groups (database cleanup removes any left behind by a crash) */
export const RESTORE_GROUP_PREFIX = 'admin-restore-';
