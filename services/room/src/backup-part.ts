/**
 * The room service's part of the service backup (docs/administration.md "Backups"): rooms with their members,
 * channels and settings, and each room's key as it is at rest (wrapped by the master key). A restore drops every
 * room whose lifetime has ended by then (expires_at passed), with its rows, and destroys its key.
 */
import { BackupPart, type Pool, type RoomKeyStore } from '@ephemera/platform';

export function roomBackupPart(pool: Pool, keys: RoomKeyStore): BackupPart {
  return new BackupPart({
    pool,
    schema: 'room',
    keys,
    roomTables: ['workspaces'],
    keyIds: async (c) =>
      (await c.query<{ id: string }>('SELECT id FROM room.workspaces ORDER BY id')).rows.map((r) => r.id),
    endedRooms: async (c, staging, now) =>
      (
        await c.query<{ id: string }>(
          `SELECT id FROM ${staging}.workspaces WHERE expires_at IS NOT NULL AND expires_at <= $1`,
          [now],
        )
      ).rows.map((r) => r.id),
  });
}
