/** The room service as a module: composed in-process by services/embedded.ts, or as its own process by main.ts. */
import path from 'node:path';
import { AdminRooms } from './superadmin-rooms.ts';
import { roomBackupPart } from './backup-part.ts';
import { fileURLToPath } from 'node:url';
import { TOPICS } from '@ephemera/proto';
import {
  projectionHandlers,
  migrate,
  type BackupPart,
  type ImageSigner,
  type EventLog,
  type Logger,
  type Pool,
  type RoomKeyStore,
  type RoomKeyring,
  type Subscription,
} from '@ephemera/platform';
import { RoomService } from './room-service.ts';
import { roomProjector } from './projection.ts';
import { fillRoomNameKeys, rehashChannelNames, rehashUsernames, sealChannelNames } from './name-rehash.ts';

export const ROOM_MIGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'migrations');

export interface RoomModule {
  service: RoomService;
  /** the superadmin's actions */ admin: AdminRooms;
  /** its part of the service backup */ backup: BackupPart;
  stop(): Promise<void>;
}

export async function startRoomModule(deps: {
  databaseUrl: string;
  pool: Pool;
  log: EventLog;
  logger: Logger;
  sweepIntervalMs?: number;
  now?: () => Date;
  /** the room data keys this service owns (docs/crypto.md) */
  roomKeys: RoomKeyStore;
  /** the same keys, cached in memory (read-model values are sealed under them) */
  keyring: RoomKeyring;
  /** signs the custom theme's logo for messaging's image proxy (same master key as messaging); absent: the development key */
  imageSigner?: ImageSigner;
}): Promise<RoomModule> {
  await migrate(deps.databaseUrl, ROOM_MIGRATIONS, 'room');
  const service = new RoomService(deps);
  const project = roomProjector(deps.keyring);
  // The projection consumer rebuilds the read model from the log (replay) and picks up anything this process
  // appended but did not apply before a crash. It must be current before we take commands.
  const projection: Subscription = await deps.log.subscribe({
    groupId: 'room-projection',
    topics: [TOPICS.room],
    fromBeginning: true,
    ...projectionHandlers(deps.pool, 'room', project),
  });
  await projection.caughtUp();
  await rehashUsernames(deps.pool, deps.keyring, deps.logger);
  await fillRoomNameKeys(deps.pool);
  await sealChannelNames(deps.pool, deps.keyring);
  await rehashChannelNames(deps.pool, deps.keyring);
  // The DM policy: a message in a DM someone hid brings it back for them (dm.reopened). A durable group of its own,
  // from the beginning, after the projection is current; the policy is idempotent, so redelivery is harmless. It
  // reads every message to act on a few.
  const dmPolicy: Subscription = await deps.log.subscribe({
    groupId: 'room-dm-policy',
    topics: [TOPICS.messaging],
    fromBeginning: true,
    gather: true, // a hidden DM may come back a second or two after the message: fewer fetches per message
    handler: async ({ event }) => {
      // Only messages to a listed audience can be in a DM; public-channel messages cost nothing here.
      if (event.type === 'message.sent' && event.payload.audience.kind === 'users')
        await service.reopenDmAfterMessage(event.payload.message);
    },
  });
  const sweep = setInterval(() => {
    service.sweepExpired().catch((err) => deps.logger.error({ err }, 'expiry sweep failed'));
  }, deps.sweepIntervalMs ?? 60_000);
  sweep.unref();
  return {
    service,
    admin: new AdminRooms(service),
    backup: roomBackupPart(deps.pool, deps.roomKeys),
    async stop() {
      clearInterval(sweep);
      await dmPolicy.stop();
      await projection.stop();
    },
  };
}
