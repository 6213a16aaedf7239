/**
 * A message event that reaches a gateway after the message was deleted comes without its body (its key is gone:
 * docs/crypto.md "Messages", bodyGone). The fan-out (fanout.ts deliver) shows nothing of it, rather than an empty
 * message or an edit to empty text; a message with its body goes out as it is. The Socket.IO server is stood for by
 * a recorder of what deliver emits to which rooms.
 */
import { describe, it, expect } from 'vitest';
import type { GatewayServer } from '../src/socket-types.ts';
import { S, type AnyEventEnvelope, type Message } from '@ephemera/proto';
import { makeEvent, userActor } from '@ephemera/platform';
import { deliver } from '../src/deliver.ts';

function recorder() {
  const emitted: { to: unknown; event: string; payload: unknown }[] = [];
  const io = {
    to: (to: unknown) => ({
      emit: (event: string, payload: unknown) => {
        emitted.push({ to, event, payload });
        return true;
      },
    }),
  } as unknown as GatewayServer;
  return { io, emitted };
}

const message: Message = {
  id: 'm1',
  clientMessageId: 'c1',
  workspaceId: 'w1',
  channelId: 'ch1',
  seq: 1,
  authorId: 'u1',
  authorName: 'alice',
  profilePicture: null,
  timestamp: new Date().toISOString(),
  type: 'text',
  content: 'hello',
  isEdited: false,
  replyTo: null,
  reactions: {},
  linkPreview: null,
  editedAt: null,
  file: null,
};
const audience = { kind: 'workspace' as const };
const sent = (bodyGone?: boolean) =>
  makeEvent('message.sent', 'w1', 1, { message, audience, bodyGone }, userActor('u1')) as AnyEventEnvelope;
const edited = (bodyGone?: boolean) =>
  makeEvent(
    'message.edited',
    'm1',
    2,
    { workspaceId: 'w1', channelId: 'ch1', messageId: 'm1', content: 'hi', editedAt: '', audience, bodyGone },
    userActor('u1'),
  ) as AnyEventEnvelope;

describe('fan-out of a message deleted before it arrived', () => {
  it('emits a message and an edit with their bodies, and nothing for either without', () => {
    const { io, emitted } = recorder();
    deliver(io, sent());
    deliver(io, edited());
    expect(emitted.map((e) => e.event)).toEqual([S.message, S.messageEdited]);
    expect(emitted[0]!.payload).toMatchObject({ id: 'm1', content: 'hello' });
    deliver(io, sent(true));
    deliver(io, edited(true));
    expect(emitted).toHaveLength(2);
  });
});
