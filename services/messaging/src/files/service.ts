/**
 * Files and voice messages (messaging owns them): upload -> stored encrypted -> file.uploaded (durable) -> applied;
 * signed links; downloads with Range; retention by tier; removal with the room. Checks come from the same read
 * model and authorization table as messages (access.ts): a member who may read the file's channel.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { timingSafeEqual } from 'node:crypto';
import {
  C,
  DomainError,
  ENTITLEMENTS,
  PROFILE_IMAGE_MAX_BYTES,
  SOCKET_AUTHZ,
  type DomainEventPayload,
  type EventEnvelope,
  type MessageFile,
  type SessionActor,
  type Tier,
} from '@ephemera/proto';
import {
  createRecorder,
  makeEvent,
  newId,
  systemActor,
  userActor,
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
import { decryptRange, encryptStream, newFileKeys, openFileKeys, sealFileKeys, storedSize } from './file-crypto.ts';
import { encryptStreamOffThread } from './file-cipher-thread.ts';
import { INLINE_MIMES } from './file-types.ts';
import { describe, expiredFiles, fileById, roomTier, type StoredFile } from './repository.ts';
import { makeThumbnail, THUMBNAIL_MAX_BYTES } from './thumbnail.ts';
import { parseUpload, type IncomingFile, type UploadFields } from './upload.ts';
import {
  defaultStorageQuota,
  releaseStorage,
  reserveStorage,
  settleStorage,
  sweepStorageReservations,
  type Reservation,
  type StorageQuota,
} from './quota.ts';

/** Signed links live this long: long enough to load a page of media, short enough that a leaked one soon dies. */
export const LINK_TTL_MS = 15 * 60 * 1000;

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

export interface Download {
  status: 200 | 206;
  headers: Record<string, string>;
  body: Readable;
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
        (fields, file) => this.store(actor, key, fields, file, reservation!),
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

  private async store(
    actor: SessionActor,
    key: RoomKey,
    fields: UploadFields,
    file: IncomingFile,
    reservation: Reservation,
  ) {
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
    const stored = this.deps.storage.put(storageKey, encrypted);
    try {
      await Promise.all([pipeline(file.body, encrypted), stored]);
    } catch (err) {
      await stored.catch(() => {});
      await this.deps.storage.delete(storageKey).catch(() => {});
      if (file.truncated())
        throw new DomainError(
          fields.purpose === 'avatar' ? 'PROFILE_IMAGE_TOO_LARGE' : 'FILE_TOO_LARGE',
          await this.tooLargeText(actor.workspaceId, fields.purpose),
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
          await this.deps.storage.put(
            thumbnailKey,
            Readable.from([thumb.data]).pipe(encryptStream(fileKeys.thumb, `${fileId}.thumb`)),
          );
        }
      }
      // The reservation becomes what is really kept (the thumbnail included): refused if that passes the quota.
      const kept = size + (thumbnailSize ?? 0);
      if (!(await settleStorage(this.deps.pool, reservation, kept, await this.quotaOf(actor.workspaceId))))
        throw new DomainError('STORAGE_QUOTA_EXCEEDED');
      const tier = await this.tierOf(actor.workspaceId);
      const retention = ENTITLEMENTS[tier].fileRetentionMs;
      const now = this.deps.now();
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
      if (!(await this.deps.keyring.confirm(actor.workspaceId))) throw new DomainError('WORKSPACE_NOT_FOUND');
      // Read your writes: a send-message naming this file right after the answer finds it. Only a failed append
      // rejects (a failed apply after it leaves the file to the consumer): the bytes go only when nothing is durable.
      await this.recorder.record([event]);
    } catch (err) {
      await this.deps.storage.delete(storageKey).catch(() => {});
      if (thumbnailKey) await this.deps.storage.delete(thumbnailKey).catch(() => {});
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
    const exp = this.deps.now().getTime() + LINK_TTL_MS;
    const base = describe(file);
    const sign = (variant: string) =>
      `u=${encodeURIComponent(actor.userId)}&exp=${exp}&sig=${signature(key, fileId, variant, actor.userId, exp)}`;
    return {
      url: `${base.url}?${sign('file')}`,
      thumbnailUrl: file.thumbnailKey ? `${base.url}?variant=thumb&${sign('thumb')}` : null,
      expiresAt: new Date(exp).toISOString(),
    };
  }

  /** Checks a signed link: the signature under the room's key, not expired; answers the member it names. */
  async verifyLink(
    workspaceId: string,
    fileId: string,
    variant: string,
    q: { u?: unknown; exp?: unknown; sig?: unknown },
  ): Promise<string> {
    const userId = typeof q.u === 'string' ? q.u : '';
    const exp = Number(q.exp);
    const sig = typeof q.sig === 'string' ? q.sig : '';
    if (!userId || !Number.isFinite(exp) || !sig) throw new DomainError('NOT_AUTHENTICATED');
    if (exp < this.deps.now().getTime()) throw new DomainError('NOT_AUTHENTICATED', 'This link has expired');
    const key = await this.deps.keyring.key(workspaceId);
    if (!key) throw new DomainError('WORKSPACE_NOT_FOUND');
    const want = Buffer.from(signature(key, fileId, variant, userId, exp));
    const got = Buffer.from(sig);
    if (want.length !== got.length || !timingSafeEqual(want, got)) throw new DomainError('NOT_AUTHENTICATED');
    return userId;
  }

  /** The file's bytes (or a range), decrypted as they stream, with safe headers. */
  async download(
    actor: SessionActor,
    fileId: string,
    variant: 'file' | 'thumb',
    rangeHeader: string | undefined,
  ): Promise<Download> {
    const { file, key } = await this.readable(actor, fileId);
    const thumb = variant === 'thumb';
    const fileKeys = openFileKeys(key, file.id, file.meta.fileKey);
    const fileKey = thumb ? fileKeys.thumb : fileKeys.file;
    if (thumb && !file.thumbnailKey) throw new DomainError('FILE_NOT_FOUND');
    const size = thumb ? (file.thumbnailSize ?? 0) : file.size;
    const mime = thumb ? 'image/webp' : file.meta.mime;
    const range = thumb ? null : parseRange(rangeHeader, size);
    const start = range?.start ?? 0;
    const end = range?.end ?? size - 1;
    const objectId = thumb ? `${file.id}.thumb` : file.id;
    const plan = decryptRange(fileKey, objectId, size, start, end);
    const source = await this.deps.storage.get(
      thumb ? file.thumbnailKey! : file.storageKey,
      size === 0
        ? undefined
        : plan.stored.end < storedSize(size) - 1 || plan.stored.start > 0
          ? plan.stored
          : undefined,
    );
    const body = source.pipe(plan.transform);
    source.on('error', (err) => plan.transform.destroy(err));
    const inline = INLINE_MIMES.has(mime);
    const name = thumb ? `${file.meta.name}.webp` : file.meta.name;
    const headers: Record<string, string> = {
      'Content-Type': mime.startsWith('text/') ? `${mime}; charset=utf-8` : mime,
      'Content-Length': String(size === 0 ? 0 : end - start + 1),
      'Content-Disposition': `${inline ? 'inline' : 'attachment'}; filename="${asciiName(name)}"; filename*=UTF-8''${encodeURIComponent(name)}`,
      'X-Content-Type-Options': 'nosniff',
      // Even if a browser were talked into rendering it, a served file runs nothing and reaches nothing.
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'Cache-Control': 'private, no-store',
      'Accept-Ranges': thumb ? 'none' : 'bytes',
      'Cross-Origin-Resource-Policy': 'same-origin',
    };
    if (range) headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
    return { status: range ? 206 : 200, headers, body };
  }

  /** The storage keys (files and thumbnails) of a channel's files. */
  async storageKeysOfChannel(channelId: string): Promise<string[]> {
    const { rows } = await this.deps.pool.query(
      'SELECT storage_key, thumbnail_key FROM messaging.files WHERE channel_id = $1',
      [channelId],
    );
    return rows.flatMap((r) => [r.storage_key as string, ...(r.thumbnail_key ? [r.thumbnail_key as string] : [])]);
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

function signature(key: RoomKey, fileId: string, variant: string, userId: string, exp: number): string {
  return key.hash('file-link-v1', `${fileId}\u0000${variant}\u0000${userId}\u0000${exp}`);
}

const asciiName = (name: string) => name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');

/** One range of `bytes=a-b`, `bytes=a-` or `bytes=-n`; anything else (several ranges, nonsense): the whole file. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!m || size === 0 || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start > end || start >= size) throw new DomainError('VALIDATION', 'Range Not Satisfiable');
  return { start, end };
}
