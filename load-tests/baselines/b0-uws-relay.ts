/**
 * B0, the limit: a raw uWebSockets.js relay. A client sends `join:<room>` (answered `joined`); every other text
 * message is published, unchanged, to every socket of the sender's room (the sender included), by uWS pub/sub.
 * Prints `LISTENING <port>` once ready. PORT env (default 0 = any free port). 127.0.0.1 only. Where uWS's binary does
 * not load (services/gateway/src/engine/uws.ts), B0 cannot run: it says so and exits 2.
 */
import { loadUws } from '@ephemera/gateway/src/engine/uws.ts';

const loaded = loadUws();
if (!('uws' in loaded)) {
  console.error(`B0 needs uWS, which does not load here: ${loaded.reason}`);
  process.exit(2);
}
const uWS = loaded.uws;

interface Data {
  room: string | null;
}
const MAX_BACKPRESSURE = 64 * 1024 * 1024; // never skip a slow receiver: the bench counts every delivery

const app = uWS.App().ws<Data>('/*', {
  compression: uWS.DISABLED,
  maxPayloadLength: 64 * 1024,
  maxBackpressure: MAX_BACKPRESSURE,
  idleTimeout: 120,
  upgrade: (res, req, ctx) => {
    res.upgrade<Data>(
      { room: null },
      req.getHeader('sec-websocket-key'),
      req.getHeader('sec-websocket-protocol'),
      req.getHeader('sec-websocket-extensions'),
      ctx,
    );
  },
  message: (ws, message, isBinary) => {
    const data = ws.getUserData();
    if (data.room === null) {
      const text = Buffer.from(message).toString();
      if (!text.startsWith('join:')) return;
      data.room = text.slice(5);
      ws.subscribe(data.room);
      ws.send('joined');
      return;
    }
    app.publish(data.room, message, isBinary);
  },
});

app.listen('127.0.0.1', Number(process.env.PORT ?? 0), (listen) => {
  if (!listen) {
    console.error('B0: listen failed');
    process.exit(1);
  }
  console.log(`LISTENING ${uWS.us_socket_local_port(listen)}`);
});
process.on('SIGTERM', () => process.exit(0));
const parent = process.ppid; // never outlive the bench that started us
setInterval(() => {
  if (process.ppid !== parent) process.exit(0);
}, 1000);
