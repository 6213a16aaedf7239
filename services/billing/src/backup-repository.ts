/**
 * The SQL of billing's part of the service backup (backup-part.ts): which keys the backup carries, and which
 * restored accounts were deleted after the backup was taken.
 */
import type { PoolClient } from '@ephemera/platform';

/** the ids whose keys are in the backup: every account's and every contact message's */
export async function keyHolderIds(client: PoolClient): Promise<string[]> {
  const { rows } = await client.query<{ id: string }>(
    'SELECT id FROM billing.accounts UNION SELECT id::text FROM billing.contact_messages ORDER BY 1',
  );
  return rows.map((r) => r.id);
}

/** restored accounts that have a tombstone (deleted after the backup was taken) */
export async function restoredDeletedAccounts(client: PoolClient): Promise<string[]> {
  const { rows } = await client.query<{ id: string }>(
    'SELECT d.id FROM billing.deleted_accounts d JOIN billing.accounts a ON a.id = d.id',
  );
  return rows.map((r) => r.id);
}
