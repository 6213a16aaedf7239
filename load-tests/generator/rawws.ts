/**
 * A minimal websocket client straight on a TCP socket (RFC 6455, client side, no extensions): one 'data' listener
 * splits frames in a tight loop and hands each payload over as a Buffer view, without streams or events per frame.
 * Text frames are not decoded or validated. Client frames use an all-zero masking key (the payload needs no
 * XOR; servers cannot tell). Only for the bench: 127.0.0.1, ws:// only.
 */
import { connect, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';

export interface RawWs {
  send(text: string): void;
  close(): void;
}

/** Splits server frames (unmasked) out of a byte stream; handles frames split across TCP reads and fragments. */
export class FrameSplitter {
  private rest: Buffer | null = null;
  private fragments: Buffer[] | null = null;
  constructor(
    private readonly onMessage: (payload: Buffer) => void,
    private readonly onControl: (opcode: number, payload: Buffer) => void,
  ) {}

  push(chunk: Buffer): void {
    const buf = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    this.rest = null;
    let off = 0;
    const n = buf.length;
    while (n - off >= 2) {
      const b0 = buf[off];
      let len = buf[off + 1] & 0x7f;
      let head = 2;
      if (len === 126) {
        if (n - off < 4) break;
        len = buf.readUInt16BE(off + 2);
        head = 4;
      } else if (len === 127) {
        if (n - off < 10) break;
        len = Number(buf.readBigUInt64BE(off + 2));
        head = 10;
      }
      if (n - off < head + len) break;
      const payload = buf.subarray(off + head, off + head + len);
      off += head + len;
      const opcode = b0 & 0x0f;
      const fin = (b0 & 0x80) !== 0;
      if (opcode >= 8) this.onControl(opcode, payload);
      else if (fin && opcode !== 0 && this.fragments === null) this.onMessage(payload);
      else {
        (this.fragments ??= []).push(Buffer.from(payload));
        if (fin) {
          const whole = Buffer.concat(this.fragments);
          this.fragments = null;
          this.onMessage(whole);
        }
      }
    }
    if (off < n) this.rest = buf.subarray(off);
  }
}

/** One masked client frame with a zero masking key. */
export function clientFrame(opcode: number, payload: Buffer): Buffer {
  const len = payload.length;
  const head = len < 126 ? 2 : len < 65536 ? 4 : 10;
  const out = Buffer.alloc(head + 4 + len);
  out[0] = 0x80 | opcode;
  if (head === 2) out[1] = 0x80 | len;
  else if (head === 4) {
    out[1] = 0x80 | 126;
    out.writeUInt16BE(len, 2);
  } else {
    out[1] = 0x80 | 127;
    out.writeBigUInt64BE(BigInt(len), 2);
  }
  // bytes head..head+3 stay 0: the masking key
  payload.copy(out, head + 4);
  return out;
}

export function openRawWs(
  url: string,
  onMessage: (payload: Buffer) => void,
  onClose: () => void,
  timeoutMs: number,
): Promise<RawWs> {
  const u = new URL(url);
  if (u.protocol !== 'ws:') throw new Error(`raw client speaks ws:// only, not ${url}`);
  return new Promise((resolve, reject) => {
    const sock: Socket = connect({ host: u.hostname, port: Number(u.port || 80) });
    sock.setNoDelay(true);
    const timer = setTimeout(() => {
      sock.destroy();
      reject(new Error(`connect timeout ${url}`));
    }, timeoutMs);
    const ws: RawWs = {
      send: (text) => {
        sock.write(clientFrame(1, Buffer.from(text)));
      },
      close: () => sock.destroy(),
    };
    const splitter = new FrameSplitter(onMessage, (opcode, payload) => {
      if (opcode === 9)
        sock.write(clientFrame(10, payload)); // ping -> pong
      else if (opcode === 8) sock.destroy();
    });
    let head: Buffer | null = Buffer.alloc(0);
    sock.on('connect', () => {
      sock.write(
        `GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
    });
    sock.on('data', (chunk: Buffer) => {
      if (head === null) return splitter.push(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      const status = head.subarray(0, head.indexOf('\r\n')).toString();
      if (!/^HTTP\/1\.1 101/.test(status)) {
        clearTimeout(timer);
        sock.destroy();
        return reject(new Error(`upgrade refused: ${status}`));
      }
      const rest = head.subarray(end + 4);
      head = null;
      clearTimeout(timer);
      resolve(ws);
      if (rest.length) splitter.push(Buffer.from(rest));
    });
    sock.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    sock.on('close', () => onClose());
  });
}
