/**
 * What of a message event is sealed under the message's own key (message-keys.ts), inside the payload the room key
 * seals: a `message.sent` message's body (author name and picture, text, reply quote, link preview, file) and a
 * `message.edited` text. The rest (ids, channel, author id, sequence, time, type, audience) stays under the room key
 * only: consumers that route or count messages read it without the message's key.
 *
 * A record whose message key is gone (the message was deleted) is handed over without its body and with
 * `bodyGone: true`: the messaging projection stores such a message as deleted.
 */
import type { RoomKey } from '../crypto/room-key.ts';

const BODY_FIELDS = ['authorName', 'profilePicture', 'content', 'replyTo', 'linkPreview', 'file'] as const;
const EMPTY_BODY = { authorName: '', profilePicture: null, content: '', replyTo: null, linkPreview: null, file: null };

type Payload = Record<string, unknown>;

/** The events whose payload carries a body sealed under the message's key. */
export const isMessageBodyEvent = (type: string): type is 'message.sent' | 'message.edited' =>
  type === 'message.sent' || type === 'message.edited';

/** The message a message.sent or message.edited payload concerns. */
export function messageIdOf(type: 'message.sent' | 'message.edited', payload: unknown): string {
  const p = payload as Payload;
  return type === 'message.sent' ? String((p.message as Payload).id) : String(p.messageId);
}

const bodyAad = (eventId: string) => `message-body:${eventId}`;

/** The payload with its body sealed under the message's key (`body`) and blanked where it was. */
export function sealBody(type: 'message.sent' | 'message.edited', eventId: string, payload: unknown, key: RoomKey) {
  const p = payload as Payload;
  if (type === 'message.edited')
    return { ...p, content: '', body: key.sealJson({ content: p.content }, bodyAad(eventId)) };
  const message = p.message as Payload;
  const body = Object.fromEntries(BODY_FIELDS.map((f) => [f, message[f]]));
  return { ...p, message: { ...message, ...EMPTY_BODY }, body: key.sealJson(body, bodyAad(eventId)) };
}

/** A payload opened under the room key that carries a sealed body. */
export const hasSealedBody = (payload: unknown): payload is Payload & { body: string } =>
  typeof (payload as Payload | null)?.body === 'string';

/** The payload with its body back in place; without the message's key, without it and `bodyGone: true`. */
export function openBody(
  type: 'message.sent' | 'message.edited',
  eventId: string,
  payload: Payload & { body: string },
  key: RoomKey | undefined,
): Payload {
  const { body, ...rest } = payload;
  if (!key) return { ...rest, bodyGone: true };
  const opened = key.openJson<Payload>(body, bodyAad(eventId)); // throws on a tampered body
  if (type === 'message.edited') return { ...rest, content: opened.content };
  return { ...rest, message: { ...(rest.message as Payload), ...opened } };
}
