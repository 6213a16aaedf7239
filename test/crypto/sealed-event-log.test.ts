/**
 * The sealing decorator of the event log (services/platform/src/event-log/sealed.ts) over the embedded adapter on a
 * real Postgres: what the table holds, what handlers get, what happens once a room's key is destroyed, and that a
 * key source that is down only delays delivery.
 */
import { describe, it, expect, afterAll } from 'vitest';
import { TOPICS, type AnyEventEnvelope } from '@ephemera/proto';
import {
  EmbeddedEventLog,
  RoomKeyring,
  SealedEventLog,
  createPool,
  makeEvent,
  newId,
  toRecords,
  userActor,
  type Delivery,
  type Pool,
} from '@ephemera/platform';
import { createTestDatabase } from '../helpers/db.ts';
import { testRoomKeys } from '../helpers/room-keys.ts';

const pools: Pool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
});

async function setup() {
  const pool = createPool(await createTestDatabase());
  pools.push(pool);
  const inner = new EmbeddedEventLog(pool);
  await inner.init(Object.values(TOPICS));
  const keys = testRoomKeys();
  return { pool, inner, keys, log: new SealedEventLog(inner, keys.keyring) };
}

const joined = (workspaceId: string, username: string, seq: number) =>
  makeEvent(
    'member.joined',
    workspaceId,
    seq,
    {
      workspaceId,
      userId: newId(),
      username,
      isAdmin: false,
      tokenHash: 'h'.repeat(64),
      joinedAt: new Date().toISOString(),
    },
    userActor('u1'),
  );
const deleted = (workspaceId: string, seq: number) =>
  makeEvent(
    'workspace.deleted',
    workspaceId,
    seq,
    {
      workspaceId,
      name: 'public-name',
      deletedBy: 'u1',
      deletedAt: new Date().toISOString(),
    },
    userActor('u1'),
  );

/** A subscription from the beginning that collects what its handler was given, until `count` arrived. */
async function readAll(log: { subscribe: EmbeddedEventLog['subscribe'] }, count: number, groupId = `g-${newId()}`) {
  const got: Delivery[] = [];
  const sub = await log.subscribe({
    groupId,
    topics: [TOPICS.room],
    fromBeginning: true,
    handler: async (d) => {
      got.push(d);
    },
  });
  await sub.caughtUp();
  for (let i = 0; i < 100 && got.length < count; i++) await new Promise((r) => setTimeout(r, 20));
  await sub.stop();
  return got;
}

describe('sealed event log', () => {
  it('seals every payload in the table, hands handlers the validated plaintext, and refuses a room without a key', async () => {
    const { pool, keys, log } = await setup();
    const ws = newId();
    await keys.store.create(ws);
    const canary = `canary-${newId()}`;
    await log.append(toRecords([joined(ws, canary, 1)]));

    const { rows } = await pool.query('SELECT event::text AS e FROM event_log');
    expect(rows).toHaveLength(1);
    expect(rows[0].e).not.toContain(canary);
    expect(JSON.parse(rows[0].e).payload).toEqual({ workspaceId: ws, sealed: expect.stringMatching(/^e1\./) });

    // A fresh process (no plaintext in memory) opens it with the key from the store.
    const other = new SealedEventLog(new EmbeddedEventLog(pool), new RoomKeyring((id) => keys.files.get(id)));
    const [d] = await readAll(other, 1);
    expect(d!.event.type).toBe('member.joined');
    expect((d!.event as AnyEventEnvelope & { type: 'member.joined' }).payload.username).toBe(canary);

    await expect(log.append(toRecords([joined(newId(), 'x', 1)]))).rejects.toMatchObject({
      code: 'WORKSPACE_NOT_FOUND',
    });
  });

  it("after the key is destroyed: workspace.deleted stays readable, the room's other records are skipped, appends refused", async () => {
    const { pool, keys, log } = await setup();
    const gone = newId();
    const kept = newId();
    await keys.store.create(gone);
    await keys.store.create(kept);
    await log.append(toRecords([joined(gone, 'g1', 1), joined(kept, 'k1', 1), joined(gone, 'g2', 2)]));
    await keys.store.destroy(gone);
    await log.append(toRecords([deleted(gone, 3)]));
    await expect(log.append(toRecords([joined(gone, 'late', 4)]))).rejects.toMatchObject({
      code: 'WORKSPACE_NOT_FOUND',
    });

    const { rows } = await pool.query(
      "SELECT event->'payload' AS p FROM event_log WHERE event->>'type' = 'workspace.deleted'",
    );
    expect(rows[0].p).toMatchObject({ workspaceId: gone, name: 'public-name' });

    // A replay by a process that never saw the key: only the kept room's record and the deletion come through.
    const replay = new SealedEventLog(new EmbeddedEventLog(pool), new RoomKeyring((id) => keys.files.get(id)));
    const got = await readAll(replay, 2);
    expect(got.map((d) => [d.event.type, d.key])).toEqual([
      ['member.joined', kept],
      ['workspace.deleted', gone],
    ]);
  });

  it('a process that had the key forgets it when workspace.deleted reaches it', async () => {
    const { pool, keys } = await setup();
    const ws = newId();
    await keys.store.create(ws);
    // Another process's keyring over the same store, without the owner's destroy hook.
    const keyring = new RoomKeyring((id) => keys.files.get(id));
    const log = new SealedEventLog(new EmbeddedEventLog(pool), keyring);
    await log.append(toRecords([joined(ws, 'a', 1)]));
    expect(await keyring.key(ws)).not.toBeNull();
    await keys.files.destroy(ws);
    await log.append(toRecords([deleted(ws, 2)]));
    await readAll(log, 2);
    expect(keyring.cached(ws)).toBeNull();
    expect(await keyring.key(ws)).toBeNull();
  });

  it('a key source that is down delays delivery; the record is delivered once it answers', async () => {
    const { pool, keys, log } = await setup();
    const ws = newId();
    await keys.store.create(ws);
    await log.append(toRecords([joined(ws, 'patient', 1)]));
    let failures = 0;
    const flaky = new RoomKeyring(async (id) => {
      if (failures++ < 2) throw new Error('room service unavailable');
      return keys.files.get(id);
    });
    const got: Delivery[] = [];
    const sub = await new SealedEventLog(new EmbeddedEventLog(pool), flaky).subscribe({
      groupId: `g-${newId()}`,
      topics: [TOPICS.room],
      fromBeginning: true,
      handler: async (d) => {
        got.push(d);
      },
    });
    for (let i = 0; i < 200 && got.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    await sub.stop();
    expect(failures).toBeGreaterThanOrEqual(3);
    expect(got.map((d) => (d.event as AnyEventEnvelope & { type: 'member.joined' }).payload.username)).toEqual([
      'patient',
    ]);
  });
});
