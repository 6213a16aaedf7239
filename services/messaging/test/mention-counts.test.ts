/**
 * Unread mention counts kept by the server (docs/product/messages.md M27): the members a message mentions are found
 * when it is sent or edited (proto's mentionedUsernames against the room's members), carried by its event, stored
 * with its row, and counted in the channel summaries. The browser's side is test/suites/messages.suite.ts and
 * frontend/e2e/formatting.e2e.test.ts.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { AnyEventEnvelope, SessionActor } from '@ephemera/proto';
import { createLogger, type Pool } from '@ephemera/platform';
import type { RoomModule } from '@ephemera/room';
import { clientId } from '../../../test/helpers/clients.ts';
import { startRoomWorld, type RoomWorld } from '../../../test/helpers/room-world.ts';
import { startMessagingModule, type MessagingModule } from '../src/index.ts';
import { UNREAD_COUNT_CAP } from '../src/read-positions.ts';

const logger = createLogger('test', 'silent');

describe('messaging service: unread mention counts', () => {
  let world: RoomWorld;
  let pool: Pool;
  let room: RoomModule;
  let messaging: MessagingModule;

  beforeAll(async () => {
    world = await startRoomWorld({ now: () => new Date() });
    ({ pool, room } = world);
    messaging = await startMessagingModule({
      databaseUrl: world.databaseUrl,
      pool,
      log: world.log,
      logger,
      logSharesDatabase: true,
      keyring: world.keys.keyring,
    });
    world.stopFirst(() => messaging.stop());
  });
  afterAll(() => world?.stop());

  async function setup(name: string) {
    const created = await room.service.createWorkspace({
      name: `${name}-${Date.now().toString(36)}`,
      username: 'alice',
    });
    const joined = await room.service.joinWorkspace(created.workspaceId, { username: 'Bob' });
    const alice: SessionActor = { workspaceId: created.workspaceId, userId: created.user.id, username: 'alice' };
    const bob: SessionActor = { workspaceId: created.workspaceId, userId: joined.user.id, username: 'Bob' };
    const general = await room.service.createChannel(alice, {
      workspaceId: created.workspaceId,
      name: 'general',
      type: 'topic',
      isPrivate: false,
      memberIds: [],
    });
    await messaging.service.roomProjection!.caughtUp(); // both members' names reach messaging through the log
    const send = (actor: SessionActor, content: string) =>
      messaging.service.sendMessage(actor, {
        clientMessageId: clientId(),
        channelId: general.id,
        content,
        type: 'text',
      });
    const summary = async (actor: SessionActor) =>
      (await messaging.service.fetchChannelSummaries(actor)).find((s) => s.channelId === general.id)!;
    return { alice, bob, general: general.id, send, summary };
  }

  const edit = (actor: SessionActor, messageId: string, newContent: string) =>
    messaging.service.editMessage(actor, { workspaceId: actor.workspaceId, messageId, newContent });

  it("counts others' unread messages that mention the member, outside code; edits and deletions change the count", async () => {
    const r = await setup('mentions');
    const mentioned = await r.send(r.alice, '@bob hi');
    await r.send(r.alice, 'look at `@bob` and [@bob](https://example.com/x)');
    const deleted = await r.send(r.alice, '**@Bob** again');
    const added = await r.send(r.alice, 'later');
    const removed = await r.send(r.alice, '@bob first');
    await r.send(r.bob, '@bob talking to myself, and @alice');
    expect(await r.summary(r.bob)).toMatchObject({ unreadCount: 5, mentionCount: 3 });
    expect(await r.summary(r.alice)).toMatchObject({ unreadCount: 1, mentionCount: 1 });

    await messaging.service.deleteMessage(r.alice, { workspaceId: r.alice.workspaceId, messageId: deleted.id });
    await edit(r.alice, added.id, 'later, @BOB');
    await edit(r.alice, removed.id, 'first, `@bob`');
    expect(await r.summary(r.bob)).toMatchObject({ unreadCount: 4, mentionCount: 2 });

    // the read position clears what it passes
    await messaging.service.markRead(r.bob, { channelId: r.general, seq: mentioned.seq });
    expect(await r.summary(r.bob)).toMatchObject({ unreadCount: 3, mentionCount: 1 });
    await messaging.service.markRead(r.bob, { channelId: r.general, seq: removed.seq });
    expect(await r.summary(r.bob)).toMatchObject({ unreadCount: 0, mentionCount: 0 });

    // the events carry the ids: a replay stores the same
    const { rows } = await pool.query<{ event: AnyEventEnvelope }>(
      `SELECT event FROM event_log WHERE event->>'type' IN ('message.sent', 'message.edited')
         AND (event->'payload'->>'workspaceId' = $1 OR event->'payload'->'message'->>'workspaceId' = $1)
       ORDER BY position`,
      [r.alice.workspaceId],
    );
    const ids = rows.map((row) => (row.event.payload as { mentionedUserIds?: string[] }).mentionedUserIds ?? []);
    expect(ids).toEqual([
      [r.bob.userId],
      [],
      [r.bob.userId],
      [],
      [r.bob.userId],
      [r.bob.userId, r.alice.userId],
      [r.bob.userId],
      [],
    ]);
  });

  it('a renamed member is mentioned by the new name, not the old one', async () => {
    const r = await setup('renamed');
    await r.send(r.alice, '@bob, before'); // the names are opened (and held) once before the rename
    await room.service.updateProfile(r.bob, {
      workspaceId: r.bob.workspaceId,
      userId: r.bob.userId,
      username: 'Robert',
    });
    await messaging.service.roomProjection!.caughtUp();
    await r.send(r.alice, '@bob?');
    await r.send(r.alice, '@robert!');
    expect(await r.summary(r.bob)).toMatchObject({ unreadCount: 3, mentionCount: 2 });
  });

  it('the count stops at the cap, as the unread count does', async () => {
    const r = await setup('mention-cap');
    await Promise.all(Array.from({ length: UNREAD_COUNT_CAP + 5 }, (_, i) => r.send(r.alice, `@bob ${i}`)));
    expect(await r.summary(r.bob)).toMatchObject({ unreadCount: UNREAD_COUNT_CAP, mentionCount: UNREAD_COUNT_CAP });
  });
});
