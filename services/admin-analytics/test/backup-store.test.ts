/** The backup directory (system/backup/store.ts): generated names only, newest first, nothing else reachable. */
import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ADMIN_API, ADMIN_LIMITS, DomainError } from '@ephemera/proto';
import { BackupStore } from '../src/system/backup/store.ts';

const notFound = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    return err instanceof DomainError && err.code === 'BACKUP_NOT_FOUND';
  }
  return false;
};

describe('backup store', () => {
  it('lists what it wrote, newest first, with the download path', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'backup-store-'));
    const store = new BackupStore(path.join(dir, 'backups'));
    expect(await store.list()).toEqual([]); // no directory yet
    const older = await store.write(store.newName(new Date('2025-01-01T00:00:00.000Z')), (f) =>
      fs.promises.writeFile(f, 'a'),
    );
    const newer = await store.write(store.newName(new Date('2025-02-01T10:20:30.456Z')), (f) =>
      fs.promises.writeFile(f, 'bcd'),
    );
    expect(newer).toMatchObject({
      createdAt: '2025-02-01T10:20:30.456Z',
      size: 3,
      downloadUrl: ADMIN_API.backupDownload(newer.filename),
    });
    expect((await store.list()).map((b) => b.filename)).toEqual([newer.filename, older.filename]);
    expect(await store.count()).toBe(2);
    expect(await store.pathOf(newer.filename)).toBe(path.join(dir, 'backups', newer.filename));
    // a write that fails leaves nothing behind, not even its temporary file
    await expect(
      store.write(store.newName(new Date()), async (f) => {
        fs.writeFileSync(f, 'half');
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    expect(fs.readdirSync(path.join(dir, 'backups')).sort()).toEqual([newer.filename, older.filename].sort());
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the retention (docs/product/admin.md ADM9): a backup older than ADMIN_LIMITS.backupRetentionDays is deleted, a newer one kept', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'backup-store-'));
    const store = new BackupStore(dir);
    const now = new Date('2025-03-31T12:00:00.000Z');
    const day = 24 * 60 * 60 * 1000;
    const days = ADMIN_LIMITS.backupRetentionDays;
    const old = await store.write(store.newName(new Date(now.getTime() - days * day - 1)), (f) =>
      fs.promises.writeFile(f, 'a'),
    );
    const edge = await store.write(store.newName(new Date(now.getTime() - days * day)), (f) =>
      fs.promises.writeFile(f, 'b'),
    );
    const recent = await store.write(store.newName(new Date(now.getTime() - day)), (f) =>
      fs.promises.writeFile(f, 'c'),
    );
    fs.writeFileSync(path.join(dir, 'notes.json'), '{}'); // not a backup: never touched
    expect(await store.prune(now, days)).toBe(1);
    expect((await store.list()).map((b) => b.filename)).toEqual([recent.filename, edge.filename]);
    expect(fs.existsSync(path.join(dir, old.filename))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'notes.json'))).toBe(true);
    expect(await store.prune(now, days)).toBe(0);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('opens no name it did not generate: traversal, other files, look-alikes', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'backup-store-'));
    const store = new BackupStore(dir);
    const real = await store.write(store.newName(new Date()), (f) => fs.promises.writeFile(f, 'x'));
    fs.writeFileSync(path.join(dir, 'notes.json'), '{}');
    for (const name of [
      '../etc/passwd',
      `../${path.basename(dir)}/${real.filename}`,
      'notes.json',
      `${real.filename}/`,
      real.filename.toUpperCase(),
      'admin-backup-2025-01-01T00-00-00-000Z-ffffffff.json',
      '',
      '.',
      '..',
    ]) {
      expect(await notFound(store.pathOf(name)), name).toBe(true);
    }
    expect((await store.list()).map((b) => b.filename)).not.toContain('notes.json');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
