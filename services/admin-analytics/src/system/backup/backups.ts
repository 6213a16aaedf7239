/**
 * Backups that restore the service (System tab), streamed end to end (format.ts): memory does not grow with the
 * backup. Generate: a snapshot of every admin read model with its log position (snapshot.ts), then each owner's
 * part streamed from it (room, messaging, billing: proto backup-ports.ts; room and account keys as they are at rest),
 * sealed and written to the backup directory. The owners' parts are staged as the file is read and swapped in once it
 * proved authentic, without the rooms that have ended (parts.ts); they stand as of the backup (no replay). Import: the uploaded file (spooled to disk by the route) is read record by record into one
 * transaction that replaces the read models and commits only once the whole file proved authentic (this install's
 * key, every segment in place, the checksum, each table's shape); then the read models are made consistent with the
 * log again:
 *  - same log (an in-place restore): the log is replayed over the snapshot from the backup's recorded position
 *    (position.ts seedGroup), through applyOnce. The position is a lower bound (offsets are committed after the
 *    events they cover), so what the snapshot holds past it is in its processed_events and is skipped; everything
 *    after it is applied, so a room or account deleted
 *    after the backup was taken is deleted again (its workspace.deleted / account.deleted tombstones are readable)
 *    and nothing it recorded is resurrected. Events of rooms deleted meanwhile do not open (their keys are gone).
 *  - another install's log (a restore into a fresh install): the snapshot stands as of the import, and the log's
 *    events from then on apply over it. Earlier events of this install are not merged in.
 * Rooms deleted or expired before the backup are not in it: the directory removed them when their tombstones came,
 * and their content was never in these read models; their keys are gone everywhere, so nothing can read them.
 */
import { randomBytes } from 'node:crypto';
import { ADMIN_LIMITS, BACKUP_PARTS, TOPICS, type BackupInfo } from '@ephemera/proto';
import { applyOnce, inTransaction, KeyedMutex } from '@ephemera/platform';
import type { AdminContext } from '../../context.ts';
import { readBackupFile, writeBackupFile } from './format.ts';
import { currentLogId, seedGroup, type KafkaLocation, type LogPosition } from './position.ts';
import { deleteGroupOffsets, hasEmbeddedLog } from './event-log-repository.ts';
import { exportSnapshot, SnapshotRestore, type SnapshotSummary } from './snapshot.ts';
import { dropEndedRooms } from './snapshot-repository.ts';
import { PartsRestore } from './parts.ts';
import { BackupStore } from './store.ts';

export interface ImportResult {
  success: true;
  createdAt: string;
  sameLog: boolean;
  replayedEvents: number;
  rows: number;
  endedRooms: number;
}

export class Backups {
  readonly store: BackupStore;
  /** one import at a time in this process (the database serialises replicas: TRUNCATE locks every table) */
  private readonly mutex = new KeyedMutex();

  constructor(
    private readonly ctx: AdminContext,
    private readonly kafka?: KafkaLocation,
  ) {
    this.store = new BackupStore(ctx.backupDir);
  }

  async generate(admin: string): Promise<BackupInfo> {
    const now = this.ctx.now(); // one instant: the file's name and the createdAt sealed inside it agree
    const createdAt = now.toISOString();
    let summary: SnapshotSummary | undefined;
    const parts = this.parts();
    const info = await this.store.write(this.store.newName(now), async (file) => {
      summary = await exportSnapshot(this.ctx.pool, this.kafka, createdAt, (lines) =>
        writeBackupFile(
          file,
          this.ctx.backupKey,
          createdAt,
          (async function* all() {
            yield* lines; // admin-analytics' own part, then each owner's, streamed from it (proto backup-ports.ts)
            for (const part of BACKUP_PARTS) yield* parts[part].exportPart({ createdAt });
          })(),
        ),
      );
    });
    await this.pruneExpired();
    await this.ctx.events.audit(admin, 'backup.generated', info.filename, null, {
      size: info.size,
      tables: summary?.tables,
      rows: summary?.rows,
      position: summary?.position.kind,
    });
    return info;
  }

  /**
   * Restores the backup file at `file` (an upload spooled to disk). BACKUP_INVALID (and nothing changed) for a
   * file that is not a good backup of this install's: the read models are replaced in one transaction that commits
   * only after the whole file was read and its checksum matched.
   */
  async import(admin: string, file: string, filename: string): Promise<ImportResult> {
    return this.mutex.run('import', async () => {
      const here = await this.withClient((c) => currentLogId(c, this.kafka));
      const { createdAt, position, rows, endedRooms } = await inTransaction(this.ctx.pool, async (client) => {
        const restore = new SnapshotRestore(client);
        const parts = new PartsRestore(this.parts());
        const read = await readBackupFile(file, this.ctx.backupKey, (record) =>
          parts.takes(record) ? parts.accept(record) : restore.accept(record),
        );
        // the whole file proved authentic: each owner swaps its part in (room first: it names the ended rooms)
        const committed = await parts.commit(this.ctx.now());
        await dropEndedRooms(client, committed.endedRooms);
        return {
          createdAt: read.createdAt,
          position: restore.position,
          rows: restore.rows + committed.rows,
          endedRooms: committed.endedRooms,
        };
      });
      const sameLog = position.logId !== null && position.logId === here;
      const replayedEvents = sameLog ? await this.replayLog(position) : 0;
      await this.ctx.events.audit(admin, 'backup.imported', filename, null, {
        createdAt,
        sameLog,
        replayedEvents,
        rows,
        endedRooms: endedRooms.length,
      });
      return { success: true, createdAt, sameLog, replayedEvents, rows, endedRooms: endedRooms.length };
    });
  }

  /**
   * The log from the backup's position on, through applyOnce, with a group of its own that is dropped afterwards;
   * answers how many events applied.
   */
  private async replayLog(position: LogPosition): Promise<number> {
    const groupId = `${RESTORE_GROUP_PREFIX}${Date.now()}-${randomBytes(3).toString('hex')}`;
    const seeded = await this.withClient((c) => seedGroup(c, this.kafka, groupId, position));
    let applied = 0;
    const replay = await this.ctx.log.subscribe({
      groupId,
      topics: Object.values(TOPICS),
      fromBeginning: true,
      handler: async ({ event }) => {
        applied += (await applyOnce(this.ctx.pool, 'admin', [event], this.ctx.project)).length;
      },
    });
    try {
      await replay.caughtUp();
    } finally {
      await replay.stop();
    }
    await this.withClient(async (c) => {
      if (await hasEmbeddedLog(c)) await deleteGroupOffsets(c, groupId);
    });
    this.ctx.logger.info(
      { applied, fromBackupPosition: seeded },
      'backup import: the log replayed over the restored read models',
    );
    return applied;
  }

  /** the retention (ADMIN_LIMITS.backupRetentionDays): backups older than it are deleted */
  async pruneExpired(): Promise<number> {
    const removed = await this.store.prune(this.ctx.now(), ADMIN_LIMITS.backupRetentionDays);
    if (removed > 0) this.ctx.logger.info({ removed }, 'backups past their retention deleted');
    return removed;
  }

  private parts() {
    if (!this.ctx.backupParts) throw new Error('the service backup needs the room, messaging and billing parts');
    return this.ctx.backupParts;
  }

  private async withClient<T>(fn: (c: import('@ephemera/platform').PoolClient) => Promise<T>): Promise<T> {
    const client = await this.ctx.pool.connect();
    try {
      return await fn(client);
    } finally {
      client.release();
    }
  }
}

/** the replay's consumer groups (database cleanup removes any left behind by a crash) */
export const RESTORE_GROUP_PREFIX = 'admin-restore-';
