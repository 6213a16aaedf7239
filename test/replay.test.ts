/**
 * Events are the source of truth (docs/decisions/2026-11-21-design-card.md "Invariants"): the room and messaging read
 * models rebuilt by
 * replaying the log from the start into an empty database equal the live ones, row for row, including a room
 * that expired (gone in both).
 */
import { describe, it, expect } from 'vitest';
import { TOPICS } from '@ephemera/proto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import {
  EmbeddedEventLog,
  createLogger,
  createPool,
  fileRoomKeys,
  migrate,
  sealedEventLog,
  type Pool,
} from '@ephemera/platform';
import { startRoomModule } from '@ephemera/room';
import { MESSAGING_MIGRATIONS, pgMessageKeys, startMessagingModule } from '@ephemera/messaging';
import { createTestDatabase, databaseWithLogOf } from './helpers/db.ts';
import { clientId } from './helpers/clients.ts';
import {
  openChannelRows,
  openMemberRows,
  openMessageRows,
  openMessagingMemberRows,
  openRoomChannelRows,
  openWorkspaceRows,
} from './helpers/sealed-rows.ts';

const logger = createLogger('test', 'silent');

/** The room keys of the test (docs/crypto.md): the live services and the replay read the same key directory. */
const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'replay-room-keys-'));
const masterKey = randomBytes(32);

async function boot(databaseUrl: string, now: () => Date) {
  const pool = createPool(databaseUrl);
  const keys = fileRoomKeys(keyDir, masterKey);
  // message bodies under their own keys, as the services run (docs/crypto.md "Messages")
  const log = sealedEventLog(new EmbeddedEventLog(pool), keys.keyring, { messageKeys: pgMessageKeys(pool) });
  await log.init(Object.values(TOPICS));
  const room = await startRoomModule({
    databaseUrl,
    pool,
    log,
    logger,
    now,
    sweepIntervalMs: 3_600_000,
    roomKeys: keys.store,
    keyring: keys.keyring,
  });
  const messaging = await startMessagingModule({ databaseUrl, pool, log, logger, now, keyring: keys.keyring });
  return {
    pool,
    log,
    room,
    messaging,
    async stop() {
      await room.stop();
      await messaging.stop();
      await log.close();
      await pool.end();
    },
  };
}

/** The read models with their sealed values opened: a replay seals them again under new nonces (docs/crypto.md). */
async function dump(pool: Pool) {
  const q = async (sql: string) => (await pool.query(sql)).rows;
  const { keyring } = fileRoomKeys(keyDir, masterKey);
  return {
    workspaces: await openWorkspaceRows(keyring, await q('SELECT * FROM room.workspaces ORDER BY id')),
    members: await openMemberRows(keyring, await q('SELECT * FROM room.members ORDER BY workspace_id, user_id')),
    channels: await openRoomChannelRows(keyring, await q('SELECT * FROM room.channels ORDER BY id')),
    messages: await openMessageRows(
      keyring,
      await q(
        'SELECT id, workspace_id, seq, channel_id, client_message_id, author_id, sealed_body, created_at, version, deleted FROM messaging.messages ORDER BY workspace_id, seq',
      ),
    ),
    readPositions: await q('SELECT * FROM messaging.read_positions ORDER BY channel_id, user_id'),
    readVersions: await q('SELECT * FROM messaging.read_versions ORDER BY workspace_id, user_id'),
    deletedChannels: await q('SELECT * FROM messaging.deleted_channels ORDER BY id'),
    messagingMembers: await openMessagingMemberRows(
      keyring,
      await q('SELECT * FROM messaging.members ORDER BY workspace_id, user_id'),
    ),
    messagingChannels: await openChannelRows(keyring, await q('SELECT * FROM messaging.channels ORDER BY id')),
    tombstones: await q('SELECT * FROM messaging.expired_workspaces ORDER BY id'),
  };
}

describe('replay', () => {
  it('rebuilding every read model from the log gives the same rows', async () => {
    const now = () => new Date();
    const live = await boot(await createTestDatabase(), now);
    const rooms = live.room.service;
    const msgs = live.messaging.service;

    const doomed = await rooms.createWorkspace({ name: 'doomed-room', username: 'dora' });
    const kept = await rooms.createWorkspace({
      name: 'kept-room',
      username: 'alice',
      password: 'pw-kept',
      hasPassword: true,
    });
    const bob = await rooms.joinWorkspace(kept.workspaceId, { username: 'bob', password: 'pw-kept' });
    const aliceActor = { workspaceId: kept.workspaceId, userId: kept.user.id, username: 'alice' };
    const bobActor = { workspaceId: kept.workspaceId, userId: bob.user.id, username: 'bob' };
    const general = await rooms.createChannel(aliceActor, {
      workspaceId: kept.workspaceId,
      name: 'general',
      type: 'topic',
      isPrivate: false,
      memberIds: [],
    });
    const secret = await rooms.createChannel(aliceActor, {
      workspaceId: kept.workspaceId,
      name: 'secret',
      type: 'topic',
      isPrivate: true,
      memberIds: [],
    });
    for (let i = 0; i < 20; i++) {
      await msgs.sendMessage(i % 2 ? bobActor : aliceActor, {
        clientMessageId: clientId(),
        channelId: general.id,
        content: `m${i} 'quoted' \u0000 ✓`,
        type: 'text',
      });
    }
    await msgs.sendMessage(aliceActor, {
      clientMessageId: clientId(),
      channelId: secret.id,
      content: 'private',
      type: 'text',
    });
    // The room experience's message events: edits, deletes, reactions, read positions, a DM, a deleted channel.
    const [first, second] = (await msgs.fetchMessages(aliceActor, { channelId: general.id, limit: 2, beforeSeq: 3 }))
      .messages;
    await msgs.editMessage(aliceActor, {
      workspaceId: kept.workspaceId,
      messageId: first!.id,
      newContent: 'edited \u0000 ✓',
    });
    await msgs.addReaction(aliceActor, { workspaceId: kept.workspaceId, messageId: second!.id, emoji: '👍' });
    await msgs.addReaction(bobActor, { workspaceId: kept.workspaceId, messageId: second!.id, emoji: '❤️' });
    await msgs.deleteMessage(bobActor, { workspaceId: kept.workspaceId, messageId: second!.id });
    await msgs.markRead(bobActor, { channelId: general.id, seq: 10 });
    const dm = await rooms.createDmChannel(aliceActor, { workspaceId: kept.workspaceId, targetUserId: bob.user.id });
    const inDm = await msgs.sendMessage(aliceActor, {
      clientMessageId: clientId(),
      channelId: dm.id,
      content: 'dm',
      type: 'text',
    });
    await msgs.markRead(bobActor, { channelId: dm.id, seq: inDm.seq });
    const doomedChannel2 = await rooms.createChannel(aliceActor, {
      workspaceId: kept.workspaceId,
      name: 'gone',
      type: 'topic',
      isPrivate: false,
      memberIds: [],
    });
    await msgs.sendMessage(bobActor, {
      clientMessageId: clientId(),
      channelId: doomedChannel2.id,
      content: 'gone with it',
      type: 'text',
    });
    await msgs.markRead(aliceActor, { channelId: doomedChannel2.id, seq: 1000 });
    await rooms.deleteChannel(aliceActor, { workspaceId: kept.workspaceId, channelId: doomedChannel2.id });
    const doomedActor = { workspaceId: doomed.workspaceId, userId: doomed.user.id, username: 'dora' };
    const doomedChannel = await rooms.createChannel(doomedActor, {
      workspaceId: doomed.workspaceId,
      name: 'x',
      type: 'topic',
      isPrivate: false,
      memberIds: [],
    });
    await msgs.sendMessage(doomedActor, {
      clientMessageId: clientId(),
      channelId: doomedChannel.id,
      content: 'bye',
      type: 'text',
    });
    // Expire only the doomed room: its expiry is moved into the past in the read model (the sweeper's input);
    // the expiry itself is recorded as a workspace.expired event like any other.
    await live.pool.query("UPDATE room.workspaces SET expires_at = now() - interval '1 minute' WHERE id = $1", [
      doomed.workspaceId,
    ]);
    expect(await rooms.sweepExpired()).toBe(1);
    await new Promise((r) => setTimeout(r, 300)); // messaging applies workspace.expired from the log
    const before = await dump(live.pool);
    expect(before.workspaces).toHaveLength(1);
    expect(before.messages).toHaveLength(22); // 20 + private + DM (the deleted message's tombstone stays; the deleted channel's go)
    expect(before.messages.filter((m) => m.deleted)).toHaveLength(1);
    expect(before.readPositions).toHaveLength(2);
    expect(before.deletedChannels).toHaveLength(1);

    // The deleted message's key went with it; the living messages' keys remain.
    const keyRows = async (pool: Pool) =>
      (await pool.query('SELECT * FROM messaging.message_keys ORDER BY message_id')).rows;
    const liveKeys = await keyRows(live.pool);
    expect(liveKeys.map((k) => k.message_id)).not.toContain(second!.id);
    expect(liveKeys.map((k) => k.message_id)).toContain(first!.id);

    // Copy the log into an empty database, with the message keys (key material, like the room key directory: not
    // rebuilt from the log), and let the services rebuild from offset zero. The deleted message's events no longer
    // open: its sent record is stored as the deleted message it is.
    const replayUrl = await databaseWithLogOf(live.pool);
    await migrate(replayUrl, MESSAGING_MIGRATIONS, 'messaging');
    const replayPool = createPool(replayUrl);
    for (const k of liveKeys)
      await replayPool.query(
        'INSERT INTO messaging.message_keys (message_id, workspace_id, wrapped_key) VALUES ($1, $2, $3)',
        [k.message_id, k.workspace_id, k.wrapped_key],
      );
    await replayPool.end();
    const rebuilt = await boot(replayUrl, now);
    const after = await dump(rebuilt.pool);
    expect(after).toEqual(before);
    await rebuilt.stop();
    await live.stop();
  });
});
