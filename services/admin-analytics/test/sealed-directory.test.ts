/**
 * The directory's copy of accounts at rest (docs/crypto.md, "Accounts"): admin.accounts holds an account's e-mail and
 * username only sealed under the account's key, with the address's keyed hash for the search by exact e-mail; rows
 * and audit entries an earlier version wrote in the clear are rewritten at start. Real PostgreSQL, the service's
 * projector and start-up rewrite.
 */
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { parsePayload } from '@ephemera/proto';
import { isSealed, makeEvent, systemActor, type Pool } from '@ephemera/platform';
import { accountsPage } from '../src/directory/read-model.ts';
import { sealLegacyDirectory } from '../src/directory/legacy.ts';
import { useAdminTestDatabase } from './admin-test-database.ts';

const canary = () => {
  const hex = randomBytes(6).toString('hex');
  return { id: `acc_${hex}`, email: `cnrymail${hex}@example.test`, username: `cnryname${hex}` };
};
const listAccounts = async (
  pool: Pool,
  fields: Parameters<typeof accountsPage>[1],
  q: { search: string; hide: string | null },
) => (await accountsPage(pool, fields, { ...q, page: 1, pageSize: 50 })).rows;
const adminRows = async (pool: Pool) => {
  const { rows } = await pool.query(
    "SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'admin' AND table_type = 'BASE TABLE'",
  );
  let text = '';
  for (const { t } of rows)
    text += (await pool.query(`SELECT x::text AS r FROM admin."${t}" x`)).rows.map((r) => r.r).join('\n');
  return text;
};

describe('sealed directory', () => {
  const db = useAdminTestDatabase();

  it("stores an account's e-mail and username sealed; the superadmin finds it by its whole address in any case, or by a part", async () => {
    const c = canary();
    await db.apply([
      makeEvent(
        'account.registered',
        c.id,
        1,
        parsePayload('account.registered', {
          accountId: c.id,
          email: c.email,
          username: c.username,
          tier: 'free',
          googleId: null,
          picture: null,
          registeredAt: new Date().toISOString(),
        }),
        systemActor,
      ),
    ]);
    const { rows } = await db.pool.query('SELECT email, username, email_hash FROM admin.accounts WHERE id = $1', [
      c.id,
    ]);
    expect(isSealed(rows[0].email) && isSealed(rows[0].username)).toBe(true);
    expect(rows[0].email_hash).toBe(await db.fields.emailHash(c.email));
    const dump = await adminRows(db.pool);
    expect(dump).toContain(c.id);
    expect(dump).not.toContain(c.email.split('@')[0]);
    expect(dump).not.toContain(c.username);

    const search = (text: string) => listAccounts(db.pool, db.fields, { search: text, hide: null });
    expect((await search(c.email.toUpperCase())).map((a) => [a.id, a.email, a.username])).toEqual([
      [c.id, c.email, c.username],
    ]);
    expect((await search(c.username.slice(2, 12))).map((a) => a.id)).toEqual([c.id]);
    expect(await listAccounts(db.pool, db.fields, { search: c.email, hide: c.email })).toEqual([]); // the superadmin's own: hidden
  });

  it('rewrites at start what an earlier version stored in the clear: accounts sealed, audit entries naming the account by id', async () => {
    const live = canary();
    const deleted = canary();
    for (const c of [live, deleted]) {
      await db.pool.query(
        `INSERT INTO admin.accounts (id, email, username, created_at, last_active_at) VALUES ($1, $2, $3, now(), now())`,
        [c.id, c.email, c.username],
      );
    }
    db.keyring.forget(deleted.id); // its key destroyed by billing; its tombstone not yet applied
    await db.pool.query(
      `INSERT INTO admin.audit (event_id, seq, action, target, reason, admin, details, at) VALUES (gen_random_uuid(), 1, 'user.suspended', $1, 'spam', 'root@example.test', $2, now())`,
      [live.email, JSON.stringify({ accountId: live.id })],
    );

    expect(await sealLegacyDirectory(db.pool, db.fields)).toEqual({ accounts: 2, auditEntries: 1, indexed: 1 });
    const dump = await adminRows(db.pool);
    for (const c of [live, deleted]) {
      expect(dump).not.toContain(c.email.split('@')[0]);
      expect(dump).not.toContain(c.username);
    }
    expect(
      (await db.pool.query('SELECT id FROM admin.accounts WHERE id = ANY ($1)', [[live.id, deleted.id]])).rows,
    ).toEqual([{ id: live.id }]);
    expect((await db.pool.query("SELECT target FROM admin.audit WHERE action = 'user.suspended'")).rows).toEqual([
      { target: live.id },
    ]);
    const found = await listAccounts(db.pool, db.fields, { search: live.email, hide: null });
    expect(found.map((a) => [a.id, a.email, a.username])).toEqual([[live.id, live.email, live.username]]);
    expect(await sealLegacyDirectory(db.pool, db.fields)).toEqual({ accounts: 0, auditEntries: 0, indexed: 0 }); // once
  });
});
