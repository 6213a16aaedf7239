/**
 * A send whose append fails after the log has it (the broker stored the records, then the answer was lost): the send
 * is refused, and the room becomes uncertain (room-writes.ts, from platform's recorder's appendFailed hook). Its next
 * write first waits for our projection of the log, so the retried send is answered with the message the log has,
 * and the next new message is numbered after it, not over it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { SessionActor } from '@ephemera/proto';
import type { EventLog, LogRecord } from '@ephemera/platform';
import { clientId } from '../../../test/helpers/clients.ts';
import { startRoomWorld } from '../../../test/helpers/room-world.ts';
import { startMessagingModule } from '../src/index.ts';

describe('a send whose append fails after the log has it', async () => {
  const world = await startRoomWorld();
  /** while set, the next append reaches the log and then fails */
  let loseAnswer = false;
  const log = new Proxy(world.log, {
    get(target, prop, receiver) {
      if (prop === 'append') {
        return async (records: LogRecord[]) => {
          await target.append(records);
          if (loseAnswer) {
            loseAnswer = false;
            throw new Error('the broker stored the records; its answer was lost');
          }
        };
      }
      const value = Reflect.get(target, prop, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  }) as EventLog;
  const messaging = await startMessagingModule({
    databaseUrl: world.databaseUrl,
    pool: world.pool,
    log,
    logger: world.logger,
    logSharesDatabase: true,
    keyring: world.keys.keyring,
  });
  world.stopFirst(() => messaging.stop());
  afterAll(() => world.stop());

  it('refuses the send; the retry gets the stored message and numbering continues after it', async () => {
    const created = await world.room.service.createWorkspace({
      name: `failed-append-${clientId()}`,
      username: 'alice',
    });
    const alice: SessionActor = { workspaceId: created.workspaceId, userId: created.user.id, username: 'alice' };
    const general = await world.room.service.createChannel(alice, {
      workspaceId: alice.workspaceId,
      name: 'general',
      type: 'topic',
      isPrivate: false,
      memberIds: [],
    });
    const send = (clientMessageId: string, content: string) =>
      messaging.service.sendMessage(alice, { clientMessageId, channelId: general.id, content, type: 'text' });

    const first = await send(clientId(), 'first');
    const lost = clientId();
    loseAnswer = true;
    await expect(send(lost, 'second')).rejects.toThrow('its answer was lost');

    const retried = await send(lost, 'second');
    expect(retried.seq).toBe(first.seq + 1); // the message the log has, stored once
    const { rows } = await world.pool.query(
      `SELECT event->>'sequence' AS seq FROM event_log WHERE event->'payload'->'message'->>'clientMessageId' = $1`,
      [lost],
    );
    expect(rows.map((r) => Number(r.seq))).toEqual([first.seq + 1]); // in the log once: the retry appended nothing
    const third = await send(clientId(), 'third');
    expect(third.seq).toBe(first.seq + 2);
    const page = await messaging.service.fetchMessages(alice, { channelId: general.id, limit: 50 });
    expect(page.messages.map((m) => [m.content, m.seq])).toEqual([
      ['first', first.seq],
      ['second', first.seq + 1],
      ['third', first.seq + 2],
    ]);
  });
});
