/**
 * The file storage port (docs/architecture.md, Files): where uploaded bytes live. Two adapters pass one contract
 * suite (services/messaging/test/files/storage-contract.ts): local disk under DATA_DIR (embedded) and S3-compatible
 * object storage (distributed). Keys are server-made (`{workspaceId}/{fileId}`), never a user's file name. What is
 * stored is already encrypted under the room's key (files/file-crypto.ts): the storage never sees plaintext.
 */
import type { Readable } from 'node:stream';

/** Inclusive byte range, as HTTP Range counts it. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface FileStorage {
  /** Stores the stream under `key`; resolves with the bytes written. A failed or aborted stream leaves nothing. */
  put(key: string, body: Readable): Promise<{ size: number }>;
  /** The stored bytes (or a range of them); FILE_NOT_FOUND when absent. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /** Whether `key` exists. */
  exists(key: string): Promise<boolean>;
  /** Removes one object; absent is not an error. */
  delete(key: string): Promise<void>;
  /** Removes every object whose key starts with `prefix` (a room: `{workspaceId}/`); resolves with how many. */
  deletePrefix(prefix: string): Promise<number>;
  /** Keys under `prefix` (tests and the retention check). */
  list(prefix: string): Promise<string[]>;
  close?(): Promise<void>;
}

/** Keys are made by the server only: a room id, a slash, a file id, and an optional variant (".thumb"). */
export const STORAGE_KEY = /^[A-Za-z0-9_-]+\/[A-Za-z0-9_-]+(\.thumb)?$/;
export function checkKey(key: string): string {
  if (!STORAGE_KEY.test(key)) throw new Error(`invalid storage key: ${key}`);
  return key;
}
export function checkPrefix(prefix: string): string {
  if (!/^[A-Za-z0-9_-]+\/$/.test(prefix)) throw new Error(`invalid storage prefix: ${prefix}`);
  return prefix;
}
