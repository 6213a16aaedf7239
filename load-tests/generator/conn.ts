/**
 * One raw websocket of the generator, over the `ws` package (frames stay Buffers, UTF-8 validation skipped) or
 * Node's built-in WebSocket (undici; needs --experimental-websocket on Node 20; frames arrive as strings), or the
 * bench's own minimal client on a TCP socket (rawws.ts; frames stay Buffers).
 * SioConn adds the Engine.IO/Socket.IO handshake, ping/pong and acks on top, with a fast path for deliveries.
 */
import WS from 'ws';
import { openRawWs } from './rawws.ts';
import { parseFrame, encodeConnect, encodeEvent, EIO_PATH, type Frame } from './wire.ts';

export type ClientKind = 'ws' | 'undici' | 'raw';
export type FrameData = string | Buffer;

export interface Conn {
  send(s: string): void;
  close(): void;
  /** sets the frame handler; frames that arrived before (e.g. with the upgrade response) are replayed to it */
  listen(fn: (d: FrameData) => void): void;
  onClose: () => void;
}

/** Frames go to `fn` once set; until then they queue (a server may speak in the same packet as the upgrade). */
function frameSink() {
  let fn: ((d: FrameData) => void) | null = null;
  const early: FrameData[] = [];
  return {
    push: (d: FrameData) => (fn ? fn(d) : early.push(d)),
    listen: (f: (d: FrameData) => void) => {
      fn = f;
      while (early.length && fn === f) f(early.shift()!);
    },
  };
}

export function openConn(url: string, kind: ClientKind, timeoutMs = 15000): Promise<Conn> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`connect timeout ${url}`)), timeoutMs);
    const sink = frameSink();
    const conn: Conn = { send: () => {}, close: () => {}, listen: sink.listen, onClose: () => {} };
    if (kind === 'raw') {
      openRawWs(url, sink.push, () => conn.onClose(), timeoutMs).then(
        (ws) => {
          clearTimeout(timer);
          conn.send = ws.send;
          conn.close = ws.close;
          resolve(conn);
        },
        (e) => {
          clearTimeout(timer);
          reject(e);
        },
      );
    } else if (kind === 'ws') {
      const ws = new WS(url, { perMessageDeflate: false, skipUTF8Validation: true });
      conn.send = (s) => ws.send(s);
      conn.close = () => ws.terminate();
      ws.on('message', sink.push);
      ws.on('close', () => conn.onClose());
      ws.on('open', () => {
        clearTimeout(timer);
        resolve(conn);
      });
      ws.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
    } else {
      const Native = (globalThis as { WebSocket?: typeof globalThis.WebSocket }).WebSocket;
      if (!Native) return reject(new Error('no global WebSocket: run node with --experimental-websocket'));
      const ws = new Native(url);
      conn.send = (s) => ws.send(s);
      conn.close = () => ws.close();
      ws.onmessage = (e) => sink.push(e.data as string);
      ws.onclose = () => conn.onClose();
      ws.onopen = () => {
        clearTimeout(timer);
        resolve(conn);
      };
      ws.onerror = () => {
        clearTimeout(timer);
        reject(new Error(`websocket error ${url}`));
      };
    }
  });
}

/**
 * A Socket.IO client speaking the wire format. `fastPrefix` frames (e.g. '42["message"') go to onDelivery
 * untouched; everything else is parsed (handshake, acks, other events: rare).
 */
export class SioConn {
  private ackSeq = 0;
  private pending = new Map<number, (args: unknown[]) => void>();
  onDelivery: (d: FrameData) => void = () => {};
  onEvent: (name: string, args: unknown[]) => void = () => {};
  closed = false;

  private constructor(
    readonly conn: Conn,
    private readonly fastPrefix: Buffer,
    private readonly fastStr: string,
  ) {}

  static async connect(
    origin: string,
    kind: ClientKind,
    fastPrefix: string,
    auth?: object,
    timeoutMs = 15000,
  ): Promise<SioConn> {
    const url = origin.replace(/^http/, 'ws') + EIO_PATH;
    const conn = await openConn(url, kind, timeoutMs);
    const s = new SioConn(conn, Buffer.from(fastPrefix), fastPrefix);
    conn.onClose = () => {
      s.closed = true;
    };
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('socket.io handshake timeout')), timeoutMs);
      conn.listen((d) => {
        const f = parseFrame(String(d));
        if (f.kind === 'open') conn.send(encodeConnect(auth));
        else if (f.kind === 'connect') {
          clearTimeout(timer);
          conn.listen((x) => s.onFrame(x));
          resolve();
        } else if (f.kind === 'connect-error') {
          clearTimeout(timer);
          reject(new Error(`connect error ${JSON.stringify(f.data)}`));
        }
      });
    });
    return s;
  }

  private onFrame(d: FrameData): void {
    // hot path: a delivery, recognised by its first bytes, handed over undecoded
    if (
      typeof d === 'string'
        ? d.startsWith(this.fastStr)
        : d.length > this.fastPrefix.length &&
          d.compare(this.fastPrefix, 0, this.fastPrefix.length, 0, this.fastPrefix.length) === 0
    ) {
      this.onDelivery(d);
      return;
    }
    if (d.length === 1 && (typeof d === 'string' ? d === '2' : d[0] === 50)) {
      this.conn.send('3');
      return;
    }
    const f: Frame = parseFrame(String(d));
    if (f.kind === 'ack') {
      const cb = this.pending.get(f.id);
      if (cb) {
        this.pending.delete(f.id);
        cb(f.args);
      }
    } else if (f.kind === 'event') this.onEvent(f.name, f.args);
  }

  emit(name: string, payload: unknown): void {
    this.conn.send(encodeEvent(name, payload));
  }
  /** Emits with an ack request; `cb` gets the ack's arguments. */
  emitWithAck(name: string, payload: unknown, cb: (args: unknown[]) => void): void {
    const id = this.ackSeq++;
    this.pending.set(id, cb);
    this.conn.send(encodeEvent(name, payload, id));
  }
  request<T = unknown>(name: string, payload: unknown, timeoutMs = 20000): Promise<T> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ack for ${name} within ${timeoutMs} ms`)), timeoutMs);
      this.emitWithAck(name, payload, (args) => {
        clearTimeout(timer);
        resolve(args[0] as T);
      });
    });
  }
  pendingAcks(): number {
    return this.pending.size;
  }
  close(): void {
    this.closed = true;
    this.conn.close();
  }
}
