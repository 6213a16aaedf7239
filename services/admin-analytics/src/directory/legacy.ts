/**
 * What an earlier version of the directory stored in the clear, rewritten once at start (after the projection is
 * current, before requests are taken; replicas may run it at once, each update touches only rows still in the clear):
 *  - accounts without email_hash: the e-mail and username sealed under the account's key, the address's keyed hash
 *    beside them; a row whose account key is gone belongs to a deleted account and is removed;
 *  - audit entries of actions on accounts that name the account by its e-mail: the account's id instead (each such
 *    entry carries it in its details). The admin topic's own records of them cannot be rewritten (docs/crypto.md).
 */
import type { Pool } from '@ephemera/platform';
import type { AccountFields } from '../account-fields.ts';

export async function sealLegacyDirectory(pool: Pool, fields: AccountFields): Promise<{ accounts: number; auditEntries: number }> {
  const { rows } = await pool.query<{ id: string; email: string; username: string | null }>(
    'SELECT id, email, username FROM admin.accounts WHERE email_hash IS NULL');
  for (const row of rows) {
    const key = await fields.key(row.id);
    if (!key) {
      await pool.query('DELETE FROM admin.accounts WHERE id = $1 AND email_hash IS NULL', [row.id]);
      continue;
    }
    await pool.query('UPDATE admin.accounts SET email = $2, email_hash = $3, username = $4 WHERE id = $1 AND email_hash IS NULL', [
      row.id, fields.seal(key, 'email', row.email), await fields.emailHash(row.email),
      row.username === null ? null : fields.seal(key, 'username', row.username)]);
  }
  const audit = await pool.query(
    `UPDATE admin.audit SET target = details->>'accountId' WHERE action LIKE 'user.%' AND target LIKE '%@%'`);
  return { accounts: rows.length, auditEntries: audit.rowCount ?? 0 };
}
