/**
 * attachApp's one-room broadcasts walk only the long-polling sockets (src/socket-io-polling-walk.ts): every client
 * still gets each broadcast exactly once, on websocket, on long-polling, and after upgrading from one to the other;
 * and the walk no longer looks up the room's websocket sockets (without the patch it looks up every member: this test
 * then fails). The walk patches the uWS adapter only; where uWS does not load here its cases are skipped (CI runs
 * them in a Debian 13 root where it loads: .ci/uws-root.sh).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as Uws from '@btc-vision/uwebsockets.js';
import { loadUws } from '../src/engine/uws.ts';
import { Server } from 'socket.io';
import { io as connect, type Socket as ClientSocket } from 'socket.io-client';
import { walkOnlyPollingSockets } from '../src/socket-io-polling-walk.ts';

const loaded = loadUws();

describe.skipIf(!('uws' in loaded))('broadcast walks only long-polling sockets', () => {
  const uWS = (loaded as { uws: typeof Uws }).uws;
  let io: Server;
  let listen: Uws.us_listen_socket;
  let url: string;
  const clients: ClientSocket[] = [];

  beforeAll(async () => {
    const app = uWS.App();
    io = new Server({ serveClient: false });
    io.attachApp(app);
    walkOnlyPollingSockets(io);
    io.on('connection', (socket) => {
      socket.on('join', (room: string, ack: () => void) => {
        void socket.join(room);
        ack();
      });
    });
    listen = await new Promise((resolve, reject) =>
      app.listen('127.0.0.1', 0, (t) => (t ? resolve(t) : reject(new Error('listen')))),
    );
    url = `http://127.0.0.1:${uWS.us_socket_local_port(listen)}`;
  });
  afterAll(() => {
    for (const c of clients) c.disconnect();
    void io.close();
    uWS.us_listen_socket_close(listen);
  });

  async function client(
    transports: ('polling' | 'websocket')[],
    room: string | null,
    upgraded = false,
  ): Promise<{ c: ClientSocket; got: unknown[] }> {
    const c = connect(url, { transports, reconnection: false, forceNew: true });
    clients.push(c);
    const got: unknown[] = [];
    c.on('m', (n: unknown) => got.push(n));
    await new Promise<void>((resolve, reject) => {
      c.once('connect', resolve);
      c.once('connect_error', reject);
    });
    if (upgraded && c.io.engine.transport.name !== 'websocket')
      await new Promise((r) => c.io.engine.once('upgrade', r));
    if (room) await c.timeout(2000).emitWithAck('join', room);
    return { c, got };
  }
  const settle = () => new Promise((r) => setTimeout(r, 300));

  it('reaches websocket, long-polling and upgraded clients exactly once', async () => {
    const ws = await client(['websocket'], 'r');
    const poll = await client(['polling'], 'r');
    const upgraded = await client(['polling', 'websocket'], 'r', true);
    const elsewhere = await client(['polling'], 'other');
    expect(upgraded.c.io.engine.transport.name).toBe('websocket');
    io.to('r').emit('m', 1);
    io.emit('m', 2); // the whole namespace
    io.to('r').except(ws.c.id!).emit('m', 3); // `except`: socket.io's own walk
    await settle();
    expect(ws.got).toEqual([1, 2]);
    expect(poll.got).toEqual([1, 2, 3]);
    expect(upgraded.got).toEqual([1, 2, 3]);
    expect(elsewhere.got).toEqual([2]);
  });

  it("does not look up the room's websocket sockets, and a polling socket that left gets nothing more", async () => {
    const members = await Promise.all([1, 2, 3, 4].map(() => client(['websocket'], 'big')));
    const poll = await client(['polling'], 'big');
    const sockets = io.of('/').sockets;
    const get = sockets.get;
    let lookups = 0;
    sockets.get = function countedGet(this: typeof sockets, id: string) {
      lookups += 1;
      return get.call(this, id);
    };
    try {
      io.to('big').emit('m', 'x');
    } finally {
      sockets.get = get;
    }
    expect(lookups).toBe(0);
    await settle();
    expect(poll.got).toEqual(['x']);
    poll.c.disconnect();
    await settle();
    io.to('big').emit('m', 'y');
    await settle();
    for (const m of members) expect(m.got).toEqual(['x', 'y']);
    expect(poll.got).toEqual(['x']);
  });
});
