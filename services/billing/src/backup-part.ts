/**
 * The billing service's part of the service backup (docs/administration.md "Backups"): accounts, subscriptions,
 * payments, contact messages and the sessions and sign-in state, with the account and contact-message keys as they
 * are at rest (wrapped by the master key). Payments name rooms by room_id and stay: they are the account's history.
 * The tombstones of deleted accounts are not in it: a restore keeps the live ones and drops every account they name
 * (deleted after the backup was taken), its rows and its key.
 */
import { BackupPart, type Pool, type RoomKeyStore } from '@ephemera/platform';
import { keyHolderIds, restoredDeletedAccounts } from './backup-repository.ts';
import { dropDeletedAccounts } from './projection.ts';

export function billingBackupPart(pool: Pool, keys: RoomKeyStore): BackupPart {
  return new BackupPart({
    pool,
    schema: 'billing',
    skip: ['deleted_accounts'],
    keys,
    keyIds: keyHolderIds,
    afterCommit: async (c) => {
      const ids = await restoredDeletedAccounts(c);
      await dropDeletedAccounts(c, ids);
      return { droppedKeys: ids };
    },
  });
}
