/**
 * A batch of events applied at once (applyOnce with the projectors' `many`: one statement for every send of a run)
 * leaves the same read model as the same events applied one by one, and the sends of a batch cost a fixed number of
 * statements whatever their number. The events are the real ones of a room's life: sends (concurrent, so several
 * share a batch), a reply, an edit, a deletion, a reaction, a channel deleted with sends to it refused afterwards.
 * And a channel deleted while its sends are being applied (two transactions, two topics) takes their messages with it
 * whichever commits first; so do a channel deleted and a member leaving with a read mark applied meanwhile.
 */
import { describe, it, expect, afterAll } from 'vitest';
import { TOPICS, type AnyEventEnvelope, type SessionActor } from '@ephemera/proto';
import { applyOnce, createLogger, createPool, migrate, type Pool } from '@ephemera/platform';
import { createTestDatabase } from '../../../test/helpers/db.ts';
import { clientId } from '../../../test/helpers/clients.ts';
import { startRoomWorld } from '../../../test/helpers/room-world.ts';
import { MESSAGING_MIGRATIONS, startMessagingModule } from '../src/index.ts';
import { messagingProjector } from '../src/projection.ts';
import { messageSearch, composeProjectors } from '../src/search/index.ts';
import { openMessage } from '../src/sealed-messages.ts';

const logger = createLogger('test', 'silent');

describe('batched projection', async () => {
  const world = await startRoomWorld();
  const { databaseUrl, pool, log, keys, room } = world;
  const messaging = await startMessagingModule({
    databaseUrl,
    pool,
    log,
    logger,
    logSharesDatabase: true,
    keyring: keys.keyring,
  });
  world.stopFirst(() => messaging.stop());
  const project = composeProjectors(messagingProjector(keys.keyring), messageSearch(pool, keys.keyring).projector);
  const pools: Pool[] = [];
  afterAll(async () => {
    await world.stop();
    await Promise.all(pools.map((p) => p.end()));
  });

  /** a fresh database with messaging's schema, and a counter of the statements its clients send */
  async function freshReadModel() {
    const url = await createTestDatabase();
    await migrate(url, MESSAGING_MIGRATIONS, 'messaging');
    const p = createPool(url, 2);
    pools.push(p);
    const counter = { statements: 0 };
    p.on('connect', (client) => {
      const query = client.query.bind(client) as (...a: unknown[]) => unknown;
      (client as unknown as { query: (...a: unknown[]) => unknown }).query = (...a: unknown[]) => {
        counter.statements++;
        return query(...a);
      };
    });
    return { pool: p, counter };
  }

  /** the read model's rows, sealed bodies opened (their nonces differ from one write to the next) */
  async function contents(p: Pool, workspaceId: string) {
    const key = (await keys.keyring.key(workspaceId))!;
    const messages = (await p.query('SELECT * FROM messaging.messages ORDER BY workspace_id, seq')).rows.map(
      ({ sealed_body, ...row }) => ({ ...row, body: openMessage(key, { id: row.id, sealed_body }) }),
    );
    const entries = (await p.query('SELECT * FROM messaging_search.entries ORDER BY message_id')).rows;
    const processed = (await p.query('SELECT event_id FROM messaging.processed_events ORDER BY event_id')).rows;
    const deleted = (await p.query('SELECT id FROM messaging.deleted_channels ORDER BY id')).rows;
    return { messages, entries, processed, deleted };
  }

  /** a new room with channels `general` and `other`, alice its admin, and a send as alice */
  async function newRoom() {
    const created = await room.service.createWorkspace({ name: `batched-${clientId()}`, username: 'alice' });
    const ws = created.workspaceId;
    const alice: SessionActor = { workspaceId: ws, userId: created.user.id, username: 'alice' };
    const general = await room.service.createChannel(alice, {
      workspaceId: ws,
      name: 'general',
      type: 'topic',
      isPrivate: false,
      memberIds: [],
    });
    const other = await room.service.createChannel(alice, {
      workspaceId: ws,
      name: 'other',
      type: 'topic',
      isPrivate: false,
      memberIds: [],
    });
    const send = (channelId: string, content: string, extra = {}) =>
      messaging.service.sendMessage(alice, { clientMessageId: clientId(), channelId, content, type: 'text', ...extra });
    return { ws, alice, general, other, send };
  }

  /** every event of the room, as the log holds them, in the order one subscriber got them */
  async function roomEvents(ws: string): Promise<AnyEventEnvelope[]> {
    const events: AnyEventEnvelope[] = [];
    const collect = await log.subscribe({
      groupId: `collect-${ws}`,
      topics: [TOPICS.room, TOPICS.messaging],
      fromBeginning: true,
      handler: async ({ event }) => {
        if (partOf(event, ws)) events.push(event);
      },
    });
    await collect.caughtUp();
    await collect.stop();
    return events;
  }

  it("applies a room's events in one batch exactly as one by one, sends in a fixed number of statements", async () => {
    const { ws, alice, general, other, send } = await newRoom();

    const first = await Promise.all(
      Array.from({ length: 12 }, (_, i) => send(i % 3 ? general.id : other.id, `hello word${i} batch`)),
    );
    await send(general.id, 'a reply', { replyToId: first[0].id });
    await messaging.service.editMessage(alice, { workspaceId: ws, messageId: first[1].id, newContent: 'edited words' });
    await messaging.service.deleteMessage(alice, { workspaceId: ws, messageId: first[2].id });
    await messaging.service.addReaction(alice, { workspaceId: ws, messageId: first[3].id, emoji: '👍' });
    await Promise.all(Array.from({ length: 5 }, (_, i) => send(other.id, `late ${i}`)));
    await room.service.deleteChannel(alice, { workspaceId: ws, channelId: other.id });
    await Promise.all(Array.from({ length: 4 }, (_, i) => send(general.id, `after ${i}`)));

    const events = await roomEvents(ws);
    const sends = events.filter((e) => e.type === 'message.sent');
    expect(sends.length).toBe(22);
    expect(events.length).toBeGreaterThan(sends.length + 3);

    const oneByOne = await freshReadModel();
    for (const event of events) await applyOnce(oneByOne.pool, 'messaging', [event], project);
    const batched = await freshReadModel();
    // twice, and with a duplicate inside: each event applies once
    expect((await applyOnce(batched.pool, 'messaging', [...events, events[3]], project)).length).toBe(events.length);
    expect(await applyOnce(batched.pool, 'messaging', events, project)).toEqual([]);

    const expected = await contents(oneByOne.pool, ws);
    expect(expected.messages.length).toBe(13); // 22 sends less the 9 of the deleted channel
    expect(expected.deleted.length).toBe(1);
    expect(await contents(batched.pool, ws)).toEqual(expected);
    // ... and as the service's own read model has it: once its last send batch is applied (a send is answered before
    // its apply) and the channel's deletion has reached it through the log
    await messaging.service.settled(ws);
    await messaging.service.roomProjection!.caughtUp();
    expect((await contents(pool, ws)).messages.map((m) => m.body)).toEqual(expected.messages.map((m) => m.body));

    // The sends alone: BEGIN, the event ids, the locks against a removal, the messages, the search entries, COMMIT,
    // whatever their number.
    const sendsOnly = await freshReadModel();
    const before = sendsOnly.counter.statements;
    await applyOnce(sendsOnly.pool, 'messaging', sends, project);
    expect(sendsOnly.counter.statements - before).toBe(6);
    expect(oneByOne.counter.statements).toBeGreaterThan(events.length * 3);
  });

  it('a channel deleted while its sends are applied loses their messages, whichever transaction commits first', async () => {
    const { ws, alice, other, send } = await newRoom();
    await Promise.all(Array.from({ length: 3 }, (_, i) => send(other.id, `doomed ${i} words`)));
    await room.service.deleteChannel(alice, { workspaceId: ws, channelId: other.id });
    const events = await roomEvents(ws);
    const sends = events.filter((e) => e.type === 'message.sent' && e.payload.message.channelId === other.id);
    const deletion = events.find((e) => e.type === 'channel.deleted')!;
    expect(sends.length).toBe(3);

    for (const first of ['sends', 'deletion'] as const) {
      const { pool: p } = await freshReadModel();
      const rest = events.filter((e) => e !== deletion && !sends.includes(e));
      await applyOnce(p, 'messaging', rest, project);
      // One transaction applies `first` and stays open; the other runs meanwhile, and must wait for it.
      const [held, then] = first === 'sends' ? [sends, [deletion]] : [[deletion], sends];
      const client = await p.connect();
      await client.query('BEGIN');
      await project.many!(client, held);
      let done = false;
      const second = applyOnce(p, 'messaging', then, project).then(() => {
        done = true;
      });
      await new Promise((r) => setTimeout(r, 300));
      expect(done, `the ${first === 'sends' ? 'deletion' : 'sends'} waited for the open transaction`).toBe(false);
      await client.query('COMMIT');
      client.release();
      await second;
      const left = async (table: string) =>
        (await p.query(`SELECT count(*)::int AS n FROM ${table} WHERE channel_id = $1`, [other.id])).rows[0].n;
      expect({
        first,
        messages: await left('messaging.messages'),
        entries: await left('messaging_search.entries'),
      }).toEqual({ first, messages: 0, entries: 0 });
    }
  });

  it('a read mark applied while its channel is deleted or its reader leaves leaves no read position, whichever commits first', async () => {
    for (const removal of ['channel.deleted', 'member.left'] as const) {
      const { ws, alice, other, send } = await newRoom();
      const joined = await room.service.joinWorkspace(ws, { username: 'bob' });
      const bob: SessionActor = { workspaceId: ws, userId: joined.user.id, username: 'bob' };
      const sent = await send(other.id, 'read me');
      await messaging.service.markRead(bob, { channelId: other.id, seq: sent.seq });
      if (removal === 'channel.deleted')
        await room.service.deleteChannel(alice, { workspaceId: ws, channelId: other.id });
      else await room.service.leaveWorkspace(bob);
      const events = await roomEvents(ws);
      const mark = events.find((e) => e.type === 'read.marked' && e.payload.userId === bob.userId)!;
      const removed = events.find((e) => e.type === removal)!;
      expect(mark && removed).toBeTruthy();

      for (const first of ['mark', 'removal'] as const) {
        const { pool: p } = await freshReadModel();
        await applyOnce(
          p,
          'messaging',
          events.filter((e) => e !== mark && e !== removed),
          project,
        );
        const [held, then] = first === 'mark' ? [mark, removed] : [removed, mark];
        const client = await p.connect();
        await client.query('BEGIN');
        await project(client, held);
        let done = false;
        const second = applyOnce(p, 'messaging', [then], project).then(() => {
          done = true;
        });
        await new Promise((r) => setTimeout(r, 300));
        expect(done, `${removal}, ${first} first: the other transaction waited`).toBe(false);
        await client.query('COMMIT');
        client.release();
        await second;
        const positions = (
          await p.query(
            'SELECT count(*)::int AS n FROM messaging.read_positions WHERE channel_id = $1 AND user_id = $2',
            [other.id, bob.userId],
          )
        ).rows[0].n;
        expect({ removal, first, positions }).toEqual({ removal, first, positions: 0 });
      }
    }
  });
});

function partOf(event: AnyEventEnvelope, workspaceId: string): boolean {
  const p = event.payload as {
    workspaceId?: string;
    message?: { workspaceId: string };
    channel?: { workspaceId: string };
  };
  return (
    (p.workspaceId ?? p.message?.workspaceId ?? p.channel?.workspaceId) === workspaceId ||
    event.aggregateId === workspaceId
  );
}
