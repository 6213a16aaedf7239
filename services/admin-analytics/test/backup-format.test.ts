/** The backup file (system/backup/format.ts, records.ts): what opens, and every way a file is refused. */
import { describe, it, expect, afterAll } from 'vitest';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DomainError } from '@ephemera/proto';
import { BACKUP_FORMAT, BACKUP_VERSION, readBackupFile, writeBackupFile } from '../src/system/backup/format.ts';
import type { BackupRecord } from '../src/system/backup/records.ts';

const key = randomBytes(32);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'backup-format-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fileName = () => path.join(dir, `b${++n}.json`);

const CREATED = '2025-01-31T12:00:00.000Z';
const meta: BackupRecord = {
  kind: 'meta',
  createdAt: CREATED,
  schema: 'admin',
  position: {
    kind: 'embedded',
    logId: 'embedded:x',
    group: 'admin-analytics',
    head: '7',
    offsets: [{ topics: 'a,b', position: '7' }],
  },
  tables: [
    { name: 'audit', columns: ['event_id', 'action'] },
    { name: 'config', columns: ['id'] },
  ],
  sequences: { event_seq: { lastValue: '12', isCalled: true } },
};
/** random text, so compression cannot shrink the file under several 64 KiB segments */
const auditRows = (count: number) =>
  Array.from({ length: count }, () => ({
    event_id: randomBytes(16).toString('hex'),
    action: randomBytes(40).toString('base64'),
  }));
const recordsOf = (rows: Array<Record<string, unknown>>): BackupRecord[] => [
  meta,
  ...Array.from({ length: Math.ceil(rows.length / 1000) }, (_, i): BackupRecord => ({
    kind: 'rows',
    table: 'audit',
    rows: rows.slice(i * 1000, i * 1000 + 1000),
  })),
  { kind: 'end', rows: { audit: rows.length, config: 0 } },
];

async function* linesOf(records: Array<BackupRecord | string>) {
  for (const r of records) yield typeof r === 'string' ? r : JSON.stringify(r);
}
async function write(records: Array<BackupRecord | string>, createdAt = CREATED, file = fileName()): Promise<string> {
  await writeBackupFile(file, key, createdAt, linesOf(records));
  return file;
}
async function read(file: string, withKey = key): Promise<BackupRecord[]> {
  const out: BackupRecord[] = [];
  await readBackupFile(file, withKey, async (r) => {
    out.push(r);
  });
  return out;
}
const refused = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    return err instanceof DomainError && err.code === 'BACKUP_INVALID' && err.status === 400;
  }
  return false;
};
/** a copy of `file` with its lines changed by `edit` */
const edited = (file: string, edit: (lines: string[]) => string[]) => {
  const out = fileName();
  fs.writeFileSync(out, edit(fs.readFileSync(file, 'utf8').split('\n')).join('\n'));
  return out;
};

describe('backup file format', () => {
  const rows = auditRows(5000);
  const records = recordsOf(rows);
  let file: string;

  it('opens what it sealed, record for record: a JSON document of several sealed segments', async () => {
    file = await write(records);
    const text = fs.readFileSync(file, 'utf8');
    const doc = JSON.parse(text);
    expect(Object.keys(doc)).toEqual(['format', 'version', 'createdAt', 'file', 'chunks', 'checksum']);
    expect(doc).toMatchObject({
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt: CREATED,
      checksum: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(doc.chunks.length).toBeGreaterThan(3);
    expect(text).not.toContain(rows[0]!.event_id); // the rows are encrypted
    expect(await read(file)).toEqual(records);
    expect(await readBackupFile(file, key, async () => {})).toEqual({ createdAt: CREATED });
  });

  it("refuses another install's key", async () => {
    expect(await refused(read(file, randomBytes(32)))).toBe(true);
  });

  it('refuses any one byte of a segment changed', async () => {
    for (const line of [1, 2, -4]) {
      const bad = edited(file, (lines) => {
        const at = line < 0 ? lines.length + line : line;
        const chunk = Buffer.from(lines[at]!.replace(/^"|",?$/g, ''), 'base64');
        chunk[chunk.length >> 1] ^= 0x01;
        lines[at] = `"${chunk.toString('base64')}"${lines[at]!.endsWith(',') ? ',' : ''}`;
        return lines;
      });
      expect(await refused(read(bad)), `line ${line}`).toBe(true);
    }
  });

  it('refuses segments swapped, dropped, cut short, or taken from another backup', async () => {
    const other = await write(records); // same time, same rows: only the file id differs
    const otherLines = fs.readFileSync(other, 'utf8').split('\n');
    const variants: Array<[string, (l: string[]) => string[]]> = [
      ['swapped', (l) => [l[0]!, l[2]!, l[1]!, ...l.slice(3)]],
      ['one dropped', (l) => [l[0]!, ...l.slice(2)]],
      ['the last dropped', (l) => [...l.slice(0, -4), l[l.length - 4]!.replace(/,$/, ''), ...l.slice(-2)]],
      ['cut short', (l) => l.slice(0, -3)],
      ['a segment of another backup', (l) => [l[0]!, otherLines[1]!, ...l.slice(2)]],
    ];
    for (const [name, edit] of variants) expect(await refused(read(edited(file, edit))), name).toBe(true);
  });

  it('refuses a changed checksum, creation time, version or file id, anything after the document, and other layouts', async () => {
    const variants: Array<[string, (l: string[]) => string[]]> = [
      [
        'checksum',
        (l) => l.map((x) => x.replace(/"checksum":"(.)/, (_m, c: string) => `"checksum":"${c === '0' ? '1' : '0'}`)),
      ],
      ['createdAt', (l) => [l[0]!.replace(CREATED, '2025-01-31T12:00:01.000Z'), ...l.slice(1)]],
      ['version', (l) => [l[0]!.replace(`"version":${BACKUP_VERSION}`, '"version":1'), ...l.slice(1)]],
      [
        'file id',
        (l) => [l[0]!.replace(/"file":"(.)/, (_m, c: string) => `"file":"${c === 'a' ? 'b' : 'a'}`), ...l.slice(1)],
      ],
      ['extra field', (l) => [l[0]!.replace('"chunks"', '"extra":1,"chunks"'), ...l.slice(1)]],
      ['trailing data', (l) => [...l, '{}']],
      ['reformatted', (l) => [JSON.stringify(JSON.parse(l.join('\n')), null, 2)]],
    ];
    for (const [name, edit] of variants) expect(await refused(read(edited(file, edit))), name).toBe(true);
  });

  it('refuses what is not a backup at all', async () => {
    for (const raw of [
      '',
      'not json',
      '[]',
      'null',
      '{"format":"ephemera-admin-backup"}',
      '\u0000\u0001',
      'x'.repeat(300_000),
    ]) {
      const bad = fileName();
      fs.writeFileSync(bad, raw);
      expect(await refused(read(bad)), raw.slice(0, 20)).toBe(true);
    }
  });

  it('refuses sealed content that is not meta, rows…, end', async () => {
    const rowsRecord: BackupRecord = { kind: 'rows', table: 'audit', rows: rows.slice(0, 2) };
    const end: BackupRecord = { kind: 'end', rows: { audit: 2, config: 0 } };
    const variants: Array<[string, Array<BackupRecord | string>, string?]> = [
      ['no meta first', [rowsRecord, meta, end]],
      ['no end', [meta, rowsRecord]],
      ['after end', [meta, end, rowsRecord]],
      ['two metas', [meta, meta, end]],
      ['not JSON', [meta, 'not json', end]],
      ['a bad table name', [meta, { kind: 'rows', table: 'audit"; DROP TABLE x; --', rows: [] }, end]],
      ['an unknown kind', [meta, '{"kind":"sql","text":"DROP TABLE admin.audit"}', end]],
      ['meta of another time', [meta, end], '2025-01-31T12:00:01.000Z'],
    ];
    for (const [name, content, createdAt] of variants)
      expect(await refused(read(await write(content, createdAt))), name).toBe(true);
  });
});
