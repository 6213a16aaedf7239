/**
 * Engine.IO's pings on a one-second grid (src/engine-io-ping-grid.ts): sockets that connected at different moments
 * are pinged in the same timer turn, the pongs keep them open, and a socket that stops answering is still closed by
 * the ping timeout. Without the patch each socket's pings follow its own connect time (this test then fails).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Server } from 'socket.io';
import { io as connect, type Socket as ClientSocket } from 'socket.io-client';
import WebSocket from 'ws';
import { gridDelay, PING_GRID_MS } from '../src/engine-io-ping-grid.ts';

// the client gives up after interval + timeout without a ping: the timeout must cover a grid step (the product: 40 + 20 s)
const PING_INTERVAL = 300;
const PING_TIMEOUT = 1_500;

describe('engine.io ping grid', () => {
  let server: http.Server;
  let io: Server;
  let url: string;
  const pings: { socket: string; at: number }[] = [];

  beforeAll(async () => {
    server = http.createServer();
    io = new Server(server, { pingInterval: PING_INTERVAL, pingTimeout: PING_TIMEOUT, transports: ['websocket'] });
    io.engine.on('connection', (conn: { id: string; on(e: string, f: (p: { type: string }) => void): void }) => {
      conn.on('packetCreate', (packet) => {
        if (packet.type === 'ping') pings.push({ socket: conn.id, at: Date.now() });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    void io.close();
    await new Promise((r) => server.close(r));
  });

  it('rounds the interval up to the next whole second', () => {
    expect(gridDelay(40_000, 1_000_000)).toBe(40_000);
    expect(gridDelay(40_000, 1_000_001)).toBe(40_999);
    expect(gridDelay(40_000, 1_000_999)).toBe(40_001);
    expect(gridDelay(400, 5_700)).toBe(1_300);
  });

  it('pings sockets that joined at different moments in the same turn, and their pongs keep them open', async () => {
    const clients: ClientSocket[] = [];
    for (let i = 0; i < 6; i++) {
      const client = connect(url, { transports: ['websocket'], reconnection: false });
      await new Promise<void>((resolve, reject) => {
        client.once('connect', resolve);
        client.once('connect_error', reject);
      });
      clients.push(client);
      await new Promise((r) => setTimeout(r, 70)); // spread over ~420 ms: more than a ping interval
    }
    const ids = new Set(clients.map((c) => c.io.engine.id));
    await new Promise((r) => setTimeout(r, 3 * PING_GRID_MS + 200));
    const ours = pings.filter((p) => ids.has(p.socket));
    for (const id of ids) expect(ours.filter((p) => p.socket === id).length).toBeGreaterThanOrEqual(2); // pinged again after each pong
    // On the grid: timers fire a little late, or up to a millisecond early by the wall clock (Node schedules on the
    // loop's cached monotonic time, in whole milliseconds; Date.now() is read later): a CI run saw one at 999.
    const offGrid = (at: number) => {
      const r = at % PING_GRID_MS;
      return r > PING_GRID_MS / 2 ? r - PING_GRID_MS : r;
    };
    for (const p of ours) {
      expect(offGrid(p.at)).toBeGreaterThanOrEqual(-2);
      expect(offGrid(p.at)).toBeLessThan(60);
    }
    expect(clients.every((c) => c.connected)).toBe(true);
    for (const c of clients) c.disconnect();
  });

  it('closes a socket that does not answer its ping', async () => {
    const ws = new WebSocket(`${url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`);
    const opened = Date.now();
    const closedAt = await new Promise<number>((resolve, reject) => {
      ws.on('close', () => resolve(Date.now()));
      ws.on('error', reject);
      // never answers "2" (ping) with "3" (pong)
    });
    // the first ping at most interval + a grid step after the open, then the pong timeout
    expect(closedAt - opened).toBeLessThan(PING_INTERVAL + PING_GRID_MS + PING_TIMEOUT + 500);
    expect(closedAt - opened).toBeGreaterThanOrEqual(PING_INTERVAL + PING_TIMEOUT - 50);
  });
});
