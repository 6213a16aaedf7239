/**
 * Engine.IO v4 / Socket.IO v5 framing over a websocket, just what the generator needs, and the bench message format.
 *
 * Engine.IO packet = one websocket text frame: '0' open (+JSON handshake), '2' ping, '3' pong, '4' message.
 * Socket.IO packet inside an Engine.IO message: '0' connect, '2' event, '3' ack (default namespace, no binary).
 * So: '40' connect, '40{"sid":..}' connected, '42["ev",payload]' event, '42<id>["ev",payload]' event wanting an ack,
 * '43<id>[args]' ack reply, '44{...}' connect error.
 */

export const EIO_PATH = '/socket.io/?EIO=4&transport=websocket';

export type Frame =
  | { kind: 'open'; handshake: { sid: string; pingInterval: number; pingTimeout: number } }
  | { kind: 'ping' }
  | { kind: 'pong' }
  | { kind: 'close' }
  | { kind: 'connect'; data: unknown }
  | { kind: 'connect-error'; data: unknown }
  | { kind: 'event'; id: number | null; name: string; args: unknown[] }
  | { kind: 'ack'; id: number; args: unknown[] }
  | { kind: 'other'; raw: string };

/** Full parse of one Engine.IO frame (used for the handshake, acks and sampled sockets; never per delivery). */
export function parseFrame(raw: string): Frame {
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
      const arr = JSON.parse(body) as unknown[];
      return { kind: 'event', id, name: String(arr[0]), args: arr.slice(1) };
    }
    case '3':
      return { kind: 'ack', id: id ?? -1, args: JSON.parse(body) as unknown[] };
    default:
      return { kind: 'other', raw };
  }
}

export function encodeConnect(auth?: object): string {
  return auth ? `40${JSON.stringify(auth)}` : '40';
}
export function encodeEvent(name: string, payload: unknown, ackId?: number): string {
  return `42${ackId ?? ''}${JSON.stringify([name, payload])}`;
}
export function encodeAck(id: number, args: unknown[]): string {
  return `43${id}${JSON.stringify(args)}`;
}

// ---------------------------------------------------------------- bench message content

/**
 * Content of every bench message: `~t=<send ms>~k=<tag>~m=<index>~` then padding to `bytes`.
 * `~` needs no JSON escaping, so receivers find the fields by byte search without parsing JSON.
 * tag: 'W<step>' during warm-up, 'S<step>' during the steady window.
 */
export function makeContent(sendMs: number, tag: string, index: number, bytes: number): string {
  const head = `~t=${sendMs.toFixed(3)}~k=${tag}~m=${index}~`;
  return head.length >= bytes ? head : head + 'x'.repeat(bytes - head.length);
}

/** Reads the send time and message index from a frame holding bench content; null if there is none. */
export function readContent(frame: string | Buffer): { t: number; tag: string; m: number } | null {
  const s = typeof frame === 'string' ? frame : frame.toString('latin1');
  const a = s.indexOf('~t=');
  if (a < 0) return null;
  const b = s.indexOf('~k=', a);
  const c = s.indexOf('~m=', b);
  const d = s.indexOf('~', c + 3);
  if (b < 0 || c < 0 || d < 0) return null;
  return { t: Number(s.slice(a + 3, b)), tag: s.slice(b + 3, c), m: Number(s.slice(c + 3, d)) };
}

/** A byte/string prefix test without decoding: does the frame start with `prefix` (ASCII)? */
export function startsWith(frame: string | Buffer, prefix: string): boolean {
  if (typeof frame === 'string') return frame.startsWith(prefix);
  if (frame.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (frame[i] !== prefix.charCodeAt(i)) return false;
  return true;
}

/** Does the frame contain `needle` (a Buffer for binary frames, a string for decoded ones)? Native search. */
export function contains(frame: string | Buffer, needle: string, needleBuf: Buffer): boolean {
  return typeof frame === 'string' ? frame.includes(needle) : frame.indexOf(needleBuf) >= 0;
}
