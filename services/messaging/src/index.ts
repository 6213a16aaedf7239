/**
 * The messaging service's package entry (@ephemera/messaging): what services/embedded, the tests and other services
 * use. It only re-exports: the module (module.ts) and the process (server.ts) import their parts directly, never this
 * file, so nothing here imports back into what re-exports it.
 */
export { MessagingService } from './messaging-service.ts';
export { internalMessagingRouter } from './http.ts';
export { messagingClient } from './client.ts';
export { publicMessagingRouter, linkPreviewServiceFromEnv, type PublicMessagingDeps } from './link-preview/index.ts';
export {
  FileService,
  fileRouter,
  storageFromEnv,
  LocalDiskStorage,
  S3Storage,
  type FileStorage,
  type S3Env,
  type StorageQuota,
} from './files/index.ts';
/** The master key helpers live in the platform (docs/crypto.md); re-exported for the composition roots. */
export { masterKeyFile, parseMasterKey } from '@ephemera/platform';
export { AdminMessaging } from './admin-messaging.ts';
export { MESSAGING_MIGRATIONS, type MessagingModule, startMessagingModule } from './module.ts';
export { startMessagingServer } from './server.ts';
export { pgMessageKeys } from './message-keys.ts';
