/**
 * One service's part of the service backup (proto backup-ports.ts): every table of its schema (but the ones it names
 * as not backed up), its sequences and its data keys as they are at rest, exported from one snapshot; restored by
 * staging the rows in a schema of their own and swapping them in, in one transaction, at importCommit. The rooms
 * whose lifetime has ended are dropped at the swap with everything of theirs (rows naming them in `workspace_id`,
 * and the tables the service names by room id) and their keys destroyed.
 */
import { DomainError, type BackupPartApi, type BackupPartRecord, type BackupWrappedKey } from '@ephemera/proto';
import type { Pool, PoolClient } from './pg.ts';
import { inTransaction } from './pg.ts';
import type { RoomKeyStore } from './crypto/key-store.ts';
import type { WrappedKey } from './crypto/master-key.ts';

const ROWS_PER_RECORD = 500;
/** rows sent in one import call stay small (a row larger than this goes alone; internal-listener.ts takes it) */
const MAX_IMPORT_BYTES = 48 * 1024;
const IDENT = /^[a-z_][a-z0-9_]{0,62}$/;
const AS_TEXT = new Set(['numeric', 'bigint', 'double precision', 'real', 'money']);
const invalid = () => new DomainError('BACKUP_INVALID');

export interface BackupPartOptions {
  pool: Pool;
  schema: string;
  /** tables not in the backup (credentials, caches): left as they are by a restore */
  skip?: string[];
  /** tables whose primary key `id` is a room's id (the room itself) */
  roomTables?: string[];
  /** the data keys this part holds (none: the part holds no keys) */
  keys?: RoomKeyStore;
  /** the ids of those keys, read inside the export's snapshot */
  keyIds?(client: PoolClient): Promise<string[]>;
  /** the staged rooms this part knows have ended by `now` (their lifetime over, or a live tombstone) */
  endedRooms?(client: PoolClient, staging: string, now: Date): Promise<string[]>;
  /**
   * After the swap, in its transaction (e.g. tombstones for the ended rooms, or rows of what was deleted after the
   * backup); the keys it names are not restored, and destroyed if present.
   */
  afterCommit?(client: PoolClient, ended: string[]): Promise<void | { droppedKeys: string[] }>;
}

const q = (schema: string, name: string) => `${schema}."${name}"`;

async function columnsOf(
  c: PoolClient,
  schema: string,
  skip: string[],
): Promise<Map<string, Array<{ name: string; type: string }>>> {
  const { rows } = await c.query<{ t: string; c: string; d: string }>(
    `SELECT c.table_name AS t, c.column_name AS c, c.data_type AS d FROM information_schema.columns c
     JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
     WHERE c.table_schema = $1 AND t.table_type = 'BASE TABLE' AND c.is_generated = 'NEVER' ORDER BY 1, c.ordinal_position`,
    [schema],
  );
  const tables = new Map<string, Array<{ name: string; type: string }>>();
  for (const r of rows)
    if (!skip.includes(r.t)) tables.set(r.t, [...(tables.get(r.t) ?? []), { name: r.c, type: r.d }]);
  return tables;
}

export class BackupPart implements BackupPartApi {
  private readonly staging: string;
  private meta: Extract<BackupPartRecord, { kind: 'meta' }> | null = null;
  private readonly counts = new Map<string, number>();

  constructor(private readonly o: BackupPartOptions) {
    this.staging = `${o.schema}_restore`;
  }

  async *exportPart(input: { createdAt: string }): AsyncGenerator<string> {
    const client = await this.o.pool.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const columns = await columnsOf(client, this.o.schema, this.o.skip ?? []);
      const { rows: seqs } = await client.query<{ s: string }>(
        'SELECT sequence_name AS s FROM information_schema.sequences WHERE sequence_schema = $1 ORDER BY 1',
        [this.o.schema],
      );
      const sequences: Record<string, { lastValue: string; isCalled: boolean }> = {};
      for (const { s } of seqs) {
        const { rows } = await client.query<{ v: string; c: boolean }>(
          `SELECT last_value::text AS v, is_called AS c FROM ${q(this.o.schema, s)}`,
        );
        sequences[s] = { lastValue: rows[0]!.v, isCalled: rows[0]!.c };
      }
      const tables = [...columns].map(([name, cols]) => ({ name, columns: cols.map((c) => c.name) }));
      yield JSON.stringify({
        kind: 'meta',
        createdAt: input.createdAt,
        schema: this.o.schema,
        position: { kind: 'unknown', logId: null },
        tables,
        sequences,
      } satisfies BackupPartRecord);
      const counts: Record<string, number> = {};
      for (const [name, cols] of columns) {
        counts[name] = 0;
        const list = cols
          .map((c) => (AS_TEXT.has(c.type) ? `"${c.name}"::text AS "${c.name}"` : `"${c.name}"`))
          .join(', ');
        await client.query(
          `DECLARE part_rows NO SCROLL CURSOR FOR SELECT row_to_json(x)::text AS j FROM (SELECT ${list} FROM ${q(this.o.schema, name)}) x`,
        );
        for (;;) {
          const { rows } = await client.query<{ j: string }>(`FETCH ${ROWS_PER_RECORD} FROM part_rows`);
          if (rows.length === 0) break;
          counts[name] += rows.length;
          yield `{"kind":"rows","table":${JSON.stringify(name)},"rows":[${rows.map((r) => r.j).join(',')}]}`;
        }
        await client.query('CLOSE part_rows');
      }
      const ids = this.o.keys ? ((await this.o.keyIds?.(client)) ?? []) : [];
      for (let i = 0; i < ids.length; i += ROWS_PER_RECORD) {
        const keys: BackupWrappedKey[] = [];
        for (const id of ids.slice(i, i + ROWS_PER_RECORD)) {
          const wrapped = await this.o.keys!.readWrapped?.(id);
          if (wrapped) keys.push({ id, wrapped }); // as at rest: never unwrapped here
        }
        if (keys.length) yield JSON.stringify({ kind: 'keys', keys } satisfies BackupPartRecord);
      }
      yield JSON.stringify({ kind: 'end', rows: counts } satisfies BackupPartRecord);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  async importBegin(input: { meta: Extract<BackupPartRecord, { kind: 'meta' }> }): Promise<{ ok: true }> {
    const meta = input.meta;
    const c = await this.o.pool.connect();
    try {
      const current = await columnsOf(c, this.o.schema, this.o.skip ?? []);
      if (meta?.schema !== this.o.schema || !Array.isArray(meta.tables) || meta.tables.length !== current.size)
        throw invalid();
      for (const t of await referencedFirst(c, this.o.schema, meta.tables)) {
        const cols = current.get(t.name)?.map((x) => x.name);
        if (!cols || cols.length !== t.columns.length || !cols.every((x) => t.columns.includes(x))) throw invalid();
      }
      await c.query(`DROP SCHEMA IF EXISTS ${this.staging} CASCADE`);
      await c.query(`CREATE SCHEMA ${this.staging}`);
      for (const t of meta.tables)
        await c.query(`CREATE TABLE ${q(this.staging, t.name)} (LIKE ${q(this.o.schema, t.name)})`);
      await c.query(`CREATE TABLE ${this.staging}."__keys" (id text PRIMARY KEY, wrapped json NOT NULL)`);
    } finally {
      c.release();
    }
    this.meta = meta;
    this.counts.clear();
    return { ok: true };
  }

  async importRows(input: { table: string; rows: Array<Record<string, unknown>> }): Promise<{ ok: true }> {
    const t = this.meta?.tables.find((x) => x.name === input.table);
    if (!t || !IDENT.test(t.name) || !Array.isArray(input.rows)) throw invalid();
    for (const row of input.rows)
      if (Object.keys(row).length !== t.columns.length || !t.columns.every((c) => Object.hasOwn(row, c)))
        throw invalid();
    this.counts.set(t.name, (this.counts.get(t.name) ?? 0) + input.rows.length);
    await this.refusing(() =>
      this.o.pool.query(
        `INSERT INTO ${q(this.staging, t.name)} SELECT * FROM json_populate_recordset(NULL::${q(this.staging, t.name)}, $1::json)`,
        [JSON.stringify(input.rows)],
      ),
    );
    return { ok: true };
  }

  async importKeys(input: { keys: BackupWrappedKey[] }): Promise<{ ok: true }> {
    if (!this.meta || !Array.isArray(input.keys)) throw invalid();
    // each key must open under this install's master key for its id: checked before anything is replaced
    for (const k of input.keys)
      if (typeof k?.id !== 'string' || k.wrapped?.v !== 1 || this.o.keys?.checkWrapped?.(k.id, k.wrapped) === false)
        throw invalid();
    await this.refusing(() =>
      this.o.pool.query(
        `INSERT INTO ${this.staging}."__keys" (id, wrapped) SELECT id, wrapped FROM json_to_recordset($1::json) AS x(id text, wrapped json)`,
        [JSON.stringify(input.keys)],
      ),
    );
    return { ok: true };
  }

  async importEnded(input: { now: string }): Promise<{ endedRooms: string[] }> {
    const now = new Date(input.now);
    if (!this.meta || Number.isNaN(now.getTime())) throw invalid();
    const c = await this.o.pool.connect();
    try {
      return { endedRooms: (await this.o.endedRooms?.(c, this.staging, now)) ?? [] };
    } finally {
      c.release();
    }
  }

  async importCommit(input: { rows: Record<string, number>; endedRooms: string[] }): Promise<{ rows: number }> {
    const meta = this.meta;
    if (!meta || meta.tables.some((t) => (this.counts.get(t.name) ?? 0) !== input.rows?.[t.name])) throw invalid();
    if (!Array.isArray(input.endedRooms) || input.endedRooms.some((id) => typeof id !== 'string')) throw invalid();
    const { ended, keys } = await inTransaction(this.o.pool, async (c) => {
      const ended = [...new Set(input.endedRooms)];
      const names = meta.tables.map((t) => t.name);
      await c.query(`TRUNCATE ${names.map((n) => q(this.o.schema, n)).join(', ')}`);
      for (const t of await referencedFirst(c, this.o.schema, meta.tables)) {
        const cols = t.columns.map((x) => `"${x}"`).join(', ');
        const where = t.columns.includes('workspace_id')
          ? 'WHERE NOT (workspace_id = ANY($1::text[]))'
          : this.o.roomTables?.includes(t.name)
            ? 'WHERE NOT (id = ANY($1::text[]))'
            : 'WHERE $1::text[] IS NOT NULL';
        await c.query(
          `INSERT INTO ${q(this.o.schema, t.name)} (${cols}) OVERRIDING SYSTEM VALUE SELECT ${cols} FROM ${q(this.staging, t.name)} ${where}`,
          [ended],
        );
      }
      for (const [name, s] of Object.entries(meta.sequences ?? {})) {
        if (!IDENT.test(name) || !s.isCalled) continue; // numbers already handed out are never handed out again
        await c.query(
          `SELECT setval('${q(this.o.schema, name)}', $1::bigint, true) FROM ${q(this.o.schema, name)} WHERE NOT is_called OR last_value < $1::bigint`,
          [s.lastValue],
        );
      }
      const dropped = (await this.o.afterCommit?.(c, ended))?.droppedKeys ?? [];
      const { rows: keys } = await c.query<{ id: string; wrapped: WrappedKey }>(
        `SELECT id, wrapped FROM ${this.staging}."__keys" WHERE NOT (id = ANY($1::text[]))`,
        [[...ended, ...dropped]],
      );
      return { ended: [...ended, ...dropped], keys };
    }).catch((err: unknown) => {
      throw refusesData(err) ? invalid() : err;
    });
    for (const k of keys) await this.o.keys?.importWrapped?.(k.id, k.wrapped);
    for (const id of ended) await this.o.keys?.destroy(id); // an ended room's (or deleted account's) key stays gone
    await this.o.pool.query(`DROP SCHEMA IF EXISTS ${this.staging} CASCADE`);
    this.meta = null;
    return { rows: [...this.counts.values()].reduce((a, b) => a + b, 0) };
  }

  private async refusing<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw refusesData(err) ? invalid() : err;
    }
  }
}

/** Referenced tables before those that reference them (foreign keys inside the schema). */
async function referencedFirst<T extends { name: string }>(c: PoolClient, schema: string, tables: T[]): Promise<T[]> {
  const { rows } = await c.query<{ child: string; parent: string }>(
    `SELECT ch.relname AS child, pa.relname AS parent FROM pg_constraint k
     JOIN pg_class ch ON ch.oid = k.conrelid JOIN pg_class pa ON pa.oid = k.confrelid JOIN pg_namespace n ON n.oid = ch.relnamespace
     WHERE k.contype = 'f' AND n.nspname = $1 AND ch.relname <> pa.relname`,
    [schema],
  );
  const ordered: T[] = [];
  const visit = (t: T, path: Set<string>) => {
    if (ordered.includes(t) || path.has(t.name)) return;
    path.add(t.name);
    for (const r of rows)
      if (r.child === t.name) {
        const parent = tables.find((x) => x.name === r.parent);
        if (parent) visit(parent, path);
      }
    ordered.push(t);
  };
  for (const t of tables) visit(t, new Set());
  return ordered;
}

/** PostgreSQL refusing the data (a wrong type, a null where none may be, a duplicate key): the file is bad. */
const refusesData = (err: unknown) => /^(22|23)/.test(String((err as { code?: unknown })?.code ?? ''));

/** The import's records cut so each call's body stays small (a row larger than the limit goes alone). */
export function importBatches(rows: Array<Record<string, unknown>>): Array<Array<Record<string, unknown>>> {
  const out: Array<Array<Record<string, unknown>>> = [];
  let batch: Array<Record<string, unknown>> = [];
  let bytes = 0;
  for (const row of rows) {
    const size = JSON.stringify(row).length + 1;
    if (batch.length && bytes + size > MAX_IMPORT_BYTES) {
      out.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(row);
    bytes += size;
  }
  if (batch.length) out.push(batch);
  return out;
}
