/**
 * A minimal Socket.IO client for k6 on k6/websockets (one VU holds many of these: the module is event-loop based).
 * connect() resolves once Socket.IO's '40' connect answer arrived; request() sends an event wanting an ack and
 * resolves with the ack's first argument; every server event goes to onEvent(name, raw) undecoded (the scenario
 * decides what to parse). Pings are answered with pongs here.
 */
import { WebSocket } from 'k6/websockets';
import { encodeConnect, encodeEvent, eventName, parsePacket, socketUrl, PING, PONG } from './sio.js';

export class SioSocket {
  constructor(origin, opts = {}) {
    this.url = socketUrl(origin);
    this.timeoutMs = opts.timeoutMs || 20000;
    this.onEvent = opts.onEvent || null;
    this.onClose = null;
    this.nextId = 1;
    this.pending = new Map();
    this.closed = false;
    this.ws = null;
  }

  /** Opens the websocket and does the Engine.IO/Socket.IO handshake. */
  connect() {
    return new Promise((resolve, reject) => {
      let done = false;
      const finish = (err) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        if (err) {
          this.close();
          reject(err);
        } else resolve(this);
      };
      const timer = setTimeout(() => finish(new Error(`connect timeout ${this.url}`)), this.timeoutMs);
      const ws = (this.ws = new WebSocket(this.url));
      ws.onmessage = (e) => {
        const raw = e.data;
        const c0 = raw.charCodeAt(0);
        if (c0 === 52) {
          // '4': Socket.IO packet
          const c1 = raw.charCodeAt(1);
          if (c1 === 50) {
            // '2' event: the hot path, no JSON parse here
            if (this.onEvent) this.onEvent(eventName(raw), raw, e.timestamp);
            return;
          }
          if (c1 === 51) {
            // '3' ack
            const p = parsePacket(raw);
            const cb = this.pending.get(p.id);
            if (cb) {
              this.pending.delete(p.id);
              cb(p.args[0]);
            }
            return;
          }
          if (c1 === 48) return finish(); // '40{"sid":..}' connected
          if (c1 === 52) return finish(new Error(`connect_error ${raw.slice(2, 300)}`));
          return;
        }
        if (raw === PING) {
          ws.send(PONG);
          return;
        }
        if (c0 === 48) {
          ws.send(encodeConnect());
          return;
        } // '0{handshake}': ask for the default namespace
      };
      ws.onerror = (e) => finish(new Error(`websocket error ${e && e.error ? e.error : ''}`));
      ws.onclose = () => {
        this.closed = true;
        finish(new Error('closed during connect'));
        for (const cb of this.pending.values()) cb({ success: false, code: 'CLOSED', message: 'socket closed' });
        this.pending.clear();
        if (this.onClose) this.onClose();
      };
    });
  }

  emit(name, payload) {
    if (!this.closed) this.ws.send(encodeEvent(name, payload));
  }

  /** Sends an event with an ack id; resolves with the ack's first argument ({ success, ... }). Never rejects. */
  request(name, payload, timeoutMs) {
    return new Promise((resolve) => {
      if (this.closed) return resolve({ success: false, code: 'CLOSED', message: 'socket closed' });
      const id = this.nextId++;
      const timer = setTimeout(() => {
        if (this.pending.delete(id))
          resolve({ success: false, code: 'TIMEOUT', message: `${name}: no ack in ${timeoutMs || this.timeoutMs} ms` });
      }, timeoutMs || this.timeoutMs);
      this.pending.set(id, (a) => {
        clearTimeout(timer);
        resolve(a || {});
      });
      this.ws.send(encodeEvent(name, payload, id));
    });
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    try {
      this.ws.close();
    } catch {
      /* already closed */
    }
  }
}

/** Opens and connects one socket. */
export function connectSio(origin, opts) {
  return new SioSocket(origin, opts).connect();
}

/** Runs `fn(i)` for i in [0, n) with at most `limit` promises in flight. */
export async function pool(n, limit, fn) {
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      await fn(i);
    }
  };
  const workers = [];
  for (let k = 0; k < Math.min(limit, n); k++) workers.push(worker());
  await Promise.all(workers);
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
