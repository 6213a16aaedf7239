/**
 * Schema admin as the backup's snapshot reads and replaces it (snapshot.ts): the catalog (its tables, writable
 * columns, sequences and foreign keys), the read-only snapshot transaction, a table's rows through a cursor, and the
 * restore's writes (emptying the tables, inserting rows, moving sequences forward, dropping ended rooms). Every one
 * takes the caller's client: the export's reads stay in its one snapshot, the restore's writes in its transaction.
 */
import type { PoolClient } from '@ephemera/platform';

const SCHEMA = 'admin';
const q = (name: string) => `${SCHEMA}."${name.replaceAll('"', '""')}"`;

/**
 * Numbers leave as text: JSON numbers pass through JavaScript's doubles, which would turn numeric 18.00 into 18 and
 * round a bigint past 2^53; PostgreSQL parses the text back with the column's type.
 */
const AS_TEXT = new Set(['numeric', 'bigint', 'double precision', 'real', 'money']);

type Column = { name: string; type: string };

/** the schema's tables and their writable columns with their types, in column order */
export async function columnsOf(client: PoolClient): Promise<Map<string, Column[]>> {
  const { rows } = await client.query<{ table_name: string; column_name: string; data_type: string }>(
    `SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c
     JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
     WHERE c.table_schema = $1 AND t.table_type = 'BASE TABLE' AND c.is_generated = 'NEVER'
     ORDER BY c.table_name, c.ordinal_position`,
    [SCHEMA],
  );
  const tables = new Map<string, Column[]>();
  for (const r of rows)
    tables.set(r.table_name, [...(tables.get(r.table_name) ?? []), { name: r.column_name, type: r.data_type }]);
  return tables;
}

/** the schema's sequences, by name */
export async function sequencesOf(client: PoolClient): Promise<string[]> {
  const { rows } = await client.query<{ sequence_name: string }>(
    'SELECT sequence_name FROM information_schema.sequences WHERE sequence_schema = $1 ORDER BY sequence_name',
    [SCHEMA],
  );
  return rows.map((r) => r.sequence_name);
}

/** the foreign keys between two different tables of the schema: which table references which */
export async function foreignKeysOf(client: PoolClient): Promise<Array<{ child: string; parent: string }>> {
  const { rows } = await client.query<{ child: string; parent: string }>(
    `SELECT c.relname AS child, p.relname AS parent FROM pg_constraint k
     JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE k.contype = 'f' AND n.nspname = $1 AND c.relname <> p.relname`,
    [SCHEMA],
  );
  return rows;
}

/** a sequence's state: its last value (as text) and whether it was handed out */
export async function sequenceState(
  client: PoolClient,
  name: string,
): Promise<{ lastValue: string; isCalled: boolean }> {
  const { rows } = await client.query<{ last_value: string; is_called: boolean }>(
    `SELECT last_value::text, is_called FROM ${q(name)}`,
  );
  return { lastValue: rows[0]!.last_value, isCalled: rows[0]!.is_called };
}

/** the export's one REPEATABLE READ READ ONLY transaction, and its end */
export async function beginReadOnlySnapshot(client: PoolClient): Promise<void> {
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
}
export async function commitSnapshot(client: PoolClient): Promise<void> {
  await client.query('COMMIT');
}
export async function rollbackSnapshot(client: PoolClient): Promise<void> {
  await client.query('ROLLBACK');
}

/** opens the cursor over a table's rows, each as row_to_json's text (numbers as text: AS_TEXT) */
export async function openRowsCursor(client: PoolClient, table: string, columns: Column[]): Promise<void> {
  const cols = columns
    .map((c) => (AS_TEXT.has(c.type) ? `"${c.name}"::text AS "${c.name}"` : `"${c.name}"`))
    .join(', ');
  await client.query(
    `DECLARE backup_rows NO SCROLL CURSOR FOR SELECT row_to_json(x)::text AS j FROM (SELECT ${cols} FROM ${q(table)}) x`,
  );
}

/** the cursor's next `count` rows, as JSON text; none once it is done */
export async function fetchRows(client: PoolClient, count: number): Promise<string[]> {
  const { rows } = await client.query<{ j: string }>(`FETCH ${count} FROM backup_rows`);
  return rows.map((r) => r.j);
}

export async function closeRowsCursor(client: PoolClient): Promise<void> {
  await client.query('CLOSE backup_rows');
}

/** empties the tables (the restore, in its transaction) */
export async function truncateTables(client: PoolClient, names: string[]): Promise<void> {
  await client.query(`TRUNCATE ${names.map(q).join(', ')}`);
}

/** inserts rows given as JSON objects, each value parsed with its column's type (json_populate_recordset) */
export async function insertRows(
  client: PoolClient,
  table: string,
  columns: string[],
  rows: Array<Record<string, unknown>>,
): Promise<void> {
  const cols = columns.map((c) => `"${c}"`).join(', ');
  await client.query(
    `INSERT INTO ${q(table)} (${cols}) OVERRIDING SYSTEM VALUE SELECT ${cols} FROM json_populate_recordset(NULL::${q(table)}, $1::json)`,
    [JSON.stringify(rows)],
  );
}

/** moves a sequence to `lastValue` (handed out) unless it already stands there or past it */
export async function advanceSequence(client: PoolClient, name: string, lastValue: string): Promise<void> {
  await client.query(
    `SELECT setval('${q(name)}', $1::bigint, true) FROM ${q(name)} WHERE NOT is_called OR last_value < $1::bigint`,
    [lastValue],
  );
}

/** A restore drops the rooms whose lifetime has ended (the room service named them) from the directory too. */
export async function dropEndedRooms(client: PoolClient, ended: string[]): Promise<void> {
  if (ended.length) await client.query(`DELETE FROM ${q('rooms')} WHERE id = ANY($1::text[])`, [ended]);
}
