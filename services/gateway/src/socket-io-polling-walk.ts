/**
 * Socket.IO 4.8's uWS integration (`io.attachApp`) sends a broadcast to one room in two steps: one native uWS
 * publish reaches every socket on the websocket transport, then a JS walk over every socket of the room
 * (socket.io-adapter's `apply`) picks out the few still on HTTP long-polling and writes to them one by one. The walk
 * visits all of them to find those few: with 500 sockets in a room it was the gateway's hottest JS function under
 * chat load (`apply`, 13 % of a profiled gateway's samples at 25 sends/s into a room of 1,000 sockets over two
 * replicas; docs/decisions/2026-11-27-socket-io-polling-walk.md).
 *
 * Here that walk covers only the sockets on long-polling: a set per namespace adapter, a socket added when it
 * connects on polling and removed when it upgrades to websocket or disconnects. The recipients are the same (the
 * integration's callback writes only to non-websocket sockets), the others are not touched. Every other use of
 * `apply` (fetchSockets, socketsJoin, broadcasts with `except` or several rooms) is socket.io's own.
 *
 * Like engine-io-ping-grid.ts this patches a library's internals: it checks the methods it wraps and fails loudly
 * when they are missing (review it on a socket.io upgrade). `attachApp` replaces the adapter's `broadcast` every time
 * it is called, so this runs after each call (several gateways in one process: the tests).
 */
import type { Server, Socket } from 'socket.io';

interface BroadcastOptions {
  rooms: Set<string>;
  except: Set<string>;
}
interface AdapterLike {
  nsp: unknown;
  rooms: Map<string, Set<string>>;
  broadcast(packet: unknown, opts: BroadcastOptions): void;
  apply(opts: BroadcastOptions, callback: (socket: Socket) => void): void;
}
type Wrapped<F> = F & { pollingWalk?: true };

/** the sockets of each adapter that are not on the websocket transport */
const polling = new WeakMap<object, Set<Socket>>();
/** true only between a one-room broadcast's start and its walk */
let walkPollingOnly = false;

const ownerOf = (object: object, name: string): Record<string, unknown> | null => {
  for (let o: object | null = object; o; o = Object.getPrototypeOf(o))
    if (Object.hasOwn(o, name)) return o as Record<string, unknown>;
  return null;
};

/** Walks of attachApp's one-room broadcasts visit only the long-polling sockets of `io`'s main namespace. */
export function walkOnlyPollingSockets(io: Server): void {
  const adapter = io.of('/').adapter as unknown as AdapterLike;
  const proto = ownerOf(adapter, 'broadcast');
  const applyOwner = ownerOf(adapter, 'apply');
  if (
    !proto ||
    proto !== applyOwner ||
    typeof proto.broadcast !== 'function' ||
    typeof proto.apply !== 'function' ||
    !(adapter.rooms instanceof Map)
  ) {
    throw new Error(
      'socket.io-adapter: Adapter.broadcast/apply/rooms not where socket.io 4.8 keeps them; review socket-io-polling-walk.ts',
    );
  }

  const sockets = new Set<Socket>();
  polling.set(adapter, sockets);
  io.on('connection', (socket) => {
    if (socket.conn.transport.name === 'websocket') return;
    sockets.add(socket);
    socket.conn.once('upgrade', () => sockets.delete(socket));
    socket.once('disconnect', () => sockets.delete(socket));
  });

  const broadcast = proto.broadcast as Wrapped<AdapterLike['broadcast']>;
  if (!broadcast.pollingWalk) {
    const wrapped: Wrapped<AdapterLike['broadcast']> = function broadcastWalkingPollingOnly(
      this: AdapterLike,
      packet,
      opts,
    ) {
      walkPollingOnly = opts.rooms.size <= 1 && opts.except.size === 0; // attachApp's fast publish (the same test)
      try {
        broadcast.call(this, packet, opts);
      } finally {
        walkPollingOnly = false;
      }
    };
    wrapped.pollingWalk = true;
    proto.broadcast = wrapped;
  }
  const apply = proto.apply as Wrapped<AdapterLike['apply']>;
  if (!apply.pollingWalk) {
    const wrapped: Wrapped<AdapterLike['apply']> = function applyToPollingOnly(this: AdapterLike, opts, callback) {
      const tracked = polling.get(this);
      if (!walkPollingOnly || !tracked) {
        apply.call(this, opts, callback);
        return;
      }
      walkPollingOnly = false; // the publish's one walk; anything it sets off walks as usual
      const room = opts.rooms.size ? opts.rooms.values().next().value! : null;
      const members = room === null ? null : this.rooms.get(room);
      if (room !== null && !members) return;
      for (const socket of tracked) if (!members || members.has(socket.id)) callback(socket);
    };
    wrapped.pollingWalk = true;
    proto.apply = wrapped;
  }
}
