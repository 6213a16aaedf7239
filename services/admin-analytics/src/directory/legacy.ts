/**
 * What an earlier version of the directory stored in the clear, rewritten once at start (after the projection is
 * current, before requests are taken; replicas may run it at once, each update touches only rows still in the clear):
 *  - accounts without email_hash: the e-mail and username sealed under the account's key, the address's keyed hash
 *    beside them; a row whose account key is gone belongs to a deleted account and is removed;
 *  - accounts without search grams (stored before the search by a part over every row): given theirs, from the
 *    opened values (a row whose key is gone is left to its account's tombstone);
 *  - audit entries of actions on accounts that name the account by its e-mail: the account's id instead (each such
 *    entry carries it in its details). The admin topic's own records of them cannot be rewritten (docs/crypto.md).
 */
import type { Pool } from '@ephemera/platform';
import type { AccountFields } from '../account-fields.ts';

export async function sealLegacyDirectory(
  pool: Pool,
  fields: AccountFields,
): Promise<{ accounts: number; auditEntries: number; indexed: number }> {
  const { rows } = await pool.query<{ id: string; email: string; username: string | null }>(
    'SELECT id, email, username FROM admin.accounts WHERE email_hash IS NULL',
  );
  for (const row of rows) {
    const key = await fields.key(row.id);
    if (!key) {
      await pool.query('DELETE FROM admin.accounts WHERE id = $1 AND email_hash IS NULL', [row.id]);
      continue;
    }
    await pool.query(
      'UPDATE admin.accounts SET email = $2, email_hash = $3, username = $4 WHERE id = $1 AND email_hash IS NULL',
      [
        row.id,
        fields.seal(key, 'email', row.email),
        await fields.emailHash(row.email),
        row.username === null ? null : fields.seal(key, 'username', row.username),
      ],
    );
  }
  const audit = await pool.query(
    `UPDATE admin.audit SET target = details->>'accountId' WHERE action LIKE 'user.%' AND target LIKE '%@%'`,
  );
  return { accounts: rows.length, auditEntries: audit.rowCount ?? 0, indexed: await indexLegacyAccounts(pool, fields) };
}

/** Accounts stored before the search grams (email_grams null): given theirs, after the sealing above. */
async function indexLegacyAccounts(pool: Pool, fields: AccountFields): Promise<number> {
  const { rows } = await pool.query<{ id: string; email: string; username: string | null }>(
    'SELECT id, email, username FROM admin.accounts WHERE email_grams IS NULL AND email_hash IS NOT NULL',
  );
  let indexed = 0;
  for (const row of rows) {
    const clear = await fields.open(row);
    if (!clear) continue;
    await pool.query(
      'UPDATE admin.accounts SET email_grams = $2, username_grams = $3 WHERE id = $1 AND email_grams IS NULL',
      [
        row.id,
        await fields.searchGrams('email', clear.email),
        clear.username === null ? [] : await fields.searchGrams('username', clear.username),
      ],
    );
    indexed += 1;
  }
  return indexed;
}
