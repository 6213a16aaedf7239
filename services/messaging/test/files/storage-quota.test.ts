/**
 * A room's file storage quota (proto roomStorageBytes: the tier's largest file times ROOM_STORAGE_FILES), here made
 * small (3 MB) so a test can fill it: an upload that would pass it is refused with STORAGE_QUOTA_EXCEEDED and
 * leaves nothing in storage; a full room refuses the next upload before storing a byte; removing a file frees its
 * room. The product's own numbers are checked against the documented ones.
 */
import { describe, it, expect, afterAll } from 'vitest';
import { ERRORS, ROOM_STORAGE_FILES, roomStorageBytes, statusFor } from '@ephemera/proto';
import { startFilesWorld } from './files-world.ts';
import { RESERVATION_TTL_MS } from '../../src/files/quota.ts';

const MB = 1024 * 1024;
const pdf = (size: number, name = 'doc.pdf') => ({
  name,
  type: 'application/pdf',
  bytes: Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(size - 9)]),
});

describe('storage quota per room', async () => {
  const world = await startFilesWorld({ storageQuota: () => 3 * MB });
  afterAll(() => world.stop());

  it("is the tier's largest file times the documented count", () => {
    expect(ROOM_STORAGE_FILES).toBe(20);
    expect([roomStorageBytes('free'), roomStorageBytes('pro'), roomStorageBytes('business')]).toEqual([
      200 * MB,
      2000 * MB,
      10_000 * MB,
    ]);
    expect(statusFor('STORAGE_QUOTA_EXCEEDED')).toBe(413);
  });

  it('refuses an upload that would pass the quota, with a clear error, and keeps nothing of it', async () => {
    const { actor, channelId } = await world.room();
    const first = await world.upload(actor, { channelId }, pdf(2 * MB, 'first.pdf'));
    expect(first.size).toBe(2 * MB);
    expect(world.storedObjects(actor.workspaceId)).toEqual([first.id]);

    await expect(world.upload(actor, { channelId }, pdf(2 * MB, 'second.pdf'))).rejects.toMatchObject({
      code: 'STORAGE_QUOTA_EXCEEDED',
      message: ERRORS.STORAGE_QUOTA_EXCEEDED,
    });
    expect(world.storedObjects(actor.workspaceId)).toEqual([first.id]);

    const fits = await world.upload(actor, { channelId }, pdf(MB, 'fits.pdf')); // exactly up to the quota
    expect(world.storedObjects(actor.workspaceId)).toEqual([first.id, fits.id].sort());
    // Full: refused before anything is stored, however small.
    await expect(world.upload(actor, { channelId }, pdf(100, 'tiny.pdf'))).rejects.toMatchObject({
      code: 'STORAGE_QUOTA_EXCEEDED',
    });
    expect(world.storedObjects(actor.workspaceId)).toHaveLength(2);
  });

  it('counts per room: another room has its whole quota', async () => {
    const { actor, channelId } = await world.room();
    await expect(world.upload(actor, { channelId }, pdf(3 * MB))).resolves.toMatchObject({ size: 3 * MB });
  });

  it('counts uploads in progress (reservations); one a dead process left stops counting after its time and is swept', async () => {
    const { actor, channelId } = await world.room();
    await world.pool.query(
      "INSERT INTO messaging.storage_reservations (id, workspace_id, bytes) VALUES ('in-progress', $1, $2)",
      [actor.workspaceId, 3 * MB],
    );
    await expect(world.upload(actor, { channelId }, pdf(100, 'tiny.pdf'))).rejects.toMatchObject({
      code: 'STORAGE_QUOTA_EXCEEDED',
    });
    await world.pool.query(
      "UPDATE messaging.storage_reservations SET created_at = now() - make_interval(secs => $1) WHERE id = 'in-progress'",
      [RESERVATION_TTL_MS / 1000 + 1],
    );
    await expect(world.upload(actor, { channelId }, pdf(MB))).resolves.toMatchObject({ size: MB });
    await world.files.sweep();
    const { rows } = await world.pool.query('SELECT id FROM messaging.storage_reservations WHERE workspace_id = $1', [
      actor.workspaceId,
    ]);
    expect(rows).toEqual([]); // the lapsed one swept, the finished upload's released
  });
});
