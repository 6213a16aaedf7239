/** The room service as a module: composed in-process by services/embedded.ts, or as its own process by main.ts. */
import path from 'node:path';
import { AdminRooms } from './superadmin-rooms.ts';
import { roomBackupPart } from './backup-part.ts';
import { fileURLToPath } from 'node:url';
import {
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
import { dmPolicyConsumer, roomProjectionConsumer } from './consumers.ts';
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
  // The projection consumer rebuilds the read model from the log (replay) and picks up anything this process
  // appended but did not apply before a crash. It must be current before we take commands.
  const projection: Subscription = await deps.log.subscribe(roomProjectionConsumer(deps.pool, deps.keyring));
  await projection.caughtUp();
  await rehashUsernames(deps.pool, deps.keyring, deps.logger);
  await fillRoomNameKeys(deps.pool);
  await sealChannelNames(deps.pool, deps.keyring);
  await rehashChannelNames(deps.pool, deps.keyring);
  const dmPolicy: Subscription = await deps.log.subscribe(dmPolicyConsumer(service));
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
