/**
 * A send is acknowledged when its message is in the log (src/sent-acks.ts): the fan-out answers the sender before it
 * broadcasts, whether or not messaging's own answer has come. The gateway here runs with the real event log (the
 * embedded one, on the suite's PostgreSQL) and a messaging stand-in that appends the send's message.sent event as
 * messaging does, then holds its answer until the test lets it go.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { io as connect, type Socket as ClientSocket } from 'socket.io-client';
import {
  C,
  DomainError,
  S,
  TOPICS,
  type Message,
  type MessagingApi,
  type RoomApi,
  type SessionActor,
} from '@ephemera/proto';
import {
  EmbeddedEventLog,
  MemoryEphemeralStore,
  RoomKey,
  RoomKeyring,
  appendEvents,
  createLogger,
  createPool,
  makeEvent,
  metrics,
  newId,
  userActor,
} from '@ephemera/platform';
import { PresenceService } from '@ephemera/presence';
import { createTestDatabase } from '../../../test/helpers/db.ts';
import { startGateway } from '../src/gateway.ts';

describe('a send is acknowledged from the log', async () => {
  const pool = createPool(await createTestDatabase(), 4);
  const log = new EmbeddedEventLog(pool);
  await log.init(Object.values(TOPICS));
  const workspaceId = newId();
  const key = RoomKey.generate(workspaceId);
  const rooms = {
    authenticate: async ({ userToken, username }: { userToken: string; username: string }) => ({
      user: { id: userToken.split('.')[0], username, isAdmin: false },
      workspace: { id: workspaceId, name: 'acks' },
    }),
  } as unknown as RoomApi;

  /** messaging's answers wait for this (its appends do not) */
  let releaseAnswers!: () => void;
  let answersHeld = new Promise<void>((r) => {
    releaseAnswers = r;
  });
  let seq = 0;
  const messaging = {
    async sendMessage(
      actor: SessionActor,
      input: { clientMessageId: string; channelId: string; content: string },
    ): Promise<Message> {
      if (input.content === 'refused') throw new DomainError('FORBIDDEN');
      seq += 1;
      const message = {
        id: newId(),
        clientMessageId: input.clientMessageId,
        workspaceId,
        channelId: input.channelId,
        seq,
        authorId: actor.userId,
        authorName: actor.username,
        profilePicture: null,
        timestamp: new Date().toISOString(),
        type: 'text',
        content: input.content,
        isEdited: false,
        replyTo: null,
        reactions: {},
        linkPreview: null,
        editedAt: null,
        file: null,
      } as Message;
      // 'not logged': a send messaging holds before its append (a slow check), so only its own answer can ack it
      if (input.content !== 'not logged') {
        await appendEvents(log, [
          makeEvent(
            'message.sent',
            workspaceId,
            seq,
            { message, audience: { kind: 'workspace' } },
            userActor(actor.userId),
          ),
        ]);
      }
      await answersHeld;
      return message;
    },
  } as unknown as MessagingApi;

  const gateway = await startGateway({
    port: 0,
    host: '127.0.0.1',
    gatewayId: 'acks',
    rooms,
    messaging,
    presence: new PresenceService(new MemoryEphemeralStore(), { typingSweepMs: 0 }),
    keyring: new RoomKeyring(async (id) => (id === workspaceId ? key : null)),
    log,
    bus: new MemoryEphemeralStore(),
    logger: createLogger('sent-acks-test', 'silent'),
    allowedOrigins: [],
  });
  const clients: ClientSocket[] = [];
  afterAll(async () => {
    releaseAnswers();
    for (const c of clients) c.disconnect();
    await gateway.stop();
    await log.close();
    await pool.end();
  });

  /** gateway_send_acks_total by answer */
  async function acksFrom(): Promise<Record<string, number>> {
    const { values } = await metrics.register.getSingleMetric('gateway_send_acks_total')!.get();
    return Object.fromEntries(values.map((v) => [v.labels.from, v.value]));
  }

  /** A joined socket and what it heard, in order: acks and broadcast messages. */
  async function member(userId: string) {
    const socket = connect(`http://127.0.0.1:${gateway.port}`, {
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    clients.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    const heard: string[] = [];
    socket.on(S.message, (m: Message) => heard.push(`message ${m.content}`));
    /** Socket.IO packets as they arrived (a handler's order can differ: an ack resolves a promise, later) */
    const frames: string[] = [];
    socket.io.engine.on('data', (data: unknown) => {
      if (typeof data === 'string') frames.push(data.startsWith('3') ? 'ack' : data.slice(1, data.indexOf('",') + 1));
    });
    const joined = await socket
      .timeout(5000)
      .emitWithAck(C.joinWorkspace, { workspaceId, userToken: `${userId}.token-of-16-chars`, username: userId });
    expect(joined).toMatchObject({ success: true });
    const send = (content: string, clientMessageId = `c${newId()}`) =>
      socket
        .timeout(5000)
        .emitWithAck(C.sendMessage, { channelId: 'general', clientMessageId, content })
        .then((ack: { success: boolean; message?: Message; code?: string }) => {
          heard.push(`ack ${ack.message?.content ?? ack.code}`);
          return ack;
        });
    return { socket, heard, frames, send };
  }

  it('answers the sender from the log, ahead of the broadcast, while messaging has not answered', async () => {
    const alice = await member('alice');
    const bob = await member('bob');
    const ack = await alice.send('hello');
    expect(ack).toMatchObject({ success: true, message: { content: 'hello', authorId: 'alice', workspaceId } });
    await expect.poll(() => bob.heard).toEqual(['message hello']);
    await expect.poll(() => alice.heard).toContain('message hello');
    expect(alice.frames.slice(-2)).toEqual(['ack', `["${S.message}"`]); // the ack arrived first
    expect(await acksFrom()).toEqual({ log: 1 });
  });

  it("is not answered by another user's message with the same client id; messaging's answer still comes", async () => {
    const carol = await member('carol');
    const dave = await member('dave');
    const clientMessageId = `c${newId()}`;
    const carolsAck = carol.send('not logged', clientMessageId);
    const davesAck = await dave.send('same id', clientMessageId);
    expect(davesAck).toMatchObject({ success: true, message: { authorId: 'dave', clientMessageId } });
    // carol heard dave's message, so the fan-out has read it: it did not answer her send
    await expect.poll(() => carol.heard).toContain('message same id');
    expect(carol.heard).not.toContain('ack not logged');
    releaseAnswers();
    await expect(carolsAck).resolves.toMatchObject({
      success: true,
      message: { authorId: 'carol', content: 'not logged' },
    });
    expect(await acksFrom()).toEqual({ log: 2, messaging: 1 }); // dave's from the log, carol's from messaging
    answersHeld = new Promise<void>((r) => {
      releaseAnswers = r;
    });
  });

  it('leaves a refusal to messaging', async () => {
    const erin = await member('erin');
    await expect(erin.send('refused')).resolves.toMatchObject({ success: false, code: 'FORBIDDEN' });
  });
});
