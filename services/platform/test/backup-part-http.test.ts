/**
 * A backup part over the internal listener (distributed mode; src/backup-part-http.ts): a row larger than the
 * listener's usual body limit (64 kB) is exported and imported whole, through a real internal listener with the
 * service credential and real PostgreSQL (docs/administration.md "Backups that restore the service").
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { BackupPartApi, BackupPartRecord } from '@ephemera/proto';
import { createTestDatabase } from '../../../test/helpers/db.ts';
import { createPool, type Pool } from '../src/pg.ts';
import { BackupPart, importBatches } from '../src/backup-part.ts';
import { backupPartClient, backupPartRouter } from '../src/backup-part-http.ts';
import { internalApp } from '../src/internal-listener.ts';
import { serviceCredential } from '../src/service-credential.ts';
import { createLogger } from '../src/log.ts';

const SECRET = Buffer.alloc(48, 9);
/** a quarter of a megabyte in one row: four times the listener's usual limit */
const BIG = 'x'.repeat(256 * 1024);

let pool: Pool;
let server: http.Server;
let client: BackupPartApi;

describe('a backup part over the internal listener', () => {
  beforeAll(async () => {
    pool = createPool(await createTestDatabase(), 4);
    await pool.query(`CREATE SCHEMA bph;
      CREATE TABLE bph.workspaces (id text PRIMARY KEY);
      CREATE TABLE bph.notes (workspace_id text NOT NULL REFERENCES bph.workspaces (id), body text NOT NULL)`);
    const part = new BackupPart({ pool, schema: 'bph', roomTables: ['workspaces'] });
    const app = internalApp({
      port: 0,
      secret: SECRET,
      routers: [backupPartRouter('room', part)],
      logger: createLogger('backup-part-http', 'silent'),
      jsonLimit: '64kb',
    });
    server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    client = backupPartClient(`http://127.0.0.1:${port}`, serviceCredential('admin-analytics', SECRET), 'room');
  }, 60_000);
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await pool?.end();
  });

  it('a row of 256 KiB goes out and comes back whole', async () => {
    await pool.query("INSERT INTO bph.workspaces (id) VALUES ('w1')");
    await pool.query("INSERT INTO bph.notes (workspace_id, body) VALUES ('w1', $1), ('w1', 'small')", [BIG]);
    const records: BackupPartRecord[] = [];
    for await (const line of client.exportPart({ createdAt: new Date().toISOString() }))
      records.push(JSON.parse(line) as BackupPartRecord);
    await pool.query('DELETE FROM bph.notes; DELETE FROM bph.workspaces');

    let ends: Record<string, number> = {};
    for (const r of records) {
      if (r.kind === 'meta') await client.importBegin({ meta: r });
      else if (r.kind === 'rows')
        for (const rows of importBatches(r.rows)) await client.importRows({ table: r.table, rows });
      else if (r.kind === 'end') ends = r.rows;
    }
    await client.importCommit({ rows: ends, endedRooms: [] });
    const { rows } = await pool.query<{ n: number }>('SELECT length(body) AS n FROM bph.notes ORDER BY 1');
    expect(rows.map((r) => r.n)).toEqual([5, BIG.length]);
  });
});
