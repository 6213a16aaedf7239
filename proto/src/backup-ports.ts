/**
 * The service backup (docs/administration.md "Backups"): each service exports and restores its own part, and
 * admin-analytics puts the parts into one sealed file. A part is a stream of records, one JSON document a line:
 *   meta (the schema's tables with their columns, its sequences), rows (a batch of one table's rows), keys (data keys
 *   as they are at rest: wrapped by the master key, never opened), end (each table's row count).
 * Embedded mode passes the services' implementations; distributed mode reads `{prefix}/export` as a stream of lines
 * and sends the import a record at a time (POST {prefix}/{method}), on the owner's internal listener, signed with
 * the service credential. Nothing is replaced until importCommit, which swaps the staged rows in one transaction.
 */
export interface BackupTable {
  name: string;
  columns: string[];
}
export interface BackupSequence {
  lastValue: string;
  isCalled: boolean;
}
export interface BackupWrappedKey {
  id: string;
  wrapped: { v: 1; kid: string; wrapped: string };
}

export type BackupPartRecord =
  | {
      kind: 'meta';
      createdAt: string;
      schema: string;
      position: { kind: 'unknown'; logId: null };
      tables: BackupTable[];
      sequences: Record<string, BackupSequence>;
    }
  | { kind: 'rows'; table: string; rows: Array<Record<string, unknown>> }
  | { kind: 'keys'; keys: BackupWrappedKey[] }
  | { kind: 'end'; rows: Record<string, number> };

export interface BackupPartApi {
  /** the part's records as lines, read from one snapshot */
  exportPart(input: { createdAt: string }): AsyncIterable<string>;
  /** a restore begins: the tables must be this install's, column for column; rows are staged, nothing replaced yet */
  importBegin(input: { meta: Extract<BackupPartRecord, { kind: 'meta' }> }): Promise<{ ok: true }>;
  importRows(input: { table: string; rows: Array<Record<string, unknown>> }): Promise<{ ok: true }>;
  importKeys(input: { keys: BackupWrappedKey[] }): Promise<{ ok: true }>;
  /**
   * The staged rooms this part knows have ended: the room service those whose lifetime is over by `now`; messaging
   * those its live tombstones name (deleted or expired after the backup was taken). Changes nothing.
   */
  importEnded(input: { now: string }): Promise<{ endedRooms: string[] }>;
  /**
   * Replaces the part's tables with the staged rows in one transaction, without the rooms in `endedRooms` (every
   * part's importEnded, together); their keys are not restored, and destroyed if present.
   */
  importCommit(input: { rows: Record<string, number>; endedRooms: string[] }): Promise<{ rows: number }>;
}

export const BACKUP_PART_METHODS = [
  'importBegin',
  'importRows',
  'importKeys',
  'importEnded',
  'importCommit',
] as const satisfies readonly (keyof BackupPartApi)[];
/** the parts after admin-analytics' own, in the file's order */
export const BACKUP_PARTS = ['room', 'messaging', 'billing'] as const;
export type BackupPartName = (typeof BACKUP_PARTS)[number];
/** under it, every part's internal routes */
export const BACKUP_INTERNAL_ROOT = '/internal/backup/';
export const backupPartPrefix = (part: BackupPartName) => `${BACKUP_INTERNAL_ROOT}${part}`;
/** the streamed export route of a part (a signed POST with an empty JSON body; the answer is NDJSON) */
export const backupPartExportPath = (part: BackupPartName) => `${backupPartPrefix(part)}/export`;
