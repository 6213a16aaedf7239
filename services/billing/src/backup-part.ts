/**
 * The billing service's part of the service backup (docs/administration.md "Backups"): accounts, subscriptions,
 * payments, contact messages and the sessions and sign-in state, with the account and contact-message keys as they
 * are at rest (wrapped by the master key). Payments name rooms by room_id and stay: they are the account's history.
 * The tombstones of deleted accounts are not in it: a restore keeps the live ones and drops every account they name
 * (deleted after the backup was taken), its rows and its key.
 */
import { BackupPart, type Pool, type RoomKeyStore } from '@ephemera/platform';
import { dropDeletedAccounts } from './projection.ts';

export function billingBackupPart(pool: Pool, keys: RoomKeyStore): BackupPart {
  return new BackupPart({
    pool,
    schema: 'billing',
    skip: ['deleted_accounts'],
    keys,
    keyIds: async (c) =>
      (
        await c.query<{ id: string }>(
          'SELECT id FROM billing.accounts UNION SELECT id::text FROM billing.contact_messages ORDER BY 1',
        )
      ).rows.map((r) => r.id),
    afterCommit: async (c) => {
      const { rows } = await c.query<{ id: string }>(
        'SELECT d.id FROM billing.deleted_accounts d JOIN billing.accounts a ON a.id = d.id',
      );
      const ids = rows.map((r) => r.id);
      await dropDeletedAccounts(c, ids);
      return { droppedKeys: ids };
    },
  });
}
