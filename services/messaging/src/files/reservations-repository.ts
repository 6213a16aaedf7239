/**
 * Queries behind a room's file storage quota (files/quota.ts decides with them): the room's lock, what the room's
 * files, thumbnails and live reservations hold, and messaging.storage_reservations' rows. The lock and the sums run
 * on the client of the caller's transaction, so the quota's check and its write stay under one lock.
 */
import type { Pool, PoolClient } from '@ephemera/platform';

/** The room's storage lock: a transaction-scoped advisory lock, which every replica shares. */
export async function lockRoomStorage(c: PoolClient, workspaceId: string): Promise<void> {
  await c.query("SELECT pg_advisory_xact_lock(hashtextextended('storage-quota:' || $1, 0))", [workspaceId]);
}

/**
 * Bytes the room's files and thumbnails hold now, plus its reservations younger than `reservationTtlSeconds` but
 * `except`.
 */
export async function storageBytesHeld(
  c: PoolClient,
  workspaceId: string,
  except: string | null,
  reservationTtlSeconds: number,
): Promise<number> {
  const { rows } = await c.query(
    `SELECT (SELECT COALESCE(SUM(size + COALESCE(thumbnail_size, 0)), 0) FROM messaging.files WHERE workspace_id = $1)
          + (SELECT COALESCE(SUM(bytes), 0) FROM messaging.storage_reservations
              WHERE workspace_id = $1 AND id IS DISTINCT FROM $2 AND created_at > now() - make_interval(secs => $3))
          AS used`,
    [workspaceId, except, reservationTtlSeconds],
  );
  return Number(rows[0].used);
}

export async function insertReservation(c: PoolClient, id: string, workspaceId: string, bytes: number): Promise<void> {
  await c.query('INSERT INTO messaging.storage_reservations (id, workspace_id, bytes) VALUES ($1, $2, $3)', [
    id,
    workspaceId,
    bytes,
  ]);
}

/** Sets the reservation's bytes; false when it is gone. */
export async function setReservationBytes(c: PoolClient, id: string, bytes: number): Promise<boolean> {
  const { rowCount } = await c.query('UPDATE messaging.storage_reservations SET bytes = $2 WHERE id = $1', [id, bytes]);
  return rowCount === 1;
}

export async function deleteReservation(pool: Pool, id: string): Promise<void> {
  await pool.query('DELETE FROM messaging.storage_reservations WHERE id = $1', [id]);
}

/** Removes the reservations at least `ageSeconds` old; answers how many. */
export async function deleteReservationsOlderThan(pool: Pool, ageSeconds: number): Promise<number> {
  const { rowCount } = await pool.query(
    'DELETE FROM messaging.storage_reservations WHERE created_at <= now() - make_interval(secs => $1)',
    [ageSeconds],
  );
  return rowCount ?? 0;
}
