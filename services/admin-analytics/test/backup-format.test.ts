/** The backup file's envelope (system/backup/format.ts): what opens, and every way a file is refused. */
import { describe, it, expect } from 'vitest';
import { randomBytes } from 'node:crypto';
import { DomainError } from '@ephemera/proto';
import { BACKUP_FORMAT, BACKUP_VERSION, openBackup, sealBackup, type BackupContent } from '../src/system/backup/format.ts';

const key = randomBytes(32);
const content = (): BackupContent => ({
  format: BACKUP_FORMAT, version: BACKUP_VERSION, createdAt: '2025-01-31T12:00:00.000Z', schema: 'admin',
  position: { kind: 'embedded', logId: 'embedded:x', group: 'admin-analytics', head: '7', offsets: [{ topics: 'a,b', position: '7' }] },
  tables: { audit: { columns: ['event_id', 'action'], rows: [{ event_id: 'e1', action: 'config.changed' }] }, config: { columns: ['id'], rows: [] } },
  sequences: { event_seq: { lastValue: '12', isCalled: true } },
});
const refused = (fn: () => unknown) => {
  try { fn(); } catch (err) { return err instanceof DomainError && err.code === 'BACKUP_INVALID' && err.status === 400; }
  return false;
};

describe('backup file format', () => {
  it('opens what it sealed, under the same key', () => {
    const file = sealBackup(content(), key);
    const envelope = JSON.parse(file.toString());
    expect(Object.keys(envelope).sort()).toEqual(['checksum', 'ciphertext', 'createdAt', 'format', 'version']);
    expect(envelope.checksum).toMatch(/^[0-9a-f]{64}$/);
    expect(file.toString()).not.toContain('config.changed'); // the rows are encrypted
    expect(openBackup(file, key)).toEqual(content());
  });

  it('refuses another install\'s key', () => {
    expect(refused(() => openBackup(sealBackup(content(), key), randomBytes(32)))).toBe(true);
  });

  it('refuses a file with any one byte of the ciphertext changed', () => {
    const envelope = JSON.parse(sealBackup(content(), key).toString());
    const bytes = Buffer.from(envelope.ciphertext, 'base64');
    for (const at of [0, 13, bytes.length >> 1, bytes.length - 1]) {
      const changed = Buffer.from(bytes);
      changed[at] ^= 0x01;
      expect(refused(() => openBackup(Buffer.from(JSON.stringify({ ...envelope, ciphertext: changed.toString('base64') })), key)), `byte ${at}`).toBe(true);
    }
  });

  it('refuses a changed checksum, creation time, format or version, and extra fields', () => {
    const envelope = JSON.parse(sealBackup(content(), key).toString());
    const variants = [
      { ...envelope, checksum: envelope.checksum.replace(/^./, (c: string) => (c === '0' ? '1' : '0')) },
      { ...envelope, createdAt: '2025-01-31T12:00:01.000Z' },
      { ...envelope, format: 'other' }, { ...envelope, version: 2 }, { ...envelope, extra: 1 },
    ];
    for (const v of variants) expect(refused(() => openBackup(Buffer.from(JSON.stringify(v)), key)), JSON.stringify(Object.keys(v))).toBe(true);
  });

  it('refuses what is not JSON, or not an object, or empty', () => {
    for (const raw of ['', 'not json', '[]', 'null', '{"format":"ephemera-admin-backup"}', '\u0000\u0001']) {
      expect(refused(() => openBackup(Buffer.from(raw), key)), raw).toBe(true);
    }
  });

  it('refuses rows whose keys are not the table\'s columns', () => {
    const wrong = content();
    wrong.tables.audit!.rows = [{ event_id: 'e1' }];
    expect(refused(() => openBackup(sealBackup(wrong, key), key))).toBe(true);
    const extra = content();
    extra.tables.audit!.rows = [{ event_id: 'e1', action: 'x', more: 1 }];
    expect(refused(() => openBackup(sealBackup(extra, key), key))).toBe(true);
    const badName = content();
    badName.tables = { 'audit"; DROP TABLE x; --': { columns: ['a'], rows: [] } };
    expect(refused(() => openBackup(sealBackup(badName, key), key))).toBe(true);
  });
});
