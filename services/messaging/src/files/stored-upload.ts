/**
 * Storing one upload (files/service.ts upload() calls it once the multipart body's file starts): its bytes encrypted
 * as they stream into storage, a thumbnail for small images, the room's quota settled with what is kept, then
 * file.uploaded recorded; on any failure the stored objects go again, so storage holds nothing no event describes.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DomainError,
  ENTITLEMENTS,
  type DomainEventPayload,
  type EventEnvelope,
  type MessageFile,
  type SessionActor,
  type Tier,
} from '@ephemera/proto';
import {
  makeEvent,
  newId,
  userActor,
  type Pool,
  type Recorder,
  type RoomKey,
  type RoomKeyring,
} from '@ephemera/platform';
import type { FileStorage } from './storage/port.ts';
import { encryptStream, newFileKeys, sealFileKeys } from './file-crypto.ts';
import { encryptStreamOffThread } from './file-cipher-thread.ts';
import { describe } from './repository.ts';
import { makeThumbnail, THUMBNAIL_MAX_BYTES } from './thumbnail.ts';
import type { IncomingFile, UploadFields } from './upload.ts';
import { settleStorage, type Reservation } from './quota.ts';

/** What storing needs of the file service: its dependencies, its recorder, and the room's tier and quota. */
export interface StoreContext {
  deps: { pool: Pool; storage: FileStorage; keyring: RoomKeyring; now: () => Date };
  recorder: Recorder;
  tierOf(workspaceId: string): Promise<Tier>;
  quotaOf(workspaceId: string): Promise<number>;
  tooLargeText(workspaceId: string, purpose: UploadFields['purpose']): Promise<string>;
}

/** One upload: who sends it, the room's key, the form's fields, the file as it streams in, its storage reservation. */
export interface StoreInput {
  actor: SessionActor;
  key: RoomKey;
  fields: UploadFields;
  file: IncomingFile;
  reservation: Reservation;
}

export async function storeUpload(
  ctx: StoreContext,
  { actor, key, fields, file, reservation }: StoreInput,
): Promise<MessageFile & { expiresAt: string | null }> {
  const fileId = newId();
  const storageKey = `${actor.workspaceId}/${fileId}`;
  const fileKeys = newFileKeys();
  // Small images are also kept in memory for the thumbnail; everything else only streams through.
  const copy: Buffer[] = [];
  let copied = 0;
  if (file.detected.kind === 'image') {
    // a copy: the encryption recycles the upload's buffers once it has read them (platform/recycled-buffers.ts)
    file.body.on('data', (c: Buffer) => {
      if (copied <= THUMBNAIL_MAX_BYTES) {
        copy.push(Buffer.from(c));
        copied += c.length;
      }
    });
  }
  const encrypted = encryptStreamOffThread(fileKeys.file, fileId); // sealed on the encryption thread (file-cipher-thread.ts)
  const stored = ctx.deps.storage.put(storageKey, encrypted);
  try {
    await Promise.all([pipeline(file.body, encrypted), stored]);
  } catch (err) {
    await stored.catch(() => {});
    await ctx.deps.storage.delete(storageKey).catch(() => {});
    if (file.truncated())
      throw new DomainError(
        fields.purpose === 'avatar' ? 'PROFILE_IMAGE_TOO_LARGE' : 'FILE_TOO_LARGE',
        await ctx.tooLargeText(actor.workspaceId, fields.purpose),
      );
    throw err;
  }
  let thumbnailKey: string | null = null;
  let thumbnailSize: number | null = null;
  let width: number | null = null;
  let height: number | null = null;
  // From here on the object exists: any failure (the room deleted meanwhile, the log refusing) removes it again,
  // so nothing is left in storage that no event describes.
  const size = file.size();
  let payload: DomainEventPayload<'file.uploaded'>;
  let event: EventEnvelope<'file.uploaded'>;
  try {
    if (file.detected.kind === 'image' && copied <= THUMBNAIL_MAX_BYTES) {
      const thumb = await makeThumbnail(Buffer.concat(copy));
      if (thumb) {
        thumbnailKey = `${storageKey}.thumb`;
        thumbnailSize = thumb.data.length;
        width = thumb.width;
        height = thumb.height;
        await ctx.deps.storage.put(
          thumbnailKey,
          Readable.from([thumb.data]).pipe(encryptStream(fileKeys.thumb, `${fileId}.thumb`)),
        );
      }
    }
    // The reservation becomes what is really kept (the thumbnail included): refused if that passes the quota.
    const kept = size + (thumbnailSize ?? 0);
    if (!(await settleStorage(ctx.deps.pool, reservation, kept, await ctx.quotaOf(actor.workspaceId))))
      throw new DomainError('STORAGE_QUOTA_EXCEEDED');
    const tier = await ctx.tierOf(actor.workspaceId);
    const retention = ENTITLEMENTS[tier].fileRetentionMs;
    const now = ctx.deps.now();
    payload = {
      workspaceId: actor.workspaceId,
      fileId,
      channelId: fields.channelId,
      uploaderId: actor.userId,
      purpose: fields.purpose,
      kind: file.detected.kind,
      name: file.name,
      mime: file.detected.mime,
      size,
      caption: fields.caption,
      durationMs: file.detected.kind === 'voice' || file.detected.kind === 'video' ? fields.durationMs : null,
      width,
      height,
      storageKey,
      thumbnailKey,
      thumbnailSize,
      fileKey: sealFileKeys(key, fileId, fileKeys),
      uploadedAt: now.toISOString(),
      expiresAt: retention === null ? null : new Date(now.getTime() + retention).toISOString(),
    };
    event = makeEvent('file.uploaded', fileId, 1, payload, userActor(actor.userId));
    // The room may have been deleted while the body streamed in. This process's cached key and read model learn of
    // that only from the deletion's event (distributed: through Kafka, late under load), so the key's owner is
    // asked: a file of a deleted room is refused and removed rather than stored and described.
    if (!(await ctx.deps.keyring.confirm(actor.workspaceId))) throw new DomainError('WORKSPACE_NOT_FOUND');
    // Read your writes: a send-message naming this file right after the answer finds it. Only a failed append
    // rejects (a failed apply after it leaves the file to the consumer): the bytes go only when nothing is durable.
    await ctx.recorder.record([event]);
  } catch (err) {
    await ctx.deps.storage.delete(storageKey).catch(() => {});
    if (thumbnailKey) await ctx.deps.storage.delete(thumbnailKey).catch(() => {});
    throw err;
  }
  return {
    ...describe({
      id: fileId,
      workspaceId: actor.workspaceId,
      kind: payload.kind,
      size,
      thumbnailKey,
      meta: {
        name: payload.name,
        mime: payload.mime,
        caption: payload.caption,
        durationMs: payload.durationMs,
        width,
        height,
        fileKey: '',
      },
    }),
    expiresAt: payload.expiresAt,
  };
}
