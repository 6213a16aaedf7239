/**
 * The logical export and its restore: every table of schema admin (every part's read models, processed_events
 * included, so the restore knows exactly which events it holds) and its sequences.
 *  - export: one REPEATABLE READ READ ONLY transaction, so every table (and, embedded, the log position) is read
 *    from one snapshot; rows as PostgreSQL's row_to_json gives them, so every type comes back as it went out.
 *  - restore: the tables must be the ones this install has, column for column; then, in one transaction, every
 *    table is emptied and refilled (json_populate_recordset: PostgreSQL parses each value with the column's type)
 *    and the sequences moved forward. Any refusal rolls everything back.
 */
import { inTransaction, type Pool, type PoolClient } from '@ephemera/platform';
import { invalidBackup, type BackupContent, type SequenceExport, type TableExport } from './format.ts';
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
     ORDER BY c.table_name, c.ordinal_position`, [SCHEMA]);
  const tables = new Map<string, Array<{ name: string; type: string }>>();
  for (const r of rows) tables.set(r.table_name, [...(tables.get(r.table_name) ?? []), { name: r.column_name, type: r.data_type }]);
  return tables;
}

async function sequencesOf(client: PoolClient): Promise<string[]> {
  const { rows } = await client.query<{ sequence_name: string }>(
    'SELECT sequence_name FROM information_schema.sequences WHERE sequence_schema = $1 ORDER BY sequence_name', [SCHEMA]);
  return rows.map((r) => r.sequence_name);
}

/** Referenced tables before those that reference them (foreign keys inside the schema), else by name. */
async function insertOrder(client: PoolClient, names: string[]): Promise<string[]> {
  const { rows } = await client.query<{ child: string; parent: string }>(
    `SELECT c.relname AS child, p.relname AS parent FROM pg_constraint k
     JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE k.contype = 'f' AND n.nspname = $1 AND c.relname <> p.relname`, [SCHEMA]);
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

export interface Snapshot { position: LogPosition; tables: Record<string, TableExport>; sequences: Record<string, SequenceExport> }

export async function exportSnapshot(pool: Pool, kafka: KafkaLocation | undefined): Promise<Snapshot> {
  // Kafka's committed offsets are read first: every event they cover was applied before the snapshot begins.
  const client = await pool.connect();
  try {
    const embedded = await hasEmbeddedLog(client);
    const kafkaAt = !embedded && kafka ? await kafkaPosition(kafka) : null;
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    try {
      const tables: Record<string, TableExport> = {};
      for (const [name, columns] of await columnsOf(client)) {
        const cols = columns.map((c) => (AS_TEXT.has(c.type) ? `"${c.name}"::text AS "${c.name}"` : `"${c.name}"`)).join(', ');
        const { rows } = await client.query<{ rows: Array<Record<string, unknown>> }>(
          `SELECT coalesce(json_agg(x ORDER BY x::text), '[]'::json) AS rows FROM (SELECT ${cols} FROM ${q(name)}) x`);
        tables[name] = { columns: columns.map((c) => c.name), rows: rows[0]!.rows };
      }
      const sequences: Record<string, SequenceExport> = {};
      for (const name of await sequencesOf(client)) {
        const { rows } = await client.query<{ last_value: string; is_called: boolean }>(`SELECT last_value::text, is_called FROM ${q(name)}`);
        sequences[name] = { lastValue: rows[0]!.last_value, isCalled: rows[0]!.is_called };
      }
      const position: LogPosition = embedded ? await embeddedPosition(client) : kafkaAt ?? { kind: 'unknown', logId: null };
      await client.query('COMMIT');
      return { position, tables, sequences };
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

/** Replaces every admin table with the backup's in one transaction; BACKUP_INVALID (nothing changed) if it does not fit. */
export async function restoreSnapshot(pool: Pool, content: BackupContent): Promise<void> {
  await inTransaction(pool, async (client) => {
    const current = await tablesOf(client);
    const names = Object.keys(content.tables);
    if (names.length !== current.size) throw invalidBackup();
    for (const name of names) {
      const columns = current.get(name);
      const theirs = content.tables[name]!.columns;
      if (!columns || columns.length !== theirs.length || !columns.every((c) => theirs.includes(c))) throw invalidBackup();
    }
    const sequences = await sequencesOf(client);
    if (!Object.keys(content.sequences).every((s) => sequences.includes(s))) throw invalidBackup();
    try {
      await client.query(`TRUNCATE ${names.map(q).join(', ')}`);
      for (const name of await insertOrder(client, names)) {
        const { rows } = content.tables[name]!;
        if (rows.length === 0) continue;
        const cols = current.get(name)!.map((c) => `"${c}"`).join(', ');
        await client.query(
          `INSERT INTO ${q(name)} (${cols}) OVERRIDING SYSTEM VALUE SELECT ${cols} FROM json_populate_recordset(NULL::${q(name)}, $1::json)`,
          [JSON.stringify(rows)]);
      }
    } catch (err) {
      if (refusesData(err)) throw invalidBackup();
      throw err;
    }
    // Sequences only move forward: numbers this install already handed out are never handed out again.
    for (const [name, theirs] of Object.entries(content.sequences)) {
      if (!theirs.isCalled) continue;
      await client.query(
        `SELECT setval('${q(name)}', $1::bigint, true) FROM ${q(name)} WHERE NOT is_called OR last_value < $1::bigint`, [theirs.lastValue]);
    }
  });
}
