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
import {
  accountsWithoutGrams,
  auditTargetsToAccountIds,
  deleteUnsealedAccount,
  sealAccountRow,
  setAccountGrams,
  unsealedAccounts,
} from './legacy-repository.ts';

export async function sealLegacyDirectory(
  pool: Pool,
  fields: AccountFields,
): Promise<{ accounts: number; auditEntries: number; indexed: number }> {
  const rows = await unsealedAccounts(pool);
  for (const row of rows) {
    const key = await fields.key(row.id);
    if (!key) {
      await deleteUnsealedAccount(pool, row.id);
      continue;
    }
    await sealAccountRow(pool, row.id, {
      email: fields.seal(key, 'email', row.email),
      emailHash: await fields.emailHash(row.email),
      username: row.username === null ? null : fields.seal(key, 'username', row.username),
    });
  }
  const auditEntries = await auditTargetsToAccountIds(pool);
  return { accounts: rows.length, auditEntries, indexed: await indexLegacyAccounts(pool, fields) };
}

/** Accounts stored before the search grams (email_grams null): given theirs, after the sealing above. */
async function indexLegacyAccounts(pool: Pool, fields: AccountFields): Promise<number> {
  let indexed = 0;
  for (const row of await accountsWithoutGrams(pool)) {
    const clear = await fields.open(row);
    if (!clear) continue;
    await setAccountGrams(pool, row.id, {
      email: await fields.searchGrams('email', clear.email),
      username: clear.username === null ? [] : await fields.searchGrams('username', clear.username),
    });
    indexed += 1;
  }
  return indexed;
}
