/** The messaging service as a module (embedded in-process, or its own process via main.ts). */
import { AdminMessaging } from './admin-messaging.ts';
import { messagingBackupPart } from './backup-part.ts';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TOPICS, type MessageLinkPreview } from '@ephemera/proto';
import {
  projectionHandlers,
  migrate,
  type BackupPart,
  type EventLog,
  type Logger,
  type Pool,
  type RoomKeyring,
} from '@ephemera/platform';
import { MessagingService } from './messaging-service.ts';
import { roomEventsHandler } from './consumers.ts';
import { messagingProjector } from './projection.ts';
import { messageSearch, composeProjectors, type MessageSearch } from './search/index.ts';
import { AccessChecks } from './access.ts';
import { FileService, type FileStorage } from './files/index.ts';
import type { StorageQuota } from './files/quota.ts';

export const MESSAGING_MIGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'migrations');

export interface MessagingModule {
  service: MessagingService;
  search: MessageSearch;
  files: FileService | null;
  /** the superadmin's moderation viewer */
  admin: AdminMessaging;
  /** its part of the service backup */
  backup: BackupPart;
  stop(): Promise<void>;
}

/** How often expired files (ENTITLEMENTS.fileRetentionMs) are looked for. */
const FILE_SWEEP_MS = 60_000;

export async function startMessagingModule(deps: {
  databaseUrl: string;
  pool: Pool;
  log: EventLog;
  logger: Logger;
  now?: () => Date;
  logSharesDatabase?: boolean;
  /** room keys (docs/crypto.md): the read model and the search index are sealed / keyed under each room's key */
  keyring: RoomKeyring;
  /** the link-preview service whose cache a sent message's preview comes from (the same one the route uses) */
  linkPreviews?: { cached(url: string): MessageLinkPreview | null };
  /** where uploaded files live (local disk embedded, S3 distributed); absent: no file routes */
  storage?: FileStorage;
  /** the retention sweeper's period (tests shorten it) */
  fileSweepIntervalMs?: number;
  /** a room's file storage quota by tier (default: roomStorageBytes; tests make it small) */
  storageQuota?: StorageQuota;
}): Promise<MessagingModule> {
  await migrate(deps.databaseUrl, MESSAGING_MIGRATIONS, 'messaging');
  const search = messageSearch(deps.pool, deps.keyring);
  const project = composeProjectors(messagingProjector(deps.keyring), search.projector);
  const service = new MessagingService({ ...deps, project });
  service.search = search;
  const files = deps.storage
    ? new FileService({
        pool: deps.pool,
        log: deps.log,
        logger: deps.logger,
        keyring: deps.keyring,
        storage: deps.storage,
        project,
        now: deps.now ?? (() => new Date()),
        access: new AccessChecks(deps.pool, deps.now ?? (() => new Date()), () => service.roomProjection),
        logSharesDatabase: deps.logSharesDatabase,
        storageQuota: deps.storageQuota,
      })
    : null;
  // A deleted message's file: its bytes go once the removal is recorded (a failure leaves them sealed under the room key).
  if (files)
    service.removeStoredObjects = (keys) =>
      files.removeObjects(keys).catch((err) => deps.logger.warn({ err }, "removing a deleted message's file failed"));
  // Two consumers: room events (who may post where) and our own message events (replay, crash recovery).
  const rooms = await deps.log.subscribe({
    groupId: 'messaging-rooms',
    topics: [TOPICS.room],
    fromBeginning: true,
    handler: roomEventsHandler({ pool: deps.pool, project, service, files, logger: deps.logger }),
  });
  const messages = await deps.log.subscribe({
    groupId: 'messaging-projection',
    topics: [TOPICS.messaging],
    fromBeginning: true,
    // Events this process appended were applied on the command path already; skipping them here saves a
    // transaction per message. Anything else (another process, a replay, a crash in between) is applied. Nothing
    // waits on it but a read after a failed write, so its records may gather (fewer fetches per message).
    gather: true,
    ...projectionHandlers(deps.pool, 'messaging', project, { skip: (event) => service.takeAppliedHere(event.id) }),
  });
  await Promise.all([rooms.caughtUp(), messages.caughtUp()]);
  service.roomProjection = rooms;
  service.ownProjection = messages;
  let sweeping = false;
  const sweeper = files
    ? setInterval(() => {
        if (sweeping) return;
        sweeping = true;
        files
          .sweep()
          .catch((err) => deps.logger.warn({ err }, 'file retention sweep failed'))
          .finally(() => {
            sweeping = false;
          });
      }, deps.fileSweepIntervalMs ?? FILE_SWEEP_MS)
    : null;
  sweeper?.unref();
  return {
    service,
    search,
    files,
    admin: new AdminMessaging(service, deps.pool, deps.keyring),
    backup: messagingBackupPart(deps.pool),
    async stop() {
      if (sweeper) clearInterval(sweeper);
      await Promise.all([rooms.stop(), messages.stop()]);
      await deps.storage?.close?.();
    },
  };
}
