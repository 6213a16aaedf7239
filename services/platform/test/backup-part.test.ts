/**
 * A service's part of the backup (src/backup-part.ts) against real PostgreSQL and a real key store: export, restore
 * into emptied tables (foreign keys in order), rooms named ended dropped with their rows and keys, the keys written
 * back as they were at rest; and a bad part (another schema's tables, a row that does not fit, missing rows) is
 * refused with BACKUP_INVALID and changes nothing (docs/administration.md "Backups that restore the service").
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DomainError, type BackupPartRecord } from '@ephemera/proto';
import { createTestDatabase } from '../../../test/helpers/db.ts';
import { createPool, type Pool } from '../src/pg.ts';
import { BackupPart } from '../src/backup-part.ts';
import { fileRoomKeys } from '../src/crypto/owned.ts';

let pool: Pool;
let dir: string;
const keys = () => fileRoomKeys(dir, Buffer.alloc(32, 7));

async function exported(part: BackupPart): Promise<BackupPartRecord[]> {
  const out: BackupPartRecord[] = [];
  for await (const line of part.exportPart({ createdAt: new Date().toISOString() }))
    out.push(JSON.parse(line) as BackupPartRecord);
  return out;
}

async function restore(part: BackupPart, records: BackupPartRecord[], endedRooms: string[] = []) {
  let ends: Record<string, number> = {};
  for (const r of records) {
    if (r.kind === 'meta') await part.importBegin({ meta: r });
    else if (r.kind === 'rows') await part.importRows({ table: r.table, rows: r.rows });
    else if (r.kind === 'keys') await part.importKeys({ keys: r.keys });
    else ends = r.rows;
  }
  const ended = [
    ...new Set([...endedRooms, ...(await part.importEnded({ now: new Date().toISOString() })).endedRooms]),
  ];
  return { ended, ...(await part.importCommit({ rows: ends, endedRooms: ended })) };
}

const invalid = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    return err instanceof DomainError && err.code === 'BACKUP_INVALID';
  }
  return false;
};
const dump = async () =>
  (
    await pool.query<{ j: string }>(
      "SELECT json_agg(x ORDER BY x.id)::text AS j FROM (SELECT 'w' || id AS id, expires_at::text AS v FROM bp.workspaces UNION ALL SELECT 'm' || workspace_id || user_id, name FROM bp.members) x",
    )
  ).rows[0]!.j;

describe("a service's backup part", () => {
  beforeAll(async () => {
    pool = createPool(await createTestDatabase(), 4);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'backup-part-keys-'));
    await pool.query(`CREATE SCHEMA bp;
      CREATE TABLE bp.workspaces (id text PRIMARY KEY, expires_at timestamptz);
      CREATE TABLE bp.members (workspace_id text NOT NULL REFERENCES bp.workspaces (id) ON DELETE CASCADE, user_id text NOT NULL, name text NOT NULL, PRIMARY KEY (workspace_id, user_id));
      CREATE TABLE bp.counter (id bigserial PRIMARY KEY, note text)`);
  }, 60_000);
  afterAll(async () => {
    await pool?.end();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const part = () =>
    new BackupPart({
      pool,
      schema: 'bp',
      keys: keys().store,
      roomTables: ['workspaces'],
      keyIds: async (c) => (await c.query<{ id: string }>('SELECT id FROM bp.workspaces')).rows.map((r) => r.id),
      endedRooms: async (c, staging, now) =>
        (await c.query<{ id: string }>(`SELECT id FROM ${staging}.workspaces WHERE expires_at <= $1`, [now])).rows.map(
          (r) => r.id,
        ),
    });

  it("exports and restores: ended rooms dropped with their rows and keys, the others' keys back as at rest", async () => {
    const k = keys();
    await k.store.create('alive');
    await k.store.create('ended');
    await pool.query(`INSERT INTO bp.workspaces VALUES ('alive', now() + interval '1 day'), ('ended', now() + interval '1 second');
      INSERT INTO bp.members VALUES ('alive', 'u1', 'ann'), ('ended', 'u2', 'bob'); INSERT INTO bp.counter (note) VALUES ('a'), ('b')`);
    const atRest = fs.readFileSync(path.join(dir, 'alive.key'), 'utf8');
    const records = await exported(part());
    expect(records.map((r) => r.kind)).toEqual(['meta', 'rows', 'rows', 'rows', 'keys', 'end']);
    expect(JSON.stringify(records)).toContain(JSON.parse(atRest).wrapped); // wrapped, as on disk
    await new Promise((r) => setTimeout(r, 1100)); // 'ended' is past its lifetime now
    await pool.query('TRUNCATE bp.workspaces, bp.members, bp.counter CASCADE');
    fs.rmSync(path.join(dir, 'alive.key'));
    const done = await restore(part(), records);
    expect(done).toMatchObject({ ended: ['ended'], rows: 6 });
    expect((await pool.query('SELECT id FROM bp.workspaces')).rows).toEqual([{ id: 'alive' }]);
    expect((await pool.query('SELECT workspace_id FROM bp.members')).rows).toEqual([{ workspace_id: 'alive' }]);
    expect(fs.readFileSync(path.join(dir, 'alive.key'), 'utf8')).toBe(atRest);
    expect(fs.existsSync(path.join(dir, 'ended.key'))).toBe(false);
    expect(await keys().store.get('alive')).not.toBeNull();
    // the sequence moved forward: a new row takes a number the restored rows do not have
    expect(
      (await pool.query<{ id: string }>("INSERT INTO bp.counter (note) VALUES ('c') RETURNING id::text")).rows[0]!.id,
    ).toBe('3');
  });

  it('a bad part is refused with BACKUP_INVALID and changes nothing', async () => {
    const records = await exported(part());
    const before = await dump();
    const meta = records[0] as Extract<BackupPartRecord, { kind: 'meta' }>;
    const end = records.at(-1) as Extract<BackupPartRecord, { kind: 'end' }>;
    const withRows = (rows: Array<Record<string, unknown>>) => [
      meta,
      { kind: 'rows', table: 'members', rows } as BackupPartRecord,
      end,
    ];
    const cases: Array<[string, BackupPartRecord[]]> = [
      ['another schema', [{ ...meta, schema: 'other' }, end]],
      ['a table missing', [{ ...meta, tables: meta.tables.slice(1) }, end]],
      ['a column missing', withRows([{ workspace_id: 'alive', user_id: 'u9' }])],
      [
        'a wrong type',
        [meta, { kind: 'rows', table: 'workspaces', rows: [{ id: 'x', expires_at: 'not a time' }] }, end],
      ],
      ['rows missing', [meta, end]],
      ['an unknown table', [meta, { kind: 'rows', table: 'secrets', rows: [] } as BackupPartRecord, end]],
      [
        "a key that is not this install's",
        [
          meta,
          ...records.slice(1, -1).filter((r) => r.kind !== 'keys'),
          { kind: 'keys', keys: [{ id: 'alive', wrapped: { v: 1, kid: 'nope', wrapped: 'AAAA' } }] },
          end,
        ],
      ],
    ];
    for (const [name, bad] of cases) {
      expect(await invalid(restore(part(), bad)), name).toBe(true);
      expect(await dump(), name).toBe(before);
    }
  });
});
