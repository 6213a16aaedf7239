/**
 * A deleted message unreadable in the event log too (docs/crypto.md "Messages"): a message with a canary, edited to a
 * second canary, is deleted while the room lives; then every record of the room in the log, opened with the room's
 * key and the message keys that remain, holds neither canary, while a living message's text opens (the method can
 * read what is there). Used by embedded-canary.test.ts and distributed-canary.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { C, S, isSealedPayload } from '@ephemera/proto';
import { unwrapMessageKey, type RoomKey } from '@ephemera/platform';
import { clientId, createRoom, joinRoom, next, request, socketJoin, uniqueName } from '../helpers/clients.ts';

export function messageCanaries() {
  const hex = () => randomBytes(8).toString('hex');
  return { deleted: `cnrydel${hex()}`, deletedEdit: `cnrydeled${hex()}`, living: `cnryliv${hex()}` };
}

/** The owner on A says the canaries (bob on B sees them), edits the first, then deletes it; bob sees the deletion. */
export async function sayAndDelete(A: string, B: string, c: ReturnType<typeof messageCanaries>) {
  const created = await createRoom(A, uniqueName('msgkey'), 'alice');
  const owner = (await socketJoin(A, created.workspaceId, 'alice', created.userToken)).socket;
  const joined = await joinRoom(B, created.workspaceId, 'bob');
  const bob = (await socketJoin(B, created.workspaceId, 'bob', joined.userToken)).socket;
  try {
    const channel = await request(owner, C.createChannel, {
      workspaceId: created.workspaceId,
      name: 'talk',
      type: 'topic',
      isPrivate: false,
    });
    if (!channel.success) throw new Error(`create-channel failed: ${channel.message}`);
    const channelId = channel.channel.id;
    const send = async (content: string) => {
      const seen = next<{ content: string }>(bob, S.message, (m) => m.content === content);
      const ack = await request(owner, C.sendMessage, {
        clientMessageId: clientId(),
        channelId,
        content,
        type: 'text',
      });
      if (!ack.success) throw new Error(`send failed: ${ack.message}`);
      await seen; // fanned out with its body, on the other gateway too
      return ack.message;
    };
    const doomed = await send(`to be deleted ${c.deleted}`);
    await send(`stays ${c.living}`);
    const edited = next<{ content: string }>(bob, S.messageEdited, (m) => m.content.includes(c.deletedEdit));
    const edit = await request(owner, C.editMessage, {
      workspaceId: created.workspaceId,
      messageId: doomed.id,
      newContent: `now ${c.deletedEdit}`,
    });
    if (!edit.success) throw new Error(`edit failed: ${edit.message}`);
    await edited;
    const gone = next(bob, S.messageDeleted, (m: { messageId: string }) => m.messageId === doomed.id);
    const del = await request(owner, C.deleteMessage, { workspaceId: created.workspaceId, messageId: doomed.id });
    if (!del.success) throw new Error(`delete failed: ${del.message}`);
    await gone;
    return { workspaceId: created.workspaceId, messageId: doomed.id };
  } finally {
    owner.disconnect();
    bob.disconnect();
  }
}

interface RawEvent {
  id: string;
  type: string;
  payload: unknown;
}

/**
 * Everything the room's records say to a reader holding the room's key and the remaining (wrapped) message keys:
 * each payload opened under the room key, and each message body under its message's key where that key remains.
 */
export function openRoomRecords(events: RawEvent[], roomKey: RoomKey, wrapped: Record<string, string>): string {
  let text = '';
  for (const e of events) {
    if (!isSealedPayload(e.payload)) {
      text += JSON.stringify(e.payload);
      continue;
    }
    const inner = roomKey.openJson<Record<string, unknown>>(e.payload.sealed, e.id);
    text += JSON.stringify(inner);
    if (typeof inner.body !== 'string') continue;
    const messageId =
      e.type === 'message.sent' ? String((inner.message as { id: string }).id) : String(inner.messageId);
    const w = wrapped[messageId];
    if (w) text += unwrapMessageKey(roomKey, messageId, w).open(inner.body, `message-body:${e.id}`);
  }
  return text;
}

/** The canaries of the deleted message are not recoverable; the living one is (the records were read and opened). */
export function expectDeletedUnreadable(text: string, c: ReturnType<typeof messageCanaries>, where: string): void {
  expect(text.includes(c.living), `the living message opens from ${where}`).toBe(true);
  expect(text.includes(c.deleted), `the deleted message's text in ${where}`).toBe(false);
  expect(text.includes(c.deletedEdit), `the deleted message's edit in ${where}`).toBe(false);
}
