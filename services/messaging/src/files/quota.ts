/**
 * A room's file storage quota (proto/src/tiers.ts roomStorageBytes: the tier's largest file times
 * ROOM_STORAGE_FILES). What counts is what the room keeps: the plaintext sizes of its files and thumbnails in the
 * read model (a file removed by retention, with its message or with its channel no longer counts), plus the bytes
 * reserved by uploads in progress on any replica (messaging.storage_reservations).
 *
 * An upload reserves its bytes before it stores any: under a lock per room (a transaction-scoped advisory lock in
 * PostgreSQL, which every replica shares in both modes), what the room keeps and has reserved is summed and the
 * reservation is granted only as far as the quota allows. It is settled to the real size once the bytes are stored
 * (under the same lock), and released once the file's row is written or the upload failed. So uploads finishing at
 * once, on one replica or several, never together pass the quota. A reservation left by a process that died
 * mid-upload stops counting after RESERVATION_TTL_MS.
 */
import { roomStorageBytes, type Tier } from '@ephemera/proto';
import { inTransaction, newId, type Pool, type PoolClient } from '@ephemera/platform';
import {
  deleteReservation,
  deleteReservationsOlderThan,
  insertReservation,
  lockRoomStorage,
  setReservationBytes,
  storageBytesHeld,
} from './reservations-repository.ts';

export type StorageQuota = (tier: Tier) => number;
export const defaultStorageQuota: StorageQuota = roomStorageBytes;

/** Longer than any upload takes (the largest file over a slow link); a dead process's reservation ends with it. */
export const RESERVATION_TTL_MS = 60 * 60 * 1000;

export interface Reservation {
  id: string;
  workspaceId: string;
  /** the bytes granted: what the upload may store */
  bytes: number;
}

/** Bytes the room's files and thumbnails hold now, plus the live reservations but `except`. */
const committedBytes = (c: PoolClient, workspaceId: string, except: string | null) =>
  storageBytesHeld(c, workspaceId, except, RESERVATION_TTL_MS / 1000);

/** Reserves up to `wanted` bytes of the room's storage; null when nothing is left. */
export async function reserveStorage(
  pool: Pool,
  workspaceId: string,
  wanted: number,
  quota: number,
): Promise<Reservation | null> {
  return inTransaction(pool, async (c) => {
    await lockRoomStorage(c, workspaceId);
    const bytes = Math.min(wanted, quota - (await committedBytes(c, workspaceId, null)));
    if (bytes <= 0) return null;
    const id = newId();
    await insertReservation(c, id, workspaceId, bytes);
    return { id, workspaceId, bytes };
  });
}

/** Sets the reservation to what the upload really stores; false (and unchanged) when that does not fit the quota. */
export async function settleStorage(pool: Pool, reservation: Reservation, bytes: number, quota: number) {
  return inTransaction(pool, async (c) => {
    await lockRoomStorage(c, reservation.workspaceId);
    if ((await committedBytes(c, reservation.workspaceId, reservation.id)) + bytes > quota) return false;
    return setReservationBytes(c, reservation.id, bytes);
  });
}

/** The upload's bytes are counted in messaging.files now, or it failed: the reservation ends. */
export async function releaseStorage(pool: Pool, reservation: Reservation | null): Promise<void> {
  if (!reservation) return;
  await deleteReservation(pool, reservation.id);
}

/** Reservations whose process died with them (older than RESERVATION_TTL_MS, counted no more) are removed. */
export async function sweepStorageReservations(pool: Pool): Promise<number> {
  return deleteReservationsOlderThan(pool, RESERVATION_TTL_MS / 1000);
}
