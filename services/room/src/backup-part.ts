/**
 * The room service's part of the service backup (docs/administration.md "Backups"): rooms with their members,
 * channels and settings, and each room's key as it is at rest (wrapped by the master key). A restore drops every
 * room whose lifetime has ended by then (expires_at passed), with its rows, and destroys its key.
 */
import { BackupPart, type Pool, type RoomKeyStore } from '@ephemera/platform';
import { endedRoomsIn, roomIds } from './backup-repository.ts';

export function roomBackupPart(pool: Pool, keys: RoomKeyStore): BackupPart {
  return new BackupPart({
    pool,
    schema: 'room',
    keys,
    roomTables: ['workspaces'],
    keyIds: roomIds,
    endedRooms: endedRoomsIn,
  });
}
