/**
 * B1, the floor we build on: a bare Socket.IO 4.8 server on the gateway's websocket engine (GATEWAY_ENGINE, as the
 * product reads it: auto, uws or node; services/gateway/src/engine/), no auth, no storage.
 * 'join' (room, ack?) joins the room; 'msg' {room, content} is emitted to the room with io.to(room).emit.
 * Prints `ENGINE <name>` and `LISTENING <port>` once ready. PORT env (default 0). 127.0.0.1 only.
 */
import { Server } from 'socket.io';
import { chooseEngine, type EngineChoice } from '@ephemera/gateway/src/engine/index.ts';

const { engine } = chooseEngine((process.env.GATEWAY_ENGINE || 'auto') as EngineChoice);
// never skip a slow receiver (uWS's default is 64 KB of backpressure): the bench counts every delivery
const io = new Server({ transports: ['websocket'], perMessageDeflate: false, serveClient: false });
if (engine.name === 'uws') {
  const attachApp = io.attachApp.bind(io);
  io.attachApp = (app: object, opts: object = {}) =>
    attachApp(app, { ...opts, maxBackpressure: 64 * 1024 * 1024 } as object);
}

io.on('connection', (socket) => {
  socket.on('join', (room: string, ack?: (ok: boolean) => void) => {
    void socket.join(String(room));
    ack?.(true);
  });
  socket.on('msg', (payload: { room: string; content: string }) => {
    io.to(String(payload.room)).emit('msg', payload);
  });
});

engine
  .start({
    host: '127.0.0.1',
    port: Number(process.env.PORT ?? 0),
    io,
    ready: async () => true,
    addressOf: (peer) => peer,
  })
  .then(
    ({ port }) => {
      console.log(`ENGINE ${engine.name}`);
      console.log(`LISTENING ${port}`);
    },
    (err: unknown) => {
      console.error('B1: listen failed', err);
      process.exit(1);
    },
  );
process.on('SIGTERM', () => process.exit(0));
const parent = process.ppid; // never outlive the bench that started us
setInterval(() => {
  if (process.ppid !== parent) process.exit(0);
}, 1000);
