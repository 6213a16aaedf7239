/**
 * Engine.IO's keep-alive pings on a one-second grid, so that a gateway wakes up about once a second for all of its
 * idle sockets instead of once per socket.
 *
 * Engine.IO 6.6 arms one timer per socket: the next ping is `pingInterval` after the socket opened or after its last
 * pong. The pings of 500 idle sockets are therefore spread evenly over the interval: 12.5 wakeups a second for the
 * pings and as many for the pongs, each costing the process far more (epoll, uWS' loop, V8 entering, a timer list)
 * than the one small frame it carries. That was most of an idle gateway's CPU (docs/product/performance.md PF16:
 * under 1 % of a core).
 *
 * Here a socket's next ping is due `pingInterval` later, rounded up to the next whole second (PING_GRID_MS): every
 * ping due within the same second is sent in one timer turn, and their pongs come back together. A ping is at most a
 * second late; the client tolerates pingInterval + pingTimeout (60 s) without one (a pingTimeout of a second or
 * less keeps Engine.IO's exact timing).
 *
 * The ping itself is Engine.IO's own body (socket.js schedulePing: reset the refresh flag, send "ping", arm the pong
 * timeout). The pong handler calls `pingIntervalTimer.refresh()`, which here re-arms on the grid; a closed socket's
 * timer is cleared by Engine.IO's clearTimeout as before (it is a real Node timer).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export const PING_GRID_MS = 1_000;

interface EngineSocketLike {
  readyState: string;
  hasRefreshedPingTimeout: boolean;
  pingIntervalTimer: NodeJS.Timeout | null;
  server: { opts: { pingInterval: number; pingTimeout: number } };
  sendPacket(type: string): void;
  resetPingTimeout(): void;
  schedulePing(): void;
}

// socket.io's own copy of engine.io (the one whose sockets it makes), not whichever a bare import would find
const requireFromSocketIo = createRequire(createRequire(import.meta.url).resolve('socket.io'));
const engineIoMain = requireFromSocketIo.resolve('engine.io'); // build/engine.io.js (its exports hide package.json)
const version = (
  JSON.parse(readFileSync(path.join(path.dirname(engineIoMain), '..', 'package.json'), 'utf8')) as { version: string }
).version;
const EngineSocket = requireFromSocketIo(engineIoMain) as {
  Socket?: { prototype: EngineSocketLike & { pingGrid?: boolean } };
};

/** The delay until the first grid tick at least `interval` from `now`. */
export const gridDelay = (interval: number, now = Date.now()): number =>
  interval + ((PING_GRID_MS - ((now + interval) % PING_GRID_MS)) % PING_GRID_MS);
/**
 * The client closes a connection that has had no ping for pingInterval + pingTimeout: a ping may be late by up to
 * a grid step only when pingTimeout covers it (the product's 20 s does; a test's short timeout keeps exact pings).
 */
const pingDelay = (opts: { pingInterval: number; pingTimeout: number }): number =>
  opts.pingTimeout > PING_GRID_MS ? gridDelay(opts.pingInterval) : opts.pingInterval;

const proto = EngineSocket.Socket?.prototype;
if (
  !proto ||
  typeof proto.schedulePing !== 'function' ||
  typeof proto.resetPingTimeout !== 'function' ||
  typeof proto.sendPacket !== 'function'
) {
  throw new Error(
    `engine.io ${version}: Socket.schedulePing/resetPingTimeout/sendPacket not found; review engine-io-ping-grid.ts`,
  );
}
if (!proto.pingGrid) {
  proto.schedulePing = function schedulePingOnGrid(this: EngineSocketLike) {
    const timer = setTimeout(() => {
      this.hasRefreshedPingTimeout = false;
      this.sendPacket('ping');
      this.resetPingTimeout();
    }, pingDelay(this.server.opts));
    // Engine.IO refreshes the timer when the pong arrives: the next ping goes on the grid again.
    timer.refresh = () => {
      clearTimeout(timer);
      if (this.readyState !== 'closed') this.schedulePing();
      return timer;
    };
    this.pingIntervalTimer = timer;
  };
  proto.pingGrid = true;
}
