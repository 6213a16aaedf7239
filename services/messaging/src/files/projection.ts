/**
 * File events -> messaging.files (read model). The file's name, type, caption and data key are sealed under the
 * room's key (AAD = the file id); a room whose key is gone stores nothing again. Idempotent (applyOnce).
 */
import type { AnyEventEnvelope, DomainEventPayload } from '@ephemera/proto';
import type { PoolClient, RoomKeyring } from '@ephemera/platform';
import { holdAgainstRemoval } from '../projection-rooms.ts';

/** What sealed_meta holds. */
export interface FileMeta {
  name: string;
  mime: string;
  caption: string | null;
  durationMs: number | null;
  width: number | null;
  height: number | null;
  /** the file's data key, itself sealed under the room key (file-crypto.ts) */
  fileKey: string;
}

export async function projectFileEvent(
  db: PoolClient,
  keyring: RoomKeyring,
  event: AnyEventEnvelope,
): Promise<boolean> {
  if (event.type === 'file.uploaded') {
    const f = event.payload as DomainEventPayload<'file.uploaded'>;
    const key = await keyring.key(f.workspaceId);
    if (!key) return true;
    const meta: FileMeta = {
      name: f.name,
      mime: f.mime,
      caption: f.caption,
      durationMs: f.durationMs,
      width: f.width,
      height: f.height,
      fileKey: f.fileKey,
    };
    // not into a room or channel being removed meanwhile (its removal would miss this row: holdAgainstRemoval)
    await holdAgainstRemoval(db, f.channelId ? [f.workspaceId, f.channelId] : [f.workspaceId]);
    await db.query(
      `INSERT INTO messaging.files (id, workspace_id, channel_id, uploader_id, purpose, kind, size, storage_key, thumbnail_key, thumbnail_size,
                                    sealed_meta, uploaded_at, expires_at)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13
       WHERE NOT EXISTS (SELECT 1 FROM messaging.expired_workspaces WHERE id = $2)
         AND NOT EXISTS (SELECT 1 FROM messaging.deleted_channels WHERE id = $3)
       ON CONFLICT (id) DO NOTHING`,
      [
        f.fileId,
        f.workspaceId,
        f.channelId,
        f.uploaderId,
        f.purpose,
        f.kind,
        f.size,
        f.storageKey,
        f.thumbnailKey,
        f.thumbnailSize,
        key.sealJson(meta, f.fileId),
        f.uploadedAt,
        f.expiresAt,
      ],
    );
    return true;
  }
  if (event.type === 'file.removed') {
    await db.query('DELETE FROM messaging.files WHERE id = $1', [
      (event.payload as DomainEventPayload<'file.removed'>).fileId,
    ]);
    return true;
  }
  return false;
}

/** A sent message carries its file: the file is now attached (one message per upload). */
export async function attachFile(db: PoolClient, fileId: string, messageId: string): Promise<void> {
  await db.query('UPDATE messaging.files SET message_id = $2 WHERE id = $1 AND message_id IS NULL', [
    fileId,
    messageId,
  ]);
}
