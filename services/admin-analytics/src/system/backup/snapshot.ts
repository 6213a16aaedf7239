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
import { embeddedPosition, hasEmbeddedLog, kafkaPosition, type KafkaLocation, type LogPosition } from './position.ts';

const SCHEMA = 'admin';
const q = (name: string) => `${SCHEMA}."${name.replaceAll('"', '""')}"`;

/**
 * Numbers leave as text: JSON numbers pass through JavaScript's doubles, which would turn numeric 18.00 into 18 and
 * round a bigint past 2^53; PostgreSQL parses the text back with the column's type.
 */
const AS_TEXT = new Set(['numeric', 'bigint', 'double precision', 'real', 'money']);

/** the schema's tables and their writable columns, in table order */
async function tablesOf(client: PoolClient): Promise<Map<string, string[]>> {
  return new Map([...(await columnsOf(client))].map(([t, cols]) => [t, cols.map((c) => c.name)]));
}

async function columnsOf(client: PoolClient): Promise<Map<string, Array<{ name: string; type: string }>>> {
  const { rows } = await client.query<{ table_name: string; column_name: string; data_type: string }>(
    `SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c
     JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
     WHERE c.table_schema = $1 AND t.table_type = 'BASE TABLE' AND c.is_generated = 'NEVER'
     ORDER BY c.table_name, c.ordinal_position`,
    [SCHEMA],
  );
  const tables = new Map<string, Array<{ name: string; type: string }>>();
  for (const r of rows)
    tables.set(r.table_name, [...(tables.get(r.table_name) ?? []), { name: r.column_name, type: r.data_type }]);
  return tables;
}

async function sequencesOf(client: PoolClient): Promise<string[]> {
  const { rows } = await client.query<{ sequence_name: string }>(
    'SELECT sequence_name FROM information_schema.sequences WHERE sequence_schema = $1 ORDER BY sequence_name',
    [SCHEMA],
  );
  return rows.map((r) => r.sequence_name);
}

/** Referenced tables before those that reference them (foreign keys inside the schema), else by name. */
async function insertOrder(client: PoolClient, names: string[]): Promise<string[]> {
  const { rows } = await client.query<{ child: string; parent: string }>(
    `SELECT c.relname AS child, p.relname AS parent FROM pg_constraint k
     JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE k.contype = 'f' AND n.nspname = $1 AND c.relname <> p.relname`,
    [SCHEMA],
  );
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
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    try {
      const columns = await columnsOf(client);
      const tables: TableManifest[] = (await insertOrder(client, [...columns.keys()])).map((name) => ({
        name,
        columns: columns.get(name)!.map((c) => c.name),
      }));
      const sequences: Record<string, SequenceExport> = {};
      for (const name of await sequencesOf(client)) {
        const { rows } = await client.query<{ last_value: string; is_called: boolean }>(
          `SELECT last_value::text, is_called FROM ${q(name)}`,
        );
        sequences[name] = { lastValue: rows[0]!.last_value, isCalled: rows[0]!.is_called };
      }
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
            const cols = columns
              .get(name)!
              .map((c) => (AS_TEXT.has(c.type) ? `"${c.name}"::text AS "${c.name}"` : `"${c.name}"`))
              .join(', ');
            await client.query(
              `DECLARE backup_rows NO SCROLL CURSOR FOR SELECT row_to_json(x)::text AS j FROM (SELECT ${cols} FROM ${q(name)}) x`,
            );
            for (;;) {
              const { rows } = await client.query<{ j: string }>(`FETCH ${ROWS_PER_RECORD} FROM backup_rows`);
              if (rows.length === 0) break;
              counts[name] += rows.length;
              yield rowsLine(
                name,
                rows.map((r) => r.j),
              );
            }
            await client.query('CLOSE backup_rows');
          }
          yield JSON.stringify({ kind: 'end', rows: counts } satisfies BackupRecord);
        })(),
      );
      await client.query('COMMIT');
      return { position, tables: tables.length, rows: Object.values(counts).reduce((a, b) => a + b, 0) };
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
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
    await this.client.query(`TRUNCATE ${names.map(q).join(', ')}`);
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
    const cols = this.current
      .get(table)!
      .map((c) => `"${c}"`)
      .join(', ');
    await this.client.query(
      `INSERT INTO ${q(table)} (${cols}) OVERRIDING SYSTEM VALUE SELECT ${cols} FROM json_populate_recordset(NULL::${q(table)}, $1::json)`,
      [JSON.stringify(rows)],
    );
  }

  /** every row the export counted arrived; then the sequences, which only move forward */
  private async finish(expected: Record<string, number>): Promise<void> {
    const names = this.meta!.tables.map((t) => t.name);
    if (Object.keys(expected).length !== names.length || names.some((n) => (this.counts.get(n) ?? 0) !== expected[n]))
      throw invalidBackup();
    // numbers this install already handed out are never handed out again
    for (const [name, theirs] of Object.entries(this.meta!.sequences)) {
      if (!theirs.isCalled) continue;
      await this.client.query(
        `SELECT setval('${q(name)}', $1::bigint, true) FROM ${q(name)} WHERE NOT is_called OR last_value < $1::bigint`,
        [theirs.lastValue],
      );
    }
  }
}

/** A restore drops the rooms whose lifetime has ended (the room service named them) from the directory too. */
export async function dropEndedRooms(client: PoolClient, ended: string[]): Promise<void> {
  if (ended.length) await client.query(`DELETE FROM ${q('rooms')} WHERE id = ANY($1::text[])`, [ended]);
}
