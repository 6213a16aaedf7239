/**
 * The room service's room-experience events against a real PostgreSQL and the embedded log: the read model rebuilt
 * by replaying the log equals the live one (new tables included), roles after leaving, and the DM reopen policy
 * (idempotent, and an older message replayed after a hide does not reopen the DM).
 */
import { describe, it, expect, afterAll } from 'vitest';
import { TOPICS, type Message, type SessionActor } from '@ephemera/proto';
import {
  EmbeddedEventLog,
  createLogger,
  createPool,
  makeEvent,
  toRecords,
  userActor,
  type Pool,
} from '@ephemera/platform';
import { startRoomModule, type RoomModule } from '../src/index.ts';
import { createTestDatabase, databaseWithLogOf } from '../../../test/helpers/db.ts';
import { testRoomKeys } from '../../../test/helpers/room-keys.ts';
import { openMemberRows, openRoomChannelRows, openWorkspaceRows } from '../../../test/helpers/sealed-rows.ts';

const logger = createLogger('test', 'silent');
const now = () => new Date();
/** one key directory for the live services and the replay (the log itself is not sealed here) */
const keys = testRoomKeys();

async function boot(databaseUrl: string) {
  const pool = createPool(databaseUrl);
  const log = new EmbeddedEventLog(pool);
  await log.init(Object.values(TOPICS));
  const room: RoomModule = await startRoomModule({
    databaseUrl,
    pool,
    log,
    logger,
    now,
    sweepIntervalMs: 3_600_000,
    roomKeys: keys.store,
    keyring: keys.keyring,
  });
  return {
    pool,
    log,
    room,
    async stop() {
      await room.stop();
      await log.close();
      await pool.end();
    },
  };
}
type Booted = Awaited<ReturnType<typeof boot>>;

/** The read model with its sealed values opened (a replay seals them again under new nonces). */
async function dump(pool: Pool) {
  const q = async (sql: string) => (await pool.query(sql)).rows;
  return {
    workspaces: await openWorkspaceRows(keys.keyring, await q('SELECT * FROM room.workspaces ORDER BY id')),
    members: await openMemberRows(keys.keyring, await q('SELECT * FROM room.members ORDER BY workspace_id, user_id')),
    channels: await openRoomChannelRows(keys.keyring, await q('SELECT * FROM room.channels ORDER BY id')),
    departed: await openMemberRows(
      keys.keyring,
      await q('SELECT * FROM room.departed_members ORDER BY workspace_id, user_id'),
    ),
    hidden: await q('SELECT * FROM room.hidden_dms ORDER BY channel_id, user_id'),
  };
}

/** A message.sent as the messaging service would append it (the policy reads only the message). */
async function appendMessage(
  live: Booted,
  actor: SessionActor,
  channelId: string,
  memberIds: string[],
  sentAt: Date,
): Promise<Message> {
  const message: Message = {
    id: `m${Math.random().toString(36).slice(2)}`,
    clientMessageId: `c${Math.random().toString(36).slice(2)}`,
    workspaceId: actor.workspaceId,
    channelId,
    seq: 1,
    authorId: actor.userId,
    authorName: actor.username,
    profilePicture: null,
    timestamp: sentAt.toISOString(),
    type: 'text',
    content: 'hi',
    isEdited: false,
    replyTo: null,
    reactions: {},
    linkPreview: null,
    editedAt: null,
    file: null,
  };
  await live.log.append(
    toRecords([
      makeEvent(
        'message.sent',
        message.id,
        1,
        { message, audience: { kind: 'users', userIds: memberIds } },
        userActor(actor.userId),
      ),
    ]),
  );
  return message;
}

const reopenedCount = async (pool: Pool, channelId: string) =>
  Number(
    (
      await pool.query(
        `SELECT count(*) FROM event_log WHERE event->>'type' = 'dm.reopened' AND event->'payload'->>'channelId' = $1`,
        [channelId],
      )
    ).rows[0].count,
  );

describe('room experience events', () => {
  const booted: Booted[] = [];
  afterAll(async () => {
    for (const b of booted) await b.stop();
  });

  it('every new event replays into the same read model; a departed user is "left"; the DM policy is idempotent', async () => {
    const live = await boot(await createTestDatabase());
    booted.push(live);
    const rooms = live.room.service;
    const created = await rooms.createWorkspace({ name: 'replayed', username: 'alice' });
    const ws = created.workspaceId;
    const joined = await Promise.all(['bob', 'carol', 'dave'].map((username) => rooms.joinWorkspace(ws, { username })));
    const [alice, bob, carol, dave] = [created, ...joined].map((a, i) => ({
      workspaceId: ws,
      userId: a.user.id,
      username: ['alice', 'bob', 'carol', 'dave'][i]!,
    }));

    const secret = await rooms.createChannel(alice, {
      workspaceId: ws,
      name: 'secret',
      type: 'topic',
      isPrivate: true,
      memberIds: [bob.userId],
    });
    await rooms.updateChannelMembers(alice, {
      workspaceId: ws,
      channelId: secret.id,
      add: [carol.userId],
      remove: [bob.userId],
    });
    await rooms.renameChannel(alice, { workspaceId: ws, channelId: secret.id, newName: 'Secret-2' });
    const doomed = await rooms.createChannel(alice, {
      workspaceId: ws,
      name: 'doomed',
      type: 'topic',
      isPrivate: false,
      memberIds: [],
    });
    await rooms.deleteChannel(alice, { workspaceId: ws, channelId: doomed.id });
    const dm = await rooms.createDmChannel(bob, { workspaceId: ws, targetUserId: carol.userId });
    await rooms.updateProfile(bob, {
      workspaceId: ws,
      username: 'Robert',
      profilePicture: 'https://example.com/r.png',
    });

    // Policy: a message sent before the hide (delivered late, or replayed) does not reopen; a later one does, once.
    const before = new Date(now().getTime() - 60_000);
    const marker = await rooms.createDmChannel(alice, { workspaceId: ws, targetUserId: bob.userId });
    await rooms.deleteDm(alice, { workspaceId: ws, channelId: marker.id });
    await rooms.deleteDm(carol, { workspaceId: ws, channelId: dm.id });
    await appendMessage(live, bob, dm.id, dm.memberIds, before);
    // The policy handles messages in log order: once the marker DM (a current message) reopened, the older one was seen.
    await appendMessage(live, bob, marker.id, marker.memberIds, now());
    await expect.poll(() => reopenedCount(live.pool, marker.id), { timeout: 10_000 }).toBe(1);
    expect(await reopenedCount(live.pool, dm.id)).toBe(0);
    const later = await appendMessage(live, bob, dm.id, dm.memberIds, now());
    await expect.poll(() => reopenedCount(live.pool, dm.id), { timeout: 10_000 }).toBe(1);
    expect(await rooms.reopenDmAfterMessage(later)).toBe(0); // redelivered: nothing hidden any more, nothing appended
    expect(await reopenedCount(live.pool, dm.id)).toBe(1);
    await new Promise((r) => setTimeout(r, 5));
    await rooms.deleteDm(carol, { workspaceId: ws, channelId: dm.id }); // hidden again, after every message: stays hidden in the replay

    await rooms.leaveWorkspace(dave);
    await expect(rooms.leaveWorkspace(dave)).rejects.toMatchObject({ code: 'NOT_AUTHENTICATED' }); // role 'left'
    await expect(rooms.createDmChannel(dave, { workspaceId: ws, targetUserId: alice.userId })).rejects.toMatchObject({
      code: 'NOT_AUTHENTICATED',
    });
    await expect(
      rooms.authenticate({ workspaceId: ws, userToken: joined[2]!.userToken, username: 'dave' }),
    ).rejects.toMatchObject({ code: 'NOT_AUTHENTICATED' });
    const carolView = await rooms.authenticate({ workspaceId: ws, userToken: joined[1]!.userToken, username: 'carol' });
    expect(carolView.workspace.channels.map((c) => c.id)).toEqual([secret.id]); // the hidden DM is not listed
    const aliceView = await rooms.authenticate({ workspaceId: ws, userToken: created.userToken, username: 'alice' });
    expect(aliceView.workspace.channels.map((c) => c.id)).toEqual([secret.id, marker.id]); // the marker DM was reopened
    expect(carolView.workspace.users.find((u) => u.id === bob.userId)).toMatchObject({
      username: 'Robert',
      profilePicture: 'https://example.com/r.png',
    });

    const liveRows = await dump(live.pool);
    expect(liveRows.departed).toMatchObject([{ user_id: dave.userId, reason: 'left' }]);
    expect(liveRows.hidden).toMatchObject([{ channel_id: dm.id, user_id: carol.userId }]);
    expect(liveRows.channels.map((c) => c.name).sort()).toEqual(['Secret-2', 'dm', 'dm']);

    // Replay: copy the log into an empty database and rebuild. The policy sees both messages again and appends nothing.
    const replayUrl = await databaseWithLogOf(live.pool);
    const rebuilt = await boot(replayUrl);
    booted.push(rebuilt);
    expect(await dump(rebuilt.pool)).toEqual(liveRows);
    await new Promise((r) => setTimeout(r, 1_500)); // the policy consumer has read the messaging topic by now
    expect(await reopenedCount(rebuilt.pool, dm.id)).toBe(1);
    expect(await dump(rebuilt.pool)).toEqual(liveRows);
  });
});
