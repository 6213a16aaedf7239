/**
 * Files and voice messages (messaging owns them): upload -> stored encrypted -> file.uploaded (durable) -> applied;
 * signed links; downloads with Range; retention by tier; removal with the room. Checks come from the same read
 * model and authorization table as messages (access.ts): a member who may read the file's channel.
 */
import { Readable } from 'node:stream';
import {
  C,
  DomainError,
  ENTITLEMENTS,
  PROFILE_IMAGE_MAX_BYTES,
  SOCKET_AUTHZ,
  type MessageFile,
  type SessionActor,
  type Tier,
} from '@ephemera/proto';
import {
  createRecorder,
  makeEvent,
  systemActor,
  type EventLog,
  type Logger,
  type Pool,
  type Projector,
  type Recorder,
  type RoomKey,
  type RoomKeyring,
} from '@ephemera/platform';
import type { AccessChecks } from '../access.ts';
import { servingKey } from '../sealed-messages.ts';
import type { FileStorage } from './storage/port.ts';
import { expiredFiles, fileById, roomTier, storageKeysOfChannel, type StoredFile } from './repository.ts';
import { checkSignedLink, fileDownload, signedLinks, type Download } from './downloads.ts';
import { storeUpload } from './stored-upload.ts';
import { parseUpload, type UploadFields } from './upload.ts';
import {
  defaultStorageQuota,
  releaseStorage,
  reserveStorage,
  sweepStorageReservations,
  type Reservation,
  type StorageQuota,
} from './quota.ts';

export interface FileServiceDeps {
  pool: Pool;
  log: EventLog;
  keyring: RoomKeyring;
  storage: FileStorage;
  access: AccessChecks;
  project: Projector;
  now: () => Date;
  logger?: Logger;
  logSharesDatabase?: boolean;
  /** a room's storage quota by tier (default: roomStorageBytes, quota.ts) */
  storageQuota?: StorageQuota;
}

export class FileService {
  /** the write path (platform's recorder): durable in the log, then applied to messaging's read model */
  private readonly recorder: Recorder;

  constructor(private readonly deps: FileServiceDeps) {
    this.recorder = createRecorder({
      log: deps.log,
      readModel: { pool: deps.pool, schema: 'messaging', project: deps.project, flush: !deps.logSharesDatabase },
      logger: deps.logger,
    });
  }

  /** The byte limit of an upload in this room for this purpose (ENTITLEMENTS[tier].fileSizeMb; avatars 5 MB). */
  async limitFor(workspaceId: string, purpose: UploadFields['purpose']): Promise<number> {
    if (purpose === 'avatar') return PROFILE_IMAGE_MAX_BYTES;
    const tier = await this.tierOf(workspaceId);
    return ENTITLEMENTS[tier].fileSizeMb * 1024 * 1024;
  }

  private async tierOf(workspaceId: string): Promise<Tier> {
    const tier = await roomTier(this.deps.pool, workspaceId);
    if (!tier) throw new DomainError('WORKSPACE_NOT_FOUND');
    return tier;
  }

  /** POST /api/workspaces/{id}/files: the caller is a member of the room (bearer), checked again per channel here. */
  async upload(
    actor: SessionActor,
    req: Readable & { headers: import('node:http').IncomingHttpHeaders },
  ): Promise<MessageFile & { expiresAt: string | null }> {
    await this.deps.access.check(actor, SOCKET_AUTHZ[C.sendMessage], null);
    const key = await servingKey(this.deps.keyring, actor.workspaceId);
    // The upload's bytes are reserved before any is stored (quota.ts), released when it ends, stored or not.
    let reservation: Reservation | null = null;
    try {
      // The room's storage left caps the upload too; a full room is refused before anything is stored.
      let cappedByQuota = false;
      const result = await parseUpload(
        req,
        async (fields) => {
          if (fields.channelId)
            await this.deps.access.checkCanRead(actor, SOCKET_AUTHZ[C.sendMessage], fields.channelId);
          const limit = await this.limitFor(actor.workspaceId, fields.purpose);
          // The body's length bounds the file: a small upload does not hold the tier's whole file size meanwhile.
          const wanted = Math.min(limit, Number(req.headers['content-length']) || limit);
          reservation = await reserveStorage(
            this.deps.pool,
            actor.workspaceId,
            wanted,
            await this.quotaOf(actor.workspaceId),
          );
          if (!reservation) throw new DomainError('STORAGE_QUOTA_EXCEEDED');
          cappedByQuota = reservation.bytes < wanted;
          return reservation.bytes;
        },
        (fields, file) =>
          storeUpload(
            {
              deps: this.deps,
              recorder: this.recorder,
              tierOf: (id) => this.tierOf(id),
              quotaOf: (id) => this.quotaOf(id),
              tooLargeText: (id, purpose) => this.tooLargeText(id, purpose),
            },
            { actor, key, fields, file, reservation: reservation! },
          ),
      ).catch((err) => {
        // Cut off at what was left of the room's storage, not at the tier's file size: the quota's answer.
        throw cappedByQuota && err instanceof DomainError && err.code === 'FILE_TOO_LARGE'
          ? new DomainError('STORAGE_QUOTA_EXCEEDED')
          : err;
      });
      return result as MessageFile & { expiresAt: string | null };
    } catch (err) {
      // The room was deleted (or expired) mid-upload: its purge may have removed the folder being written, or its
      // key is gone. That is the room's end, not a server fault: the uploader gets the room's answer, not a 500.
      if (!(err instanceof DomainError) && !(await this.deps.keyring.key(actor.workspaceId).catch(() => key))) {
        throw new DomainError('WORKSPACE_NOT_FOUND');
      }
      throw err;
    } finally {
      await releaseStorage(this.deps.pool, reservation).catch((err) =>
        this.deps.logger?.warn({ err }, 'storage reservation not released (it lapses on its own)'),
      );
    }
  }

  private async quotaOf(workspaceId: string): Promise<number> {
    return (this.deps.storageQuota ?? defaultStorageQuota)(await this.tierOf(workspaceId));
  }

  private async tooLargeText(workspaceId: string, purpose: UploadFields['purpose']): Promise<string> {
    if (purpose === 'avatar') return 'Image size must be less than 5MB';
    const tier = await this.tierOf(workspaceId).catch(() => 'free' as Tier);
    return `File Size Limit Exceeded: files in this room can be up to ${ENTITLEMENTS[tier].fileSizeMb} MB`;
  }

  /** The stored file, if the caller may read it: its channel readable (a profile picture: any member). */
  async readable(actor: SessionActor, fileId: string): Promise<{ file: StoredFile; key: RoomKey }> {
    await this.deps.access.check(actor, SOCKET_AUTHZ[C.fetchMessages], null);
    const key = await servingKey(this.deps.keyring, actor.workspaceId);
    const file = await fileById(this.deps.pool, key, actor.workspaceId, fileId);
    if (!file) throw new DomainError('FILE_NOT_FOUND');
    if (file.channelId) await this.deps.access.checkCanRead(actor, SOCKET_AUTHZ[C.fetchMessages], file.channelId);
    return { file, key };
  }

  /** Signed addresses for <img>/<video>/<audio>, bound to the member (checked again on use) and to a time. */
  async link(
    actor: SessionActor,
    fileId: string,
  ): Promise<{ url: string; thumbnailUrl: string | null; expiresAt: string }> {
    const { file, key } = await this.readable(actor, fileId);
    // bytes gone while the row stands (a restore into a storage that never held them, docs/administration.md
    // "Backups"): the member is told the file is no longer available rather than handed a link that breaks
    if (!(await this.deps.storage.exists(file.storageKey))) throw new DomainError('FILE_NOT_FOUND');
    return signedLinks(file, key, actor.userId, this.deps.now().getTime());
  }

  /** Checks a signed link: the signature under the room's key, not expired; answers the member it names. */
  async verifyLink(
    workspaceId: string,
    fileId: string,
    variant: string,
    q: { u?: unknown; exp?: unknown; sig?: unknown },
  ): Promise<string> {
    return checkSignedLink(this.deps.keyring, workspaceId, fileId, variant, q, this.deps.now().getTime());
  }

  /** The file's bytes (or a range), decrypted as they stream, with safe headers. */
  async download(
    actor: SessionActor,
    fileId: string,
    variant: 'file' | 'thumb',
    rangeHeader: string | undefined,
  ): Promise<Download> {
    const { file, key } = await this.readable(actor, fileId);
    return fileDownload(this.deps.storage, file, key, variant, rangeHeader);
  }

  /** The storage keys (files and thumbnails) of a channel's files. */
  async storageKeysOfChannel(channelId: string): Promise<string[]> {
    return storageKeysOfChannel(this.deps.pool, channelId);
  }

  async removeObjects(keys: string[]): Promise<void> {
    for (const key of keys) await this.deps.storage.delete(key);
  }

  /** The room is gone (deleted or expired): every object under it goes too. Its key is already destroyed. */
  async removeRoom(workspaceId: string): Promise<number> {
    return this.deps.storage.deletePrefix(`${workspaceId}/`);
  }

  /** Retention (ENTITLEMENTS.fileRetentionMs): file.removed for each expired file, then its bytes are deleted. */
  async sweep(): Promise<number> {
    await sweepStorageReservations(this.deps.pool);
    const due = await expiredFiles(this.deps.pool, this.deps.now());
    let removed = 0;
    for (const f of due) {
      const event = makeEvent(
        'file.removed',
        f.id,
        2,
        { workspaceId: f.workspaceId, fileId: f.id, reason: 'retention' },
        systemActor,
      );
      try {
        await this.recorder.record([event]);
      } catch (err) {
        if (err instanceof DomainError && err.code === 'WORKSPACE_NOT_FOUND') {
          await this.removeRoom(f.workspaceId);
          continue;
        }
        throw err;
      }
      await this.deps.storage.delete(f.storageKey);
      if (f.thumbnailKey) await this.deps.storage.delete(f.thumbnailKey);
      removed += 1;
    }
    return removed;
  }
}
