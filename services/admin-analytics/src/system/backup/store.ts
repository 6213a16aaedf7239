/**
 * The backup directory (BACKUP_DIR; embedded: DATA_DIR/backups). Names are generated here and are the only names
 * ever opened: a download names a file the listing knows, never a path (no traversal, no other file of the disk).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ADMIN_API, DomainError, type BackupInfo } from '@ephemera/proto';

/** admin-backup-2025-01-31T12-00-00-000Z-1a2b3c4d.json: the creation time, then 32 random bits */
const NAME = /^admin-backup-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z-[0-9a-f]{8}\.json$/;

export class BackupStore {
  constructor(private readonly dir: string) {}

  newName(at: Date): string {
    return `admin-backup-${at.toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.json`;
  }

  /** `fill` writes the file under a temporary name, then it is renamed: a listing never shows half a file */
  async write(name: string, fill: (file: string) => Promise<void>): Promise<BackupInfo> {
    if (!NAME.test(name)) throw new Error(`not a backup name: ${name}`);
    const tmp = await this.tempFile(name);
    try {
      await fill(tmp);
      const { size } = await fs.promises.stat(tmp);
      await fs.promises.rename(tmp, path.join(this.dir, name));
      return this.info(name, size);
    } finally {
      await fs.promises.rm(tmp, { force: true });
    }
  }

  /** a path in the backup directory for a file on its way in (never listed: hidden, and not a backup's name) */
  async tempFile(purpose: string): Promise<string> {
    await fs.promises.mkdir(this.dir, { recursive: true, mode: 0o700 });
    return path.join(this.dir, `.${purpose}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  }

  /** newest first */
  async list(): Promise<BackupInfo[]> {
    let names: string[];
    try {
      names = await fs.promises.readdir(this.dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const infos = await Promise.all(
      names
        .filter((n) => NAME.test(n))
        .map(async (n) => {
          const stat = await fs.promises.stat(path.join(this.dir, n)).catch(() => null);
          return stat?.isFile() ? this.info(n, stat.size) : null;
        }),
    );
    return infos
      .filter((i): i is BackupInfo => i !== null)
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.filename.localeCompare(a.filename));
  }

  async count(): Promise<number> {
    return (await this.list()).length;
  }

  /**
   * Deletes every backup made more than `days` before `now` (the retention: a backup holds room and account keys,
   * so how long it is kept bounds how long an ended room stays readable; docs/crypto.md "Backups"). Answers how many.
   */
  async prune(now: Date, days: number): Promise<number> {
    const before = new Date(now.getTime() - days * 24 * 60 * 60 * 1000).toISOString();
    let removed = 0;
    for (const b of await this.list()) {
      if (b.createdAt >= before) continue;
      await fs.promises.rm(path.join(this.dir, b.filename), { force: true });
      removed++;
    }
    return removed;
  }

  /** the file of a listed backup; anything else is BACKUP_NOT_FOUND */
  async pathOf(filename: string): Promise<string> {
    if (!NAME.test(filename) || !(await this.list()).some((b) => b.filename === filename))
      throw new DomainError('BACKUP_NOT_FOUND');
    return path.join(this.dir, filename);
  }

  private info(filename: string, size: number): BackupInfo {
    const m = NAME.exec(filename)!;
    return {
      filename,
      createdAt: `${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`,
      size,
      downloadUrl: ADMIN_API.backupDownload(filename),
    };
  }
}
