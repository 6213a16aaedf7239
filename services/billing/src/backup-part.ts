/**
 * The billing service's part of the service backup (docs/administration.md "Backups"): accounts, subscriptions,
 * payments, contact messages and the sessions and sign-in state, with the account and contact-message keys as they
 * are at rest (wrapped by the master key). Payments name rooms by room_id and stay: they are the account's history.
 */
import { BackupPart, type Pool, type RoomKeyStore } from '@ephemera/platform';

export function billingBackupPart(pool: Pool, keys: RoomKeyStore): BackupPart {
  return new BackupPart({
    pool,
    schema: 'billing',
    keys,
    keyIds: async (c) =>
      (
        await c.query<{ id: string }>(
          'SELECT id FROM billing.accounts UNION SELECT id::text FROM billing.contact_messages ORDER BY 1',
        )
      ).rows.map((r) => r.id),
  });
}
