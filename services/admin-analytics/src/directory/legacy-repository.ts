/**
 * The directory's rows an earlier version stored in the clear (legacy.ts rewrites them once at start): the reads that
 * find them and the writes that seal, index or remove them. Each write touches a row only while it is still in the
 * clear, so replicas running the rewrite at once do not undo each other.
 */
import type { Pool } from '@ephemera/platform';

/** an account row as stored: e-mail and username in the clear (unsealed rows) or sealed (indexing) */
interface StoredAccount {
  id: string;
  email: string;
  username: string | null;
}

/** accounts stored with their e-mail in the clear (no email_hash) */
export async function unsealedAccounts(pool: Pool): Promise<StoredAccount[]> {
  const { rows } = await pool.query<StoredAccount>(
    'SELECT id, email, username FROM admin.accounts WHERE email_hash IS NULL',
  );
  return rows;
}

/** removes an account row still in the clear (its account key is gone: a deleted account) */
export async function deleteUnsealedAccount(pool: Pool, id: string): Promise<void> {
  await pool.query('DELETE FROM admin.accounts WHERE id = $1 AND email_hash IS NULL', [id]);
}

/** stores an account row's sealed e-mail and username and the address's keyed hash, if it is still in the clear */
export async function sealAccountRow(
  pool: Pool,
  id: string,
  sealed: { email: string; emailHash: string; username: string | null },
): Promise<void> {
  await pool.query(
    'UPDATE admin.accounts SET email = $2, email_hash = $3, username = $4 WHERE id = $1 AND email_hash IS NULL',
    [id, sealed.email, sealed.emailHash, sealed.username],
  );
}

/** audit entries of actions on accounts that name the account by its e-mail get its id (from their details); how many */
export async function auditTargetsToAccountIds(pool: Pool): Promise<number> {
  const audit = await pool.query(
    `UPDATE admin.audit SET target = details->>'accountId' WHERE action LIKE 'user.%' AND target LIKE '%@%'`,
  );
  return audit.rowCount ?? 0;
}

/** sealed accounts stored before the search grams (email_grams null) */
export async function accountsWithoutGrams(pool: Pool): Promise<StoredAccount[]> {
  const { rows } = await pool.query<StoredAccount>(
    'SELECT id, email, username FROM admin.accounts WHERE email_grams IS NULL AND email_hash IS NOT NULL',
  );
  return rows;
}

/** stores an account's search grams, if it has none yet */
export async function setAccountGrams(
  pool: Pool,
  id: string,
  grams: { email: string[]; username: string[] },
): Promise<void> {
  await pool.query(
    'UPDATE admin.accounts SET email_grams = $2, username_grams = $3 WHERE id = $1 AND email_grams IS NULL',
    [id, grams.email, grams.username],
  );
}
