/**
 * Crypto-shredding in distributed mode: canaries a room says are absent from the raw bytes of every store while the
 * room lives (the PostgreSQL data directory with pg_wal after a CHECKPOINT, the Kafka log segments, the Redis dump
 * after SAVE, uncompressed; no AOF is configured in the test Redis) and from the room service's key directory. After
 * the room is deleted its key file is gone, the key route answers 404, and a replay of the whole log by a new
 * consumer group delivers nothing of the room but its deletion. A room deleted while members type and reconnect
 * ends cleanly on both gateway replicas.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { kafkaBrokers, sharedInfra } from '../helpers/infra.ts';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';
import { TOPICS } from '@ephemera/proto';
import {
  kafkaEventLog,
  newId,
  sealedEventLog,
  RoomKeyring,
  createLogger,
  serviceCredential,
  signedRequests,
  type Delivery,
} from '@ephemera/platform';
import { roomKeyClient, ROOM_KEY_ROUTE } from '@ephemera/room/src/room-keys-http.ts';
import { startDistributedStack } from '../distributed/stack.ts';
import { createRoom, uniqueName } from '../helpers/clients.ts';
import {
  deleteRoom,
  deleteWhileBusy,
  expectNoCanary,
  findInFiles,
  makeCanaries,
  saySecrets,
  scanned,
} from './canary.ts';
import { expectDeletedUnreadable, messageCanaries, openRoomRecords, sayAndDelete } from './message-canary.ts';

let stack: Awaited<ReturnType<typeof startDistributedStack>>;
const infra = () => sharedInfra('infraDataDir');
const stores = () => ({
  postgres: path.join(infra(), 'pg'),
  kafka: path.join(infra(), 'kafka', 'logs'),
  redis: path.join(infra(), 'redis'),
});

/** Bytes on disk: PostgreSQL writes its dirty pages and WAL; Redis writes an uncompressed dump. */
async function flushStores(): Promise<void> {
  const client = new pg.Client({ connectionString: sharedInfra('pgUrl') });
  await client.connect();
  try {
    await client.query('CHECKPOINT');
  } finally {
    await client.end();
  }
  const redis = new Redis(sharedInfra('redisUrl'));
  try {
    await redis.config('SET', 'rdbcompression', 'no'); // LZF would hide a plaintext string from a byte search
    await redis.save();
  } finally {
    redis.disconnect();
  }
}

beforeAll(async () => {
  stack = await startDistributedStack();
}, 120_000);
afterAll(async () => {
  await stack?.stop();
});

describe('crypto-shredding canaries: distributed', () => {
  it('while the room lives no store holds what it says; after deletion its key is gone and a replay of the log delivers nothing of it', async () => {
    const c = makeCanaries();
    const kept = await createRoom(stack.urlA, uniqueName('kept'), 'keeper');
    const room = await saySecrets(stack.urlA, stack.urlB, c);
    await flushStores();
    const s = stores();

    // The scans see what each store wrote: the room's id is in every one of them (record keys, rows, presence keys).
    const control = { workspaceId: room.workspaceId };
    for (const [store, dir] of Object.entries(s)) {
      expect(findInFiles([dir], control).workspaceId?.length ?? 0, `${store} scan finds the room id`).toBeGreaterThan(
        0,
      );
    }
    for (const [store, dir] of Object.entries(s)) {
      expectNoCanary(findInFiles([dir], c), `${store} (${dir}) while the room lives`);
      console.log(`[canary] distributed ${store}: ${Object.keys(c).length} canaries absent (${scanned([dir])})`);
    }
    expectNoCanary(findInFiles([stack.roomKeyDir], c), 'the room key directory');

    // The room service's internal listener, called as a service would (signed with the stack's service credential).
    const roomUrl = stack.internal.room;
    const credential = serviceCredential('canary', stack.serviceSecret);
    const keys = signedRequests(roomUrl, credential);
    // The scans above block this process (the stack's servers live in it) for seconds: a keep-alive connection to the
    // room service pooled by the stack's own clients is closed by the server as soon as its timers run again, and
    // a request sent on it then fails (ECONNRESET). A request that failed that way is sent once more.
    const get = async (p: string) => {
      try {
        return (await keys('GET', p)).status;
      } catch {
        return (await keys('GET', p)).status;
      }
    };
    expect(await get(`${ROOM_KEY_ROUTE}/${room.workspaceId}`)).toBe(200);
    await deleteRoom(stack.urlA, room);
    room.close();
    expect(fs.existsSync(path.join(stack.roomKeyDir, `${room.workspaceId}.key`))).toBe(false);
    expect(await get(`${ROOM_KEY_ROUTE}/${room.workspaceId}`)).toBe(404);
    expect(await get(`${ROOM_KEY_ROUTE}/..%2Fetc`)).toBe(400);

    await flushStores();
    for (const [store, dir] of Object.entries(s))
      expectNoCanary(findInFiles([dir], c), `${store} (${dir}) after deletion`);

    // Replay: a new consumer group reads both topics from the first record, through the sealing decorator with the
    // room service as key source, as a rebuilt service would.
    const log = sealedEventLog(
      kafkaEventLog({
        brokers: kafkaBrokers(),
        clientId: 'canary-replay',
        logger: createLogger('replay', 'silent'),
        namespace: stack.eventLogNamespace,
      }),
      new RoomKeyring(roomKeyClient(roomUrl, credential)),
    );
    const ofRoom: Delivery[] = [];
    const ofKept: Delivery[] = [];
    const sub = await log.subscribe({
      groupId: `canary-replay-${newId()}`,
      topics: [TOPICS.room, TOPICS.messaging],
      fromBeginning: true,
      handler: async (d) => {
        if (d.key === room.workspaceId) ofRoom.push(d);
        if (d.key === kept.workspaceId) ofKept.push(d);
      },
    });
    await sub.caughtUp();
    await log.close();
    // A live room replays in full, opened: its owner's name comes back.
    expect(JSON.stringify(ofKept.find((d) => d.event.type === 'member.joined')?.event.payload)).toContain('keeper');
    expect(ofRoom.map((d) => d.event.type)).toEqual(['workspace.deleted']);
    for (const [name, text] of Object.entries(c))
      expect(JSON.stringify(ofRoom).includes(text), `${name} canary replayed`).toBe(false);
  });

  it('a deleted message opens nowhere: not in any store, not in the log under the room key and the keys left', async () => {
    const c = messageCanaries();
    const { workspaceId } = await sayAndDelete(stack.urlA, stack.urlB, c);
    await flushStores();
    for (const [store, dir] of Object.entries(stores())) expectNoCanary(findInFiles([dir], c), store);
    // The room's records as Kafka holds them (no sealing decorator), from the first one.
    const raw = kafkaEventLog({
      brokers: kafkaBrokers(),
      clientId: 'canary-raw',
      logger: createLogger('raw', 'silent'),
      namespace: stack.eventLogNamespace,
    });
    const records: Delivery['event'][] = [];
    const sub = await raw.subscribe({
      groupId: `canary-raw-${newId()}`,
      topics: [TOPICS.room, TOPICS.messaging],
      fromBeginning: true,
      handler: async (d) => {
        if (d.key === workspaceId) records.push(d.event);
      },
    });
    await sub.caughtUp();
    await raw.close();
    const credential = serviceCredential('canary', stack.serviceSecret);
    const roomKey = (await new RoomKeyring(roomKeyClient(stack.internal.room, credential)).key(workspaceId))!;
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ id: string; w: string }>(
        'SELECT message_id AS id, wrapped_key AS w FROM messaging.message_keys WHERE workspace_id = $1',
        [workspaceId],
      );
      const text = openRoomRecords(records, roomKey, Object.fromEntries(rows.map((r) => [r.id, r.w])));
      expectDeletedUnreadable(text, c, 'the Kafka topics');
    } finally {
      await db.end();
    }
  });

  it('a room deleted while a member types and another reconnects ends cleanly on both replicas', async () => {
    await deleteWhileBusy(stack.urlA, stack.urlB);
  });
});
