/**
 * Per-message keys in the sealing decorator (services/platform/src/event-log/sealed.ts, message-bodies.ts; the
 * messaging service's key table, services/messaging/src/message-keys.ts) over the embedded adapter and real
 * PostgreSQL: a message's body is sealed under its own key inside the room-sealed payload, its key is stored before
 * the append, a reader with the key table gets the whole message, and once the key is deleted every reader gets the
 * message without its body (bodyGone) and an edit of it is refused.
 */
import { describe, it, expect, afterAll } from 'vitest';
import { TOPICS, type AnyEventEnvelope, type Message } from '@ephemera/proto';
import {
  EmbeddedEventLog,
  RoomKeyring,
  SealedEventLog,
  createLogger,
  createPool,
  kafkaEventLog,
  makeEvent,
  migrate,
  newId,
  toRecords,
  userActor,
  type Delivery,
  type MessageKeyStore,
  type Pool,
} from '@ephemera/platform';
import { MESSAGING_MIGRATIONS, pgMessageKeys } from '@ephemera/messaging';
import { createTestDatabase } from '../helpers/db.ts';
import { kafkaBrokers } from '../helpers/infra.ts';
import { testRoomKeys } from '../helpers/room-keys.ts';

const pools: Pool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
});

const message = (workspaceId: string, content: string): Message => ({
  id: newId(),
  clientMessageId: newId(),
  workspaceId,
  channelId: 'ch1',
  seq: 1,
  authorId: 'u1',
  authorName: 'alice',
  profilePicture: null,
  timestamp: new Date().toISOString(),
  type: 'text',
  content,
  isEdited: false,
  replyTo: null,
  reactions: {},
  linkPreview: null,
  editedAt: null,
  file: null,
});
const sent = (m: Message) =>
  makeEvent('message.sent', m.workspaceId, m.seq, { message: m, audience: { kind: 'workspace' } }, userActor('u1'));
const edited = (m: Message, content: string, version: number) =>
  makeEvent(
    'message.edited',
    m.id,
    version,
    {
      workspaceId: m.workspaceId,
      channelId: m.channelId,
      messageId: m.id,
      content,
      editedAt: new Date().toISOString(),
      audience: { kind: 'workspace' },
    },
    userActor('u1'),
  );

describe('per-message keys in the sealed event log', () => {
  it('the body opens with its key only; once the key is deleted it comes as bodyGone and edits are refused', async () => {
    const url = await createTestDatabase();
    await migrate(url, MESSAGING_MIGRATIONS, 'messaging');
    const pool = createPool(url);
    pools.push(pool);
    await new EmbeddedEventLog(pool).init(Object.values(TOPICS));
    const keys = testRoomKeys();
    const store = pgMessageKeys(pool);
    const writer = new SealedEventLog(new EmbeddedEventLog(pool), keys.keyring, { messageKeys: store });
    const ws = newId();
    await keys.store.create(ws);
    const canary = `cnrybody${newId()}`;
    const m = message(ws, `secret ${canary}`);
    await writer.append(toRecords([sent(m)]));
    await writer.append(toRecords([edited(m, `edited ${canary}`, 2)]));

    // Under the room key alone, the records say nothing of the body.
    const roomKey = (await keys.keyring.key(ws))!;
    const { rows } = await pool.query<{ event: AnyEventEnvelope }>('SELECT event FROM event_log ORDER BY position');
    const underRoomKey = rows.map((r) => {
      const p = r.event.payload as unknown as { sealed: string };
      return JSON.stringify(roomKey.openJson(p.sealed, r.event.id));
    });
    expect(underRoomKey.join('')).not.toContain(canary);
    expect(underRoomKey.join('')).toContain(m.id); // the envelope of the message is there
    expect((await pool.query('SELECT 1 FROM messaging.message_keys WHERE message_id = $1', [m.id])).rowCount).toBe(1);

    // A reader in another process (nothing in memory) with the key table gets the message whole.
    const readAll = async (messageKeys?: MessageKeyStore) => {
      const got: Delivery[] = [];
      const reader = new SealedEventLog(new EmbeddedEventLog(pool), new RoomKeyring((id) => keys.files.get(id)), {
        messageKeys,
      });
      const sub = await reader.subscribe({
        groupId: `g-${newId()}`,
        topics: [TOPICS.messaging],
        fromBeginning: true,
        handler: async (d) => {
          got.push(d);
        },
      });
      await sub.caughtUp();
      for (let i = 0; i < 100 && got.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
      await sub.stop();
      return got.map((d) => d.event.payload as Record<string, unknown>);
    };
    const [whole, edit] = await readAll(store);
    expect((whole!.message as Message).content).toBe(`secret ${canary}`);
    expect((whole!.message as Message).authorName).toBe('alice');
    expect(whole!.bodyGone).toBeUndefined();
    expect(edit!.content).toBe(`edited ${canary}`);
    // Without the key table (the room service, admin-analytics): the envelope, no body.
    const [bare] = await readAll();
    expect(bare).toMatchObject({ bodyGone: true, message: { id: m.id, content: '', authorName: '' } });

    // The message is deleted: its key goes, and no reader gets its body again; an edit of it is refused.
    await pool.query('DELETE FROM messaging.message_keys WHERE message_id = $1', [m.id]);
    const [goneSent, goneEdit] = await readAll(store);
    expect(goneSent).toMatchObject({ bodyGone: true, message: { id: m.id, content: '' } });
    expect(goneEdit).toMatchObject({ bodyGone: true, content: '' });
    await expect(writer.append(toRecords([edited(m, 'too late', 3)]))).rejects.toMatchObject({
      code: 'MESSAGE_NOT_FOUND',
    });
  });

  it('a batch delivered together (Kafka, a projection catching up) looks its keys up once per room', async () => {
    const url = await createTestDatabase();
    await migrate(url, MESSAGING_MIGRATIONS, 'messaging');
    const pool = createPool(url);
    pools.push(pool);
    const namespace = `mk${newId().slice(0, 8).toLowerCase()}`;
    const kafka = (clientId: string) =>
      kafkaEventLog({ brokers: kafkaBrokers(), clientId, logger: createLogger('test', 'silent'), namespace });
    const keys = testRoomKeys();
    const store = pgMessageKeys(pool);
    const writer = new SealedEventLog(kafka('writer'), keys.keyring, { messageKeys: store });
    await writer.init(Object.values(TOPICS));
    const ws = newId();
    await keys.store.create(ws);
    const ms = [1, 2, 3, 4, 5].map((i) => ({ ...message(ws, `text ${i}`), seq: i }));
    await writer.append(toRecords(ms.map(sent)));
    await pool.query('DELETE FROM messaging.message_keys WHERE message_id = $1', [ms[2]!.id]); // the third deleted

    let lookups = 0;
    const counting: MessageKeyStore = {
      get: (key, ids) => {
        lookups++;
        return store.get(key, ids);
      },
    };
    const reader = new SealedEventLog(kafka('reader'), new RoomKeyring((id) => keys.files.get(id)), {
      messageKeys: counting,
    });
    const got: Record<string, unknown>[] = [];
    const sub = await reader.subscribe({
      groupId: `g-${newId()}`,
      topics: [TOPICS.messaging],
      fromBeginning: true,
      handler: async (d) => {
        got.push(d.event.payload as Record<string, unknown>);
      },
      handleMany: async (ds) => {
        for (const d of ds) got.push(d.event.payload as Record<string, unknown>);
      },
    });
    await sub.caughtUp();
    for (let i = 0; i < 100 && got.length < 5; i++) await new Promise((r) => setTimeout(r, 20));
    await sub.stop();
    await reader.close();
    await writer.close();
    expect(got.map((p) => [(p.message as Message).content, p.bodyGone ?? false])).toEqual([
      ['text 1', false],
      ['text 2', false],
      ['', true],
      ['text 4', false],
      ['text 5', false],
    ]);
    expect(lookups).toBe(1);
  });
});
