/**
 * An account deleted after a backup was taken stays deleted when that backup is restored in place
 * (docs/administration.md "Backups that restore the service"): billing keeps a tombstone of every deleted account
 * outside the backup, and the restore drops every account a tombstone names, its rows and its key. Real PostgreSQL,
 * the billing schema from its migrations, a real key store.
 */
import { describe, it, expect } from 'vitest';
import type { BackupPartRecord } from '@ephemera/proto';
import type { BackupPart } from '@ephemera/platform';
import { billingHarness } from './billing-harness.ts';
import { createTestDatabase } from '../../../test/helpers/db.ts';

const { boot } = billingHarness('backup-deleted');

async function exported(part: BackupPart): Promise<BackupPartRecord[]> {
  const out: BackupPartRecord[] = [];
  for await (const line of part.exportPart({ createdAt: new Date().toISOString() }))
    out.push(JSON.parse(line) as BackupPartRecord);
  return out;
}

async function restore(part: BackupPart, records: BackupPartRecord[]): Promise<void> {
  let ends: Record<string, number> = {};
  for (const r of records) {
    if (r.kind === 'meta') await part.importBegin({ meta: r });
    else if (r.kind === 'rows') await part.importRows({ table: r.table, rows: r.rows });
    else if (r.kind === 'keys') await part.importKeys({ keys: r.keys });
    else ends = r.rows;
  }
  const { endedRooms } = await part.importEnded({ now: new Date().toISOString() });
  await part.importCommit({ rows: ends, endedRooms });
}

describe("billing's backup part and deleted accounts", () => {
  it('an in-place restore does not bring back an account deleted after the backup, nor its key', async () => {
    const app = await boot(await createTestDatabase());
    try {
      const svc = app.billing.service;
      const signUp = async (name: string) => {
        const email = `${name}-${Date.now().toString(36)}@example.test`;
        return (await svc.register({ email, username: name, code: await svc.codes.issue(email) }, null)).user.id;
      };
      const gone = await signUp('gone');
      const stays = await signUp('stays');
      const part = app.billing.backup;
      const records = await exported(part);

      await svc.deleteAccount((await svc.accounts.byId(gone))!, { confirmation: 'DELETE' });
      await expect.poll(async () => (await svc.accounts.byId(gone)) === null, { timeout: 10_000 }).toBe(true);
      expect(await app.keys.store.readWrapped?.(gone)).toBeFalsy();

      await restore(part, records);
      const { rows } = await app.pool.query<{ id: string }>('SELECT id FROM billing.accounts ORDER BY id');
      expect(rows.map((r) => r.id)).toEqual([stays]);
      expect(await app.keys.store.readWrapped?.(gone), 'the deleted account has no key again').toBeFalsy();
      expect(await app.keys.store.readWrapped?.(stays)).toBeTruthy();
      const sessions = await app.pool.query('SELECT 1 FROM billing.sessions WHERE account_id = $1', [gone]);
      expect(sessions.rowCount, 'no session of the deleted account').toBe(0);
      expect((await svc.accounts.byId(stays))?.username).toBe('stays');
    } finally {
      await app.stop();
    }
  });
});
