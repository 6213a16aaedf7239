/**
 * What a backup holds, as the NDJSON records of its plaintext (format.ts seals them):
 *  - meta: the creation time, the log position the read models stand at (position.ts), every table with its
 *    columns in the order the rows follow, and the sequences;
 *  - rows: up to ROWS_PER_RECORD rows of one table, as PostgreSQL's row_to_json gave them;
 *  - keys (the room and billing parts): data keys as they are at rest, wrapped by the master key;
 *  - end: how many rows each table had, so a file that lost a record is refused even where its checksum was
 *    recomputed.
 * A file holds admin-analytics' own part first (schema admin), then the room, messaging and billing parts (proto
 * backup-ports.ts), each from its meta to its end.
 */
import { z } from 'zod';
import { BACKUP_PARTS, DomainError, type BackupPartName, type BackupWrappedKey } from '@ephemera/proto';
import type { LogPosition } from './position.ts';

export const ROWS_PER_RECORD = 1000;

export function invalidBackup(): DomainError {
  return new DomainError('BACKUP_INVALID');
}

export interface SequenceExport {
  lastValue: string;
  isCalled: boolean;
}
export interface TableManifest {
  name: string;
  columns: string[];
}

export type BackupRecord =
  | {
      kind: 'meta';
      createdAt: string;
      schema: 'admin' | BackupPartName;
      position: LogPosition;
      tables: TableManifest[];
      sequences: Record<string, SequenceExport>;
    }
  | { kind: 'rows'; table: string; rows: Array<Record<string, unknown>> }
  | { kind: 'keys'; keys: BackupWrappedKey[] }
  | { kind: 'end'; rows: Record<string, number> };

const Identifier = z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/);
const RecordSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('meta'),
      createdAt: z.iso.datetime(),
      schema: z.enum(['admin', ...BACKUP_PARTS]),
      position: z.looseObject({ kind: z.enum(['embedded', 'kafka', 'unknown']), logId: z.string().nullable() }),
      tables: z.array(z.object({ name: Identifier, columns: z.array(Identifier).min(1) }).strict()),
      sequences: z.record(
        Identifier,
        z.object({ lastValue: z.string().regex(/^-?\d{1,19}$/), isCalled: z.boolean() }).strict(),
      ),
    })
    .strict(),
  z
    .object({
      kind: z.literal('rows'),
      table: Identifier,
      rows: z.array(z.record(z.string(), z.unknown())).max(ROWS_PER_RECORD),
    })
    .strict(),
  z
    .object({
      kind: z.literal('keys'),
      keys: z
        .array(
          z
            .object({
              id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
              wrapped: z.object({ v: z.literal(1), kid: z.string().max(64), wrapped: z.string().max(512) }).strict(),
            })
            .strict(),
        )
        .max(ROWS_PER_RECORD),
    })
    .strict(),
  z.object({ kind: z.literal('end'), rows: z.record(Identifier, z.number().int().min(0)) }).strict(),
]);

/** one record line; BACKUP_INVALID for anything that is not one */
export function parseRecord(line: string): BackupRecord {
  try {
    return RecordSchema.parse(JSON.parse(line)) as BackupRecord;
  } catch {
    throw invalidBackup();
  }
}

/** the record lines of one table's rows, `rows` being row_to_json texts (already JSON: not parsed again here) */
export function rowsLine(table: string, rows: string[]): string {
  return `{"kind":"rows","table":${JSON.stringify(table)},"rows":[${rows.join(',')}]}`;
}
