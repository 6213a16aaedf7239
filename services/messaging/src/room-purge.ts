/**
 * A deleted or expired room's bulk rows (messages, search entries, read positions, file rows), removed in short
 * batches BEFORE its workspace.deleted / workspace.expired is applied. Its key is already destroyed, so these rows are
 * unreadable from that moment; removing them early changes nothing anyone can see, and the event's own transaction
 * (projection-rooms.ts) is then left with little to delete. One DELETE of a big room in a single transaction held
 * the disk and the WAL long enough to slow every other room's sends (docs/crypto.md, crypto bench: purge p99).
 * Batches with a short pause between them spread that work out. A crash part-way leaves fewer unreadable rows and
 * the event is delivered again: the purge resumes and the event is applied as before.
 */
import type { Pool } from '@ephemera/platform';
import { ROOM_BULK_TABLES, deleteRoomRowsBatch } from './rooms-repository.ts';

export interface PurgeOptions {
  batchRows?: number;
  pauseMs?: number;
}

export async function purgeRoomInBatches(pool: Pool, workspaceId: string, options: PurgeOptions = {}): Promise<number> {
  const batch = options.batchRows ?? 500;
  const pauseMs = options.pauseMs ?? 5;
  let removed = 0;
  for (const table of ROOM_BULK_TABLES) {
    for (;;) {
      const deleted = await deleteRoomRowsBatch(pool, table, workspaceId, batch);
      removed += deleted;
      if (deleted < batch) break;
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }
  return removed;
}
