/**
 * The owners' parts of a backup on their way back (proto backup-ports.ts): each record of a part is passed to its
 * owner as it is read, where it is staged, nothing replaced; once the whole file proved authentic, commit() has each
 * owner name the rooms it knows have ended (the room service: lifetime over; messaging: a live tombstone, the room
 * deleted or expired after the backup), then swap its part in without them, their keys destroyed. Every part must
 * be there.
 */
import { BACKUP_PARTS, type BackupPartApi, type BackupPartName, type BackupPartRecord } from '@ephemera/proto';
import { importBatches } from '@ephemera/platform';
import { invalidBackup, type BackupRecord } from './records.ts';

export class PartsRestore {
  private current: BackupPartName | null = null;
  private readonly ends = new Map<BackupPartName, Record<string, number>>();

  constructor(private readonly parts: Record<BackupPartName, BackupPartApi>) {}

  /** whether the record belongs to an owner's part (else it is admin-analytics' own) */
  takes(record: BackupRecord): boolean {
    return record.kind === 'meta' ? record.schema !== 'admin' : this.current !== null;
  }

  async accept(record: BackupRecord): Promise<void> {
    if (record.kind === 'meta') {
      const part = record.schema as BackupPartName;
      if (this.ends.has(part)) throw invalidBackup(); // a part twice
      this.current = part;
      await this.parts[part].importBegin({ meta: record as Extract<BackupPartRecord, { kind: 'meta' }> });
      return;
    }
    const part = this.parts[this.current!];
    if (record.kind === 'rows')
      for (const rows of importBatches(record.rows)) await part.importRows({ table: record.table, rows });
    else if (record.kind === 'keys') await part.importKeys({ keys: record.keys });
    else {
      this.ends.set(this.current!, record.rows);
      this.current = null;
    }
  }

  async commit(now: Date): Promise<{ endedRooms: string[]; rows: number }> {
    if (BACKUP_PARTS.some((p) => !this.ends.has(p))) throw invalidBackup(); // a backup of only some of the service
    const ended = new Set<string>();
    for (const part of BACKUP_PARTS)
      for (const id of (await this.parts[part].importEnded({ now: now.toISOString() })).endedRooms) ended.add(id);
    const endedRooms = [...ended].sort();
    let rows = 0;
    for (const part of BACKUP_PARTS)
      rows += (await this.parts[part].importCommit({ rows: this.ends.get(part)!, endedRooms })).rows;
    return { endedRooms, rows };
  }
}
