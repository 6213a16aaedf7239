/** Files and voice messages (messaging owns them): storage port and adapters, the service, its routes. */
export { FileService } from './service.ts';
export { LINK_TTL_MS, parseRange } from './downloads.ts';
export { fileRouter, type FileRouterDeps } from './router.ts';
export {
  storageFromEnv,
  LocalDiskStorage,
  S3Storage,
  type FileStorage,
  type S3Env,
  type S3StorageOptions,
} from './storage/index.ts';
export { type StorageQuota } from './quota.ts';
export { filesByIds, describe as describeFile, type StoredFile } from './repository.ts';
