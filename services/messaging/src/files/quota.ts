/**
 * A room's file storage quota (proto/src/tiers.ts roomStorageBytes: the tier's largest file times
 * ROOM_STORAGE_FILES). What counts is what the room keeps: the plaintext sizes of its files and thumbnails in the
 * read model (a file removed by retention, with its message or with its channel no longer counts).
 */
import { roomStorageBytes, type Tier } from '@ephemera/proto';
import type { Pool } from '@ephemera/platform';

export type StorageQuota = (tier: Tier) => number;
export const defaultStorageQuota: StorageQuota = roomStorageBytes;

/** Bytes the room's files and thumbnails hold now. */
export async function roomStorageUsed(pool: Pool, workspaceId: string): Promise<number> {
  const { rows } = await pool.query(
    'SELECT COALESCE(SUM(size + COALESCE(thumbnail_size, 0)), 0)::bigint AS used FROM messaging.files WHERE workspace_id = $1',
    [workspaceId],
  );
  return Number(rows[0].used);
}
