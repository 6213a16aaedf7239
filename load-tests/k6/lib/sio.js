/**
 * Engine.IO v4 / Socket.IO v5 framing for the k6 scenarios (k6 speaks websocket, not Socket.IO). Pure functions,
 * no k6 import, so vitest checks them too (sio.test.ts).
 *
 * One websocket text frame = one Engine.IO packet: '0{handshake}' open, '1' close, '2' ping, '3' pong, '4' message.
 * A Socket.IO packet rides inside '4' (default namespace, no binary): '0' connect, '2' event, '3' ack, '4' connect
 * error. So the client sends '40', gets '40{"sid":..}', then '42["event",payload]' (or '42<id>[..]' wanting an ack)
 * and receives '43<id>[args]' acks; it answers each ping '2' with a pong '3'.
 */

/** The websocket path (websocket transport straight away, no polling). */
export const EIO_PATH = '/socket.io/?EIO=4&transport=websocket';

/** ws:// or wss:// address of an http(s) origin's Socket.IO endpoint. */
export function socketUrl(origin) {
  return origin.replace(/^http/, 'ws').replace(/\/+$/, '') + EIO_PATH;
}

export const PING = '2';
export const PONG = '3';

export function encodeConnect(auth) {
  return auth ? `40${JSON.stringify(auth)}` : '40';
}

/** '42["name",payload]', or '42<ackId>["name",payload]' when the sender wants an ack. */
export function encodeEvent(name, payload, ackId) {
  return `42${ackId === undefined || ackId === null ? '' : ackId}${JSON.stringify(payload === undefined ? [name] : [name, payload])}`;
}

/** '43<id>[args]': the reply to a server event that asked for an ack. */
export function encodeAck(id, args) {
  return `43${id}${JSON.stringify(args)}`;
}

/**
 * Full parse of one frame:
 *   { kind: 'open', handshake } | { kind: 'ping' } | { kind: 'pong' } | { kind: 'close' }
 *   | { kind: 'connect', data } | { kind: 'connect-error', data }
 *   | { kind: 'event', id, name, args } | { kind: 'ack', id, args } | { kind: 'other', raw }
 */
export function parsePacket(raw) {
  switch (raw[0]) {
    case '0':
      return { kind: 'open', handshake: JSON.parse(raw.slice(1)) };
    case '1':
      return { kind: 'close' };
    case '2':
      return { kind: 'ping' };
    case '3':
      return { kind: 'pong' };
    case '4':
      break;
    default:
      return { kind: 'other', raw };
  }
  const t = raw[1];
  let i = 2;
  while (i < raw.length && raw.charCodeAt(i) >= 48 && raw.charCodeAt(i) <= 57) i++;
  const id = i > 2 ? Number(raw.slice(2, i)) : null;
  const body = raw.slice(i);
  switch (t) {
    case '0':
      return { kind: 'connect', data: body ? JSON.parse(body) : undefined };
    case '4':
      return { kind: 'connect-error', data: body ? JSON.parse(body) : undefined };
    case '2': {
      const arr = JSON.parse(body);
      return { kind: 'event', id, name: String(arr[0]), args: arr.slice(1) };
    }
    case '3':
      return { kind: 'ack', id: id === null ? -1 : id, args: JSON.parse(body) };
    default:
      return { kind: 'other', raw };
  }
}

/** The event name of a '42[...]' frame without parsing the payload (null for anything else). */
export function eventName(raw) {
  if (raw.charCodeAt(0) !== 52 || raw.charCodeAt(1) !== 50) return null; // '4' '2'
  let i = 2;
  while (i < raw.length && raw.charCodeAt(i) >= 48 && raw.charCodeAt(i) <= 57) i++;
  if (raw.charCodeAt(i) !== 91 || raw.charCodeAt(i + 1) !== 34) return null; // '["'
  const end = raw.indexOf('"', i + 2);
  return end < 0 ? null : raw.slice(i + 2, end);
}

/**
 * Bench content: `~t=<send ms>~r=<tag>~` then padding to `bytes`. `~` needs no JSON escaping, so a receiver reads
 * the send time with two indexOf calls, never JSON.parse.
 */
export function makeContent(sendMs, tag, bytes) {
  const head = `~t=${sendMs}~r=${tag}~`;
  return head.length >= bytes ? head : head + 'x'.repeat(bytes - head.length);
}

/** { t, tag } from a frame holding bench content, or null. */
export function readContent(raw) {
  const a = raw.indexOf('~t=');
  if (a < 0) return null;
  const b = raw.indexOf('~r=', a);
  const c = b < 0 ? -1 : raw.indexOf('~', b + 3);
  if (b < 0 || c < 0) return null;
  return { t: Number(raw.slice(a + 3, b)), tag: raw.slice(b + 3, c) };
}

/** The message's seq from a '42["message",{...}]' frame (the payload's top-level "seq"), without a full parse. */
export function readSeq(raw) {
  const m = /"seq":(\d+)/.exec(raw);
  return m ? Number(m[1]) : null;
}
