/**
 * The messaging service's room-experience rules checked on the service itself (no gateway in front): roles come
 * from messaging's own read model of room events, message-scoped events are numbered per message, commands on a
 * room are serialized with its send batches, a sent message carries the server's cached link preview.
 * The end-to-end behaviour with real clients is test/suites/messages.suite.ts (both modes).
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { AnyEventEnvelope, Audience, Message, MessageLinkPreview, SessionActor } from '@ephemera/proto';
import { createLogger, type EventLog, type Pool } from '@ephemera/platform';
import type { RoomModule } from '@ephemera/room';
import { clientId } from '../../../test/helpers/clients.ts';
import { startRoomWorld, type RoomWorld } from '../../../test/helpers/room-world.ts';
import { startMessagingModule, MessagingService, type MessagingModule } from '../src/index.ts';
import { react } from '../src/reactions.ts';
import { UNREAD_COUNT_CAP } from '../src/read-positions.ts';

const logger = createLogger('test', 'silent');
/** Every message-scoped event carries its audience. */
const audienceOf = (e: AnyEventEnvelope) => (e.payload as { audience: Audience }).audience;

describe('reaction rule (docs/product/messages.md M5)', () => {
  it('adds, removes on the same emoji, moves on another, drops empty entries, keeps one per user', () => {
    expect(react({}, 'u1', '👍')).toEqual({ reactions: { '👍': ['u1'] }, emoji: '👍' });
    expect(react({ '👍': ['u1'] }, 'u2', '👍')).toEqual({ reactions: { '👍': ['u1', 'u2'] }, emoji: '👍' });
    expect(react({ '👍': ['u1', 'u2'] }, 'u1', '👍')).toEqual({ reactions: { '👍': ['u2'] }, emoji: null });
    expect(react({ '👍': ['u1'] }, 'u1', '👍')).toEqual({ reactions: {}, emoji: null });
    expect(react({ '👍': ['u1'], '❤️': ['u2'] }, 'u1', '❤️')).toEqual({
      reactions: { '❤️': ['u2', 'u1'] },
      emoji: '❤️',
    });
    // a map that somehow holds a user twice is repaired: one reaction per user
    expect(react({ '👍': ['u1'], '😂': ['u1'] }, 'u1', '🙏')).toEqual({ reactions: { '🙏': ['u1'] }, emoji: '🙏' });
  });
});

describe('messaging service: room experience', () => {
  let world: RoomWorld;
  let pool: Pool;
  let log: EventLog;
  let room: RoomModule;
  let keys: RoomWorld['keys'];
  let messaging: MessagingModule;
  const now = () => new Date();

  beforeAll(async () => {
    world = await startRoomWorld({ now });
    ({ pool, log, room, keys } = world);
    messaging = await startMessagingModule({
      databaseUrl: world.databaseUrl,
      pool,
      log,
      logger,
      now,
      logSharesDatabase: true,
      keyring: keys.keyring,
    });
    world.stopFirst(() => messaging.stop());
  });
  afterAll(() => world?.stop());

  async function setup(name: string) {
    const created = await room.service.createWorkspace({ name, username: 'alice' });
    const bob = await room.service.joinWorkspace(created.workspaceId, { username: 'bob' });
    const alice: SessionActor = { workspaceId: created.workspaceId, userId: created.user.id, username: 'alice' };
    const bobActor: SessionActor = { workspaceId: created.workspaceId, userId: bob.user.id, username: 'bob' };
    const general = await room.service.createChannel(alice, {
      workspaceId: created.workspaceId,
      name: 'general',
      type: 'topic',
      isPrivate: false,
      memberIds: [],
    });
    return { alice, bob: bobActor, general: general.id };
  }

  const send = (svc: MessagingService, actor: SessionActor, channelId: string, content: string, extra = {}) =>
    svc.sendMessage(actor, { clientMessageId: clientId(), channelId, content, type: 'text', ...extra });

  async function eventsOf(aggregateId: string): Promise<AnyEventEnvelope[]> {
    const { rows } = await pool.query(
      `SELECT event FROM event_log WHERE event->>'aggregateId' = $1 ORDER BY position`,
      [aggregateId],
    );
    return rows.map((r) => r.event as AnyEventEnvelope);
  }

  it('a member who left is refused by messaging itself (role from its read model), and so is a stranger', async () => {
    const r = await setup(`left-${Date.now().toString(36)}`);
    const m = await send(messaging.service, r.alice, r.general, 'before');
    await room.service.leaveWorkspace(r.bob);
    await messaging.service.roomProjection!.caughtUp(); // member.left reaches messaging's read model through the log
    const stranger: SessionActor = { ...r.bob, userId: 'nobody-here' };
    for (const actor of [r.bob, stranger]) {
      const calls = [
        () => send(messaging.service, actor, r.general, 'ghost'),
        () => messaging.service.fetchMessages(actor, { channelId: r.general, limit: 10 }),
        () => messaging.service.syncMessages(actor, { workspaceId: actor.workspaceId, afterSeq: 0, limit: 10 }),
        () =>
          messaging.service.addReaction(actor, {
            workspaceId: actor.workspaceId,
            messageId: m.id,
            emoji: '👍',
            userId: actor.userId,
          }),
        () => messaging.service.markRead(actor, { channelId: r.general, seq: m.seq }),
        () => messaging.service.fetchChannelSummaries(actor),
      ];
      for (const call of calls) await expect(call()).rejects.toMatchObject({ code: 'NOT_AUTHENTICATED' });
    }
  });

  it('message events are numbered per message; read marks per member; audiences follow the channel', async () => {
    const r = await setup(`seq-${Date.now().toString(36)}`);
    const m = await send(messaging.service, r.alice, r.general, 'numbered');
    // sent, then reacted at once: the reaction runs after the send's batch was applied, so it sees the message
    await messaging.service.addReaction(r.bob, {
      workspaceId: r.alice.workspaceId,
      messageId: m.id,
      emoji: '👍',
      userId: r.bob.userId,
    });
    await messaging.service.editMessage(r.alice, {
      workspaceId: r.alice.workspaceId,
      messageId: m.id,
      newContent: 'renumbered',
    });
    await messaging.service.deleteMessage(r.alice, { workspaceId: r.alice.workspaceId, messageId: m.id });
    const perMessage = await eventsOf(m.id);
    expect(perMessage.map((e) => [e.type, e.sequence])).toEqual([
      ['reaction.changed', 1],
      ['message.edited', 2],
      ['message.deleted', 3],
    ]);
    expect(perMessage.every((e) => audienceOf(e).kind === 'workspace')).toBe(true);

    const other = await send(messaging.service, r.alice, r.general, 'read me');
    const dm = await room.service.createDmChannel(r.alice, {
      workspaceId: r.alice.workspaceId,
      targetUserId: r.bob.userId,
    });
    const inDm = await send(messaging.service, r.alice, dm.id, 'psst');
    await messaging.service.markRead(r.bob, { channelId: r.general, seq: other.seq });
    await messaging.service.markRead(r.bob, { channelId: r.general, seq: other.seq }); // not forward: nothing recorded
    await messaging.service.markRead(r.bob, { channelId: dm.id, seq: inDm.seq });
    const reads = await eventsOf(`${r.bob.workspaceId}:${r.bob.userId}:read`);
    expect(reads.map((e) => [e.type, e.sequence])).toEqual([
      ['read.marked', 1],
      ['read.marked', 2],
    ]);
    expect(reads.map(audienceOf)).toEqual([
      { kind: 'workspace' },
      { kind: 'users', userIds: expect.arrayContaining([r.alice.userId, r.bob.userId]) },
    ]);
  });

  it('concurrent reactions on one message are serialized: every one counted, versions gap-free', async () => {
    const r = await setup(`burst-${Date.now().toString(36)}`);
    const members = [r.alice, r.bob];
    for (let i = 0; i < 3; i++) {
      const joined = await room.service.joinWorkspace(r.alice.workspaceId, { username: `user${i}` });
      members.push({ workspaceId: r.alice.workspaceId, userId: joined.user.id, username: `user${i}` });
    }
    const m = await send(messaging.service, r.alice, r.general, 'popular');
    const answers = await Promise.all([
      ...members.map((a) =>
        messaging.service.addReaction(a, {
          workspaceId: a.workspaceId,
          messageId: m.id,
          emoji: '🔥',
          userId: a.userId,
        }),
      ),
      send(messaging.service, r.bob, r.general, 'meanwhile'),
    ]);
    const last = (answers.at(-2) as { reactions: Record<string, string[]> }).reactions;
    expect(last['🔥']!.sort()).toEqual(members.map((a) => a.userId).sort());
    expect((await eventsOf(m.id)).map((e) => e.sequence)).toEqual([1, 2, 3, 4, 5]);
  });

  it('concurrent read marks of one reader are serialized: the position only moves forward, versions gap-free', async () => {
    const r = await setup(`marks-${Date.now().toString(36)}`);
    const sent: Message[] = [];
    for (let i = 0; i < 5; i++) sent.push(await send(messaging.service, r.alice, r.general, `m${i}`));
    const seqs = [3, 1, 4, 0, 2].map((i) => sent[i]!.seq);
    const answers = await Promise.all(
      seqs.map((seq) => messaging.service.markRead(r.bob, { channelId: r.general, seq })),
    );
    // each answer is the position after that mark: never below an earlier one
    expect(answers.map((a) => a.seq)).toEqual([sent[3]!.seq, sent[3]!.seq, sent[4]!.seq, sent[4]!.seq, sent[4]!.seq]);
    const reads = await eventsOf(`${r.bob.workspaceId}:${r.bob.userId}:read`);
    expect(reads.map((e) => e.sequence)).toEqual([1, 2]);
    const summary = (await messaging.service.fetchChannelSummaries(r.bob)).find((s) => s.channelId === r.general)!;
    expect(summary).toMatchObject({ readSeq: sent[4]!.seq, unreadCount: 0 });
    expect(
      (await messaging.service.fetchChannelSummaries(r.alice)).find((s) => s.channelId === r.general)!.othersReadSeq,
    ).toBe(sent[4]!.seq);
  });

  it("unread counts stop at the cap (the badge shows 99+), counting only others' live messages", async () => {
    const r = await setup(`cap-${Date.now().toString(36)}`);
    const sends = Array.from({ length: UNREAD_COUNT_CAP + 5 }, (_, i) =>
      send(messaging.service, r.alice, r.general, `flood ${i}`),
    );
    await Promise.all(sends); // concurrent sends: batched, all answered
    const bob = (await messaging.service.fetchChannelSummaries(r.bob)).find((s) => s.channelId === r.general)!;
    expect(bob.unreadCount).toBe(UNREAD_COUNT_CAP);
    expect(bob.lastMessage?.content).toMatch(/^flood /);
    expect(
      (await messaging.service.fetchChannelSummaries(r.alice)).find((s) => s.channelId === r.general)!.unreadCount,
    ).toBe(0);
  });

  it("a sent message carries the server's cached preview of its url, never the client's, and null without one", async () => {
    const r = await setup(`preview-${Date.now().toString(36)}`);
    await messaging.service.fetchMessages(r.alice, { channelId: r.general, limit: 1 }); // the room is projected
    const preview: MessageLinkPreview = {
      type: 'other',
      url: 'https://example.com/a',
      title: 'Example',
      description: null,
      image: null,
      thumbnail: null,
      author: null,
      siteName: 'example.com',
      postId: null,
      videoId: null,
    };
    // A second service instance on the same database, with a preview cache (this room has no other writer).
    const withCache = new MessagingService({
      pool,
      log,
      keyring: keys.keyring,
      linkPreviews: { cached: (url) => (url === preview.url ? preview : null) },
    });
    const cached = await send(withCache, r.alice, r.general, 'look https://example.com/a', {
      linkPreview: { url: preview.url, title: 'forged' },
    });
    expect(cached.linkPreview).toEqual(preview);
    const uncached = await send(withCache, r.alice, r.general, 'and https://example.com/b', {
      linkPreview: { url: 'https://example.com/b' },
    });
    expect(uncached.linkPreview).toBeNull();
  });
});
