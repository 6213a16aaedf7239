/**
 * The logical export and its restore: every table of schema admin (every part's read models, processed_events
 * included, so the restore knows exactly which events it holds) and its sequences, as a stream of records
 * (records.ts), a batch of rows at a time.
 *  - export: one REPEATABLE READ READ ONLY transaction, so every table (and, embedded, the log position) is read
 *    from one snapshot, through a cursor; rows as PostgreSQL's row_to_json gives them, so every type comes back as
 *    it went out.
 *  - restore, in the caller's transaction: the meta record's tables must be the ones this install has, column for
 *    column; then every table is emptied and refilled batch by batch (json_populate_recordset: PostgreSQL parses
 *    each value with the column's type) and the sequences moved forward. Any refusal rolls everything back.
 */
import type { Pool, PoolClient } from '@ephemera/platform';
import {
  invalidBackup,
  ROWS_PER_RECORD,
  rowsLine,
  type BackupRecord,
  type SequenceExport,
  type TableManifest,
} from './records.ts';
import { embeddedPosition, kafkaPosition, type KafkaLocation, type LogPosition } from './position.ts';
import { hasEmbeddedLog } from './event-log-repository.ts';
import {
  advanceSequence,
  beginReadOnlySnapshot,
  closeRowsCursor,
  columnsOf,
  commitSnapshot,
  fetchRows,
  foreignKeysOf,
  insertRows,
  openRowsCursor,
  rollbackSnapshot,
  sequencesOf,
  sequenceState,
  truncateTables,
} from './snapshot-repository.ts';

/** the schema's tables and their writable columns, in table order */
async function tablesOf(client: PoolClient): Promise<Map<string, string[]>> {
  return new Map([...(await columnsOf(client))].map(([t, cols]) => [t, cols.map((c) => c.name)]));
}

/** Referenced tables before those that reference them (foreign keys inside the schema), else by name. */
async function insertOrder(client: PoolClient, names: string[]): Promise<string[]> {
  const rows = await foreignKeysOf(client);
  const ordered: string[] = [];
  const visit = (name: string, path: Set<string>) => {
    if (ordered.includes(name) || path.has(name)) return;
    path.add(name);
    for (const r of rows) if (r.child === name) visit(r.parent, path);
    ordered.push(name);
  };
  for (const name of [...names].sort()) visit(name, new Set());
  return ordered.filter((n) => names.includes(n));
}

export interface SnapshotSummary {
  position: LogPosition;
  tables: number;
  rows: number;
}

/**
 * Exports the read models as record lines into `sink` (which writes the file), inside one read-only snapshot that
 * stays open until the sink has taken the last line.
 */
export async function exportSnapshot(
  pool: Pool,
  kafka: KafkaLocation | undefined,
  createdAt: string,
  sink: (lines: AsyncIterable<string>) => Promise<void>,
): Promise<SnapshotSummary> {
  // Kafka's committed offsets are read first: every event they cover was applied before the snapshot begins.
  const client = await pool.connect();
  try {
    const embedded = await hasEmbeddedLog(client);
    const kafkaAt = !embedded && kafka ? await kafkaPosition(kafka) : null;
    await beginReadOnlySnapshot(client);
    try {
      const columns = await columnsOf(client);
      const tables: TableManifest[] = (await insertOrder(client, [...columns.keys()])).map((name) => ({
        name,
        columns: columns.get(name)!.map((c) => c.name),
      }));
      const sequences: Record<string, SequenceExport> = {};
      for (const name of await sequencesOf(client)) sequences[name] = await sequenceState(client, name);
      const position: LogPosition = embedded
        ? await embeddedPosition(client)
        : (kafkaAt ?? { kind: 'unknown', logId: null });
      const counts: Record<string, number> = {};
      await sink(
        (async function* lines() {
          const meta: BackupRecord = { kind: 'meta', createdAt, schema: 'admin', position, tables, sequences };
          yield JSON.stringify(meta);
          for (const { name } of tables) {
            counts[name] = 0;
            await openRowsCursor(client, name, columns.get(name)!);
            for (;;) {
              const rows = await fetchRows(client, ROWS_PER_RECORD);
              if (rows.length === 0) break;
              counts[name] += rows.length;
              yield rowsLine(name, rows);
            }
            await closeRowsCursor(client);
          }
          yield JSON.stringify({ kind: 'end', rows: counts } satisfies BackupRecord);
        })(),
      );
      await commitSnapshot(client);
      return { position, tables: tables.length, rows: Object.values(counts).reduce((a, b) => a + b, 0) };
    } catch (err) {
      await rollbackSnapshot(client).catch(() => {});
      throw err;
    }
  } finally {
    client.release();
  }
}

/** PostgreSQL refusing the data (a wrong type, a null where none may be, a duplicate key): the file is bad. */
const refusesData = (err: unknown) => /^(22|23)/.test(String((err as { code?: unknown })?.code ?? ''));

/**
 * Replaces every admin table with a backup's records, fed in order by readBackupFile, with `client` inside the
 * caller's transaction (which commits only once the whole file was read and checked). BACKUP_INVALID for a
 * backup that does not fit this install.
 */
export class SnapshotRestore {
  private current = new Map<string, string[]>();
  private meta: Extract<BackupRecord, { kind: 'meta' }> | null = null;
  private tableAt = 0;
  private readonly counts = new Map<string, number>();

  constructor(private readonly client: PoolClient) {}

  get position(): LogPosition {
    return this.meta!.position;
  }
  get rows(): number {
    return [...this.counts.values()].reduce((a, b) => a + b, 0);
  }

  async accept(record: BackupRecord): Promise<void> {
    try {
      if (record.kind === 'meta') await this.begin(record);
      else if (record.kind === 'rows') await this.insert(record.table, record.rows);
      else if (record.kind === 'end') await this.finish(record.rows);
      else throw invalidBackup(); // admin-analytics' own part holds no keys
    } catch (err) {
      if (refusesData(err)) throw invalidBackup();
      throw err;
    }
  }

  /** the tables must be this install's, column for column; then all of them are emptied */
  private async begin(meta: Extract<BackupRecord, { kind: 'meta' }>): Promise<void> {
    this.current = await tablesOf(this.client);
    const names = meta.tables.map((t) => t.name);
    if (new Set(names).size !== names.length || names.length !== this.current.size) throw invalidBackup();
    for (const { name, columns: theirs } of meta.tables) {
      const columns = this.current.get(name);
      if (!columns || columns.length !== theirs.length || !columns.every((c) => theirs.includes(c)))
        throw invalidBackup();
    }
    const sequences = await sequencesOf(this.client);
    if (!Object.keys(meta.sequences).every((s) => sequences.includes(s))) throw invalidBackup();
    this.meta = meta;
    await truncateTables(this.client, names);
  }

  /** rows come table by table, in the meta record's order (referenced tables first) */
  private async insert(table: string, rows: Array<Record<string, unknown>>): Promise<void> {
    const at = this.meta!.tables.findIndex((t) => t.name === table);
    if (at < this.tableAt) throw invalidBackup();
    this.tableAt = at;
    const columns = this.meta!.tables[at]!.columns;
    for (const row of rows) {
      const keys = Object.keys(row);
      if (keys.length !== columns.length || !columns.every((c) => Object.hasOwn(row, c))) throw invalidBackup();
    }
    this.counts.set(table, (this.counts.get(table) ?? 0) + rows.length);
    if (rows.length === 0) return;
    await insertRows(this.client, table, this.current.get(table)!, rows);
  }

  /** every row the export counted arrived; then the sequences, which only move forward */
  private async finish(expected: Record<string, number>): Promise<void> {
    const names = this.meta!.tables.map((t) => t.name);
    if (Object.keys(expected).length !== names.length || names.some((n) => (this.counts.get(n) ?? 0) !== expected[n]))
      throw invalidBackup();
    // numbers this install already handed out are never handed out again
    for (const [name, theirs] of Object.entries(this.meta!.sequences)) {
      if (!theirs.isCalled) continue;
      await advanceSequence(this.client, name, theirs.lastValue);
    }
  }
}
