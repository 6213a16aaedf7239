/**
 * Accounts at rest (docs/crypto.md, "Accounts"): billing's tables hold an account's e-mail and username only sealed
 * under the account's key, with a keyed hash of the address beside them, and sign-in codes name the address by that
 * hash; sign-in and registration find the account whatever the address's case; rows stored in the clear by an
 * earlier version are sealed at start. Real PostgreSQL, the billing schema from its migrations, a real key store.
 */
import { describe, it, expect } from 'vitest';
import { randomBytes } from 'node:crypto';
import { isSealed, ownEmailLookup, type Pool } from '@ephemera/platform';
import { billingHarness } from './billing-harness.ts';
import { createTestDatabase } from '../../../test/helpers/db.ts';

const { boot } = billingHarness('sealed');

/** Every row of every billing table, as text. */
async function billingRows(pool: Pool): Promise<string> {
  const { rows: tables } = await pool.query(
    "SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'billing' AND table_type = 'BASE TABLE'",
  );
  let text = '';
  for (const { t } of tables)
    text += (await pool.query(`SELECT x::text AS r FROM billing."${t}" x`)).rows.map((r) => r.r).join('\n');
  return text;
}

const canary = () => ({
  email: `cnrymail${randomBytes(6).toString('hex')}@example.test`,
  username: `cnryname${randomBytes(6).toString('hex')}`,
});

describe('sealed accounts in billing', () => {
  it('stores the e-mail and username sealed, finds the account by e-mail whatever its case, and makes no second account', async () => {
    const app = await boot(await createTestDatabase());
    try {
      const svc = app.billing.service;
      const c = canary();
      const code = await svc.codes.issue(c.email);
      const first = await svc.register({ email: c.email, username: c.username, code }, null);
      expect(first.user).toMatchObject({ email: c.email, username: c.username });

      const dump = await billingRows(app.pool);
      expect(dump).toContain(first.user.id);
      expect(dump).not.toContain(c.email);
      expect(dump).not.toContain(c.email.split('@')[0]);
      expect(dump).not.toContain(c.username);
      const { rows } = await app.pool.query('SELECT email, username, email_hash FROM billing.accounts WHERE id = $1', [
        first.user.id,
      ]);
      expect(isSealed(rows[0].email) && isSealed(rows[0].username)).toBe(true);
      expect(rows[0].email_hash).toBe(svc.accounts.emailHash(c.email.toUpperCase()));

      // sign-in by e-mail, in another case
      const login = await svc.login(
        { email: c.email.toUpperCase(), code: await svc.codes.issue(c.email.toUpperCase()) },
        null,
      );
      expect(login.user.id).toBe(first.user.id);
      // registering the address again, in another case, signs in the same account: no second one
      const again = await svc.register(
        { email: ` ${c.email.toUpperCase()} `, username: 'Someone Else', code: await svc.codes.issue(c.email) },
        null,
      );
      expect(again.user).toMatchObject({ id: first.user.id, username: c.username });
      expect(Number((await app.pool.query('SELECT count(*) AS n FROM billing.accounts')).rows[0].n)).toBe(1);
      expect((await svc.accounts.byEmail(c.email.toUpperCase()))?.id).toBe(first.user.id);

      // a renamed account's new name is sealed too
      await svc.updateUsername((await svc.accounts.byId(first.user.id))!, { username: `${c.username}x` });
      expect((await svc.accounts.byId(first.user.id))?.username).toBe(`${c.username}x`);
      expect(await billingRows(app.pool)).not.toContain(c.username);
    } finally {
      await app.stop();
    }
  });

  it('seals accounts stored in the clear by an earlier version at start; they sign in by e-mail after', async () => {
    const databaseUrl = await createTestDatabase();
    const c = canary();
    const accountId = `acc_${randomBytes(8).toString('hex')}`;
    const first = await boot(databaseUrl);
    // an account as the earlier version stored it: its key exists, its e-mail and username in the clear
    await first.keys.store.create(accountId);
    await first.pool.query(
      `INSERT INTO billing.accounts (id, email, username, tier, created_at, last_seq) VALUES ($1, $2, $3, 'free', now(), 1)`,
      [accountId, c.email, c.username],
    );
    await first.stop();

    const restarted = await boot(databaseUrl);
    try {
      const dump = await billingRows(restarted.pool);
      expect(dump).toContain(accountId);
      expect(dump).not.toContain(c.email);
      expect(dump).not.toContain(c.username);
      const lookup = await ownEmailLookup(restarted.keys.store);
      const { rows } = await restarted.pool.query('SELECT email_hash FROM billing.accounts WHERE id = $1', [accountId]);
      expect(rows[0].email_hash).toBe(lookup.hash(c.email));
      const svc = restarted.billing.service;
      const login = await svc.login({ email: c.email, code: await svc.codes.issue(c.email) }, null);
      expect(login.user).toMatchObject({ id: accountId, email: c.email, username: c.username });
    } finally {
      await restarted.stop();
    }
  });
});
