/**
 * The messaging service's part of the service backup (docs/administration.md "Backups"): the content of the rooms,
 * as the read model keeps it, sealed under each room's key (the keys are the room service's part). A restore names
 * as ended the rooms its live tombstones hold (deleted or expired after the backup was taken: an in-place restore
 * does not bring them back), drops every ended room and keeps their tombstones, so a late event of theirs stays out.
 */
import { BackupPart, type Pool } from '@ephemera/platform';
import { recordRoomsEnded, stagedRoomsEnded } from './rooms-repository.ts';

export function messagingBackupPart(pool: Pool): BackupPart {
  return new BackupPart({
    pool,
    schema: 'messaging',
    // uploads in progress when the backup was taken (files/quota.ts): none of them is restored
    skip: ['storage_reservations'],
    roomTables: ['workspaces'],
    endedRooms: (c, staging) => stagedRoomsEnded(c, staging),
    afterCommit: (c, ended) => recordRoomsEnded(c, ended),
  });
}
