/**
 * Read your writes when sends are acknowledged from the log (gateway/src/sent-acks.ts): the gateway may acknowledge a
 * send as soon as its message is in the log, before messaging's append has returned. A read of the room in that
 * moment must still find the message: it waits for the room's batch in flight. Here the log has the batch and
 * messaging's append is held (a busy event loop, a slow answer from the broker) while the read is asked.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { SessionActor } from '@ephemera/proto';
import type { EventLog, LogRecord } from '@ephemera/platform';
import { clientId } from '../../../test/helpers/clients.ts';
import { startRoomWorld } from '../../../test/helpers/room-world.ts';
import { startMessagingModule } from '../src/index.ts';

describe("a read during a send's append", async () => {
  const world = await startRoomWorld();
  /** while set, an append returns only when it is resolved, after the log has the records */
  let held: { landed: () => void; release: Promise<void> } | null = null;
  const log = new Proxy(world.log, {
    get(target, prop, receiver) {
      if (prop === 'append') {
        return async (records: LogRecord[]) => {
          await target.append(records);
          const hold = held;
          if (hold) {
            hold.landed();
            await hold.release;
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

  it('waits for the batch and finds the message the log has', async () => {
    const created = await world.room.service.createWorkspace({
      name: `read-during-append-${clientId()}`,
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
    const send = (content: string) =>
      messaging.service.sendMessage(alice, {
        clientMessageId: clientId(),
        channelId: general.id,
        content,
        type: 'text',
      });
    await send('first');

    let landed!: () => void;
    let release!: () => void;
    const inLog = new Promise<void>((r) => {
      landed = r;
    });
    held = {
      landed,
      release: new Promise<void>((r) => {
        release = r;
      }),
    };
    const second = send('second');
    await inLog; // the log has 'second'; messaging's append has not returned
    held = null;
    let read = false;
    const page = messaging.service.fetchMessages(alice, { channelId: general.id, limit: 50 }).finally(() => {
      read = true;
    });
    const sync = messaging.service.syncMessages(alice, { workspaceId: alice.workspaceId, afterSeq: 0, limit: 500 });
    await new Promise((r) => setTimeout(r, 200));
    expect(read).toBe(false); // it waits for the batch
    release();
    await second;
    expect((await page).messages.map((m) => m.content)).toEqual(['first', 'second']);
    expect((await sync).messages.map((m) => m.content)).toEqual(['first', 'second']);
  });
});
