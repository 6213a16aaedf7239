/**
 * What the module tests of room, messaging and billing start first: a fresh database, an embedded event log in it
 * (every topic created), room keys of their own, and the room module over them. The test starts its other modules on
 * the same pool and log and hands their stops to `stopFirst`; `stop()` ends those, then the room, the log and the pool.
 */
import { TOPICS } from '@ephemera/proto';
import {
  EmbeddedEventLog,
  createLogger,
  createPool,
  sealedEventLog,
  type EventLog,
  type Pool,
} from '@ephemera/platform';
import { startRoomModule } from '@ephemera/room';
import { createTestDatabase } from './db.ts';
import { testRoomKeys } from './room-keys.ts';

export interface RoomWorld {
  databaseUrl: string;
  pool: Pool;
  log: EventLog;
  keys: ReturnType<typeof testRoomKeys>;
  room: Awaited<ReturnType<typeof startRoomModule>>;
  logger: ReturnType<typeof createLogger>;
  /** stopped before the room, last added first */
  stopFirst(stop: () => Promise<unknown>): void;
  stop(): Promise<void>;
}

export async function startRoomWorld(
  options: {
    now?: () => Date;
    /** the log behind the sealing decorator, as the services run it (docs/crypto.md) */
    sealed?: boolean;
    /** called with the pool before the room module starts (a test that counts the module's queries) */
    onPool?: (pool: Pool) => void;
  } = {},
): Promise<RoomWorld> {
  const logger = createLogger('test', 'silent');
  const keys = testRoomKeys();
  const databaseUrl = await createTestDatabase();
  const pool = createPool(databaseUrl);
  options.onPool?.(pool);
  const embedded = new EmbeddedEventLog(pool);
  const log: EventLog = options.sealed ? sealedEventLog(embedded, keys.keyring) : embedded;
  await log.init(Object.values(TOPICS));
  const room = await startRoomModule({
    databaseUrl,
    pool,
    log,
    logger,
    now: options.now,
    sweepIntervalMs: 3_600_000,
    roomKeys: keys.store,
    keyring: keys.keyring,
  });
  const first: (() => Promise<unknown>)[] = [];
  return {
    databaseUrl,
    pool,
    log,
    keys,
    room,
    logger,
    stopFirst: (stop) => {
      first.push(stop);
    },
    async stop() {
      for (const stop of first.reverse()) await stop();
      await room.stop();
      await log.close();
      await pool.end();
    },
  };
}
