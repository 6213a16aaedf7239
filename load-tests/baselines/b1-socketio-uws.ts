/**
 * B1, the floor we build on: a bare Socket.IO 4.8 server attached to uWebSockets.js (io.attachApp), no auth, no
 * storage. 'join' (room, ack?) joins the room; 'msg' {room, content} is emitted to the room with io.to(room).emit.
 * Prints `LISTENING <port>` once ready. PORT env (default 0). 127.0.0.1 only.
 */
import uWS from 'uWebSockets.js';
import { Server } from 'socket.io';

const app = uWS.App();
const io = new Server({ transports: ['websocket'], perMessageDeflate: false, serveClient: false });
// never skip a slow receiver (uWS default is 64 KB of backpressure): the bench counts every delivery
io.attachApp(app, { maxBackpressure: 64 * 1024 * 1024 } as object);

io.on('connection', (socket) => {
  socket.on('join', (room: string, ack?: (ok: boolean) => void) => {
    socket.join(String(room));
    ack?.(true);
  });
  socket.on('msg', (payload: { room: string; content: string }) => {
    io.to(String(payload.room)).emit('msg', payload);
  });
});

app.listen('127.0.0.1', Number(process.env.PORT ?? 0), (listen) => {
  if (!listen) { console.error('B1: listen failed'); process.exit(1); }
  console.log(`LISTENING ${uWS.us_socket_local_port(listen)}`);
});
process.on('SIGTERM', () => process.exit(0));
const parent = process.ppid; // never outlive the bench that started us
setInterval(() => { if (process.ppid !== parent) process.exit(0); }, 1000);
