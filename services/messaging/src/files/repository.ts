/** Reads of messaging.files, opened with the room's key. */
import type { Pool, RoomKey } from '@ephemera/platform';
import { API, type MessageFile } from '@ephemera/proto';
import type { FileMeta } from './projection.ts';
import type { FileKind } from './file-types.ts';

export interface StoredFile {
  id: string;
  workspaceId: string;
  channelId: string | null;
  uploaderId: string;
  purpose: 'message' | 'voice' | 'avatar';
  kind: FileKind;
  size: number;
  storageKey: string;
  thumbnailKey: string | null;
  thumbnailSize: number | null;
  meta: FileMeta;
  uploadedAt: Date;
  expiresAt: Date | null;
  messageId: string | null;
}

const COLUMNS = `id, workspace_id, channel_id, uploader_id, purpose, kind, size, storage_key, thumbnail_key, thumbnail_size, sealed_meta,
  uploaded_at, expires_at, message_id`;

function fromRow(key: RoomKey, r: Record<string, unknown>): StoredFile {
  return {
    id: r.id as string,
    workspaceId: r.workspace_id as string,
    channelId: r.channel_id as string | null,
    uploaderId: r.uploader_id as string,
    purpose: r.purpose as StoredFile['purpose'],
    kind: r.kind as FileKind,
    size: Number(r.size),
    storageKey: r.storage_key as string,
    thumbnailKey: r.thumbnail_key as string | null,
    thumbnailSize: r.thumbnail_size as number | null,
    meta: key.openJson<FileMeta>(r.sealed_meta as string, r.id as string),
    uploadedAt: r.uploaded_at as Date,
    expiresAt: r.expires_at as Date | null,
    messageId: r.message_id as string | null,
  };
}

export async function fileById(
  pool: Pool,
  key: RoomKey,
  workspaceId: string,
  fileId: string,
): Promise<StoredFile | null> {
  const { rows } = await pool.query(`SELECT ${COLUMNS} FROM messaging.files WHERE workspace_id = $1 AND id = $2`, [
    workspaceId,
    fileId,
  ]);
  return rows[0] ? fromRow(key, rows[0]) : null;
}

/** The files a send batch names (one query). */
export async function filesByIds(
  pool: Pool,
  key: RoomKey,
  workspaceId: string,
  ids: string[],
): Promise<Map<string, StoredFile>> {
  if (ids.length === 0) return new Map();
  const { rows } = await pool.query(
    `SELECT ${COLUMNS} FROM messaging.files WHERE workspace_id = $1 AND id = ANY ($2)`,
    [workspaceId, ids],
  );
  return new Map(rows.map((r) => [r.id as string, fromRow(key, r)]));
}

/** Files whose retention ran out. */
export async function expiredFiles(
  pool: Pool,
  now: Date,
  limit = 500,
): Promise<{ id: string; workspaceId: string; storageKey: string; thumbnailKey: string | null }[]> {
  const { rows } = await pool.query(
    'SELECT id, workspace_id, storage_key, thumbnail_key FROM messaging.files WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2',
    [now, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    workspaceId: r.workspace_id,
    storageKey: r.storage_key,
    thumbnailKey: r.thumbnail_key,
  }));
}

export async function roomTier(pool: Pool, workspaceId: string): Promise<'free' | 'pro' | 'business' | null> {
  const { rows } = await pool.query('SELECT tier FROM messaging.workspaces WHERE id = $1', [workspaceId]);
  return (rows[0]?.tier as 'free' | 'pro' | 'business' | undefined) ?? null;
}

/** How a stored file is described to members (upload answer, message.file). */
export function describe(
  f: Pick<StoredFile, 'id' | 'workspaceId' | 'kind' | 'size' | 'thumbnailKey' | 'meta'>,
): MessageFile {
  return {
    id: f.id,
    kind: f.kind,
    name: f.meta.name,
    mime: f.meta.mime,
    size: f.size,
    caption: f.meta.caption,
    url: API.file(f.workspaceId, f.id),
    thumbnailUrl: f.thumbnailKey ? `${API.file(f.workspaceId, f.id)}?variant=thumb` : null,
    durationMs: f.meta.durationMs,
    width: f.meta.width,
    height: f.meta.height,
  };
}

/** The storage keys (files and thumbnails) of a channel's files. */
export async function storageKeysOfChannel(pool: Pool, channelId: string): Promise<string[]> {
  const { rows } = await pool.query('SELECT storage_key, thumbnail_key FROM messaging.files WHERE channel_id = $1', [
    channelId,
  ]);
  return rows.flatMap((r) => [r.storage_key as string, ...(r.thumbnail_key ? [r.thumbnail_key as string] : [])]);
}

/** The storage keys (file and thumbnail) of one of the room's files still stored; null when it is not. */
export async function storageKeysOfFile(pool: Pool, workspaceId: string, fileId: string): Promise<string[] | null> {
  const { rows } = await pool.query(
    'SELECT storage_key, thumbnail_key FROM messaging.files WHERE id = $1 AND workspace_id = $2',
    [fileId, workspaceId],
  );
  const r = rows[0];
  return r ? [r.storage_key as string, ...(r.thumbnail_key ? [r.thumbnail_key as string] : [])] : null;
}
