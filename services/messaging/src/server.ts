/** The messaging service as its own process (distributed mode). */
import express from 'express';
import {
  kafkaEventLog,
  sealedEventLog,
  RoomKeyring,
  createPool,
  pgReady,
  serveHttp,
  createRateLimits,
  internalRpcRouter,
  internalRpcClient,
  backupPartRouter,
  MaintenanceState,
  maintenanceGuard,
  serviceCredential,
  MESSAGE_KEYS_METHODS,
  MESSAGE_KEYS_PREFIX,
  type LimitConfig,
  type Logger,
  type ServiceServer,
} from '@ephemera/platform';
import { roomKeyClient } from '@ephemera/room/src/room-keys-http.ts';
import {
  TOPICS,
  ADMIN_MESSAGING_PREFIX,
  ADMIN_MESSAGING_METHODS,
  ROOM_TOKENS_PREFIX,
  ROOM_TOKENS_METHODS,
  type RoomTokensApi,
} from '@ephemera/proto';
import { startMessagingModule } from './module.ts';
import { pgMessageKeys } from './message-keys.ts';
import { internalMessagingRouter } from './http.ts';
import { publicMessagingRouter, linkPreviewServiceFromEnv } from './link-preview/index.ts';
import { fileRouter, type FileStorage, type StorageQuota } from './files/index.ts';

export async function startMessagingServer(opts: {
  port: number;
  masterKey?: Buffer;
  host?: string;
  databaseUrl: string;
  kafkaBrokers: string[];
  eventLogNamespace?: string;
  logger: Logger;
  now?: () => Date;
  /** shared rate-limit counters (link previews per user); absent: this process's memory */
  redisUrl?: string;
  rateLimits?: LimitConfig;
  trustedProxies?: string[];
  metrics?: { port: number; host?: string };
  /** ROOM_URL: the room service, which hands out room keys (docs/crypto.md) and says whose a bearer token is */
  roomUrl: string;
  /** uploaded files (S3_* settings: an S3-compatible bucket); absent: the file routes answer UNAVAILABLE */
  storage?: FileStorage;
  /** the file retention sweeper's period (default a minute; tests shorten it) */
  fileSweepIntervalMs?: number;
  /** a room's file storage quota by tier (default: proto's roomStorageBytes; tests make it small) */
  storageQuota?: StorageQuota;
  /** SERVICE_SECRET (internal calls are signed and verified with it) and INTERNAL_PORT (0 or absent: any free port) */
  serviceSecret: string;
  internalPort?: number;
}): Promise<ServiceServer> {
  const pool = createPool(opts.databaseUrl);
  const credential = serviceCredential('messaging', opts.serviceSecret);
  const keyring = new RoomKeyring(roomKeyClient(opts.roomUrl, credential));
  const messageKeys = pgMessageKeys(pool); // each message's own key (docs/crypto.md "Messages")
  const log = sealedEventLog(
    kafkaEventLog({
      brokers: opts.kafkaBrokers,
      clientId: 'messaging',
      logger: opts.logger,
      namespace: opts.eventLogNamespace,
    }),
    keyring,
    { logger: opts.logger, messageKeys },
  );
  await log.init(Object.values(TOPICS));
  const maintenance = await MaintenanceState.start({ log, processId: 'messaging', logger: opts.logger }); // writes refused while on
  const linkPreviews = linkPreviewServiceFromEnv({ masterKey: opts.masterKey }); // preview images are signed with a key derived from it
  const module = await startMessagingModule({
    databaseUrl: opts.databaseUrl,
    pool,
    log,
    logger: opts.logger,
    now: opts.now,
    keyring,
    linkPreviews,
    storage: opts.storage,
    fileSweepIntervalMs: opts.fileSweepIntervalMs,
    storageQuota: opts.storageQuota,
  });
  const limits = createRateLimits({
    redisUrl: opts.redisUrl,
    namespace: opts.eventLogNamespace,
    config: opts.rateLimits,
  });
  // The bearer routes ask the room service whose a token is on every request (it issues, replaces and revokes them).
  const tokens = internalRpcClient<RoomTokensApi>(opts.roomUrl, credential, ROOM_TOKENS_PREFIX, ROOM_TOKENS_METHODS);
  return serveHttp({
    name: 'messaging',
    port: opts.port,
    host: opts.host,
    logger: opts.logger,
    // public: POST /api/link-preview/fetch, GET /api/link-preview/image (the ingress routes /api/link-preview/ here)
    routers: [
      maintenanceGuard(maintenance),
      publicMessagingRouter({
        tokens,
        linkPreview: linkPreviews,
        limit: (key) => limits.consume('linkPreviewsPerUser', key),
        imageLimit: (key) => limits.consume('linkPreviewImagesPerAddress', key),
      }),
      module.files
        ? // public: /api/workspaces/{id}/files... (the ingress routes them here)
          fileRouter({ tokens, files: module.files, limit: (key) => limits.consume('uploadsPerUser', key) })
        : noFileStorage(),
    ],
    // The internal listener: the gateways' message commands, admin-analytics' moderation viewer.
    internal: {
      port: opts.internalPort ?? 0,
      secret: credential.secret,
      routers: [
        internalMessagingRouter(module.service, opts.logger),
        internalRpcRouter(ADMIN_MESSAGING_PREFIX, module.admin, ADMIN_MESSAGING_METHODS), // admin-analytics: the moderation viewer
        backupPartRouter('messaging', module.backup), // admin-analytics: the service backup
        internalRpcRouter(MESSAGE_KEYS_PREFIX, messageKeys, MESSAGE_KEYS_METHODS), // the gateways: message bodies
      ],
    },
    ready: () => pgReady(pool),
    trustProxy: opts.trustedProxies,
    metrics: opts.metrics,
    onStop: async () => {
      await maintenance.stop();
      await module.stop();
      await log.close();
      await pool.end();
      await limits.close();
    },
  });
}

/** Without S3 settings the file routes exist but say so, rather than falling through to a 404. */
function noFileStorage(): express.Router {
  const r = express.Router();
  r.all(/^\/api\/workspaces\/[^/]+\/files/, (_req, res) => {
    res
      .status(503)
      .json({ success: false, code: 'UNAVAILABLE', message: 'File storage is not configured (S3_BUCKET)' });
  });
  return r;
}
