/**
 * The realtime connection and its reconnect policy (docs/product/rooms.md R13):
 * polling then websocket, first delay 1 s capped at 5 s, jitter 0.5, 20 s connect timeout; after 5
 * consecutive connect errors wait 3 s, then disconnect and reconnect manually.
 */
import { io, type Socket } from 'socket.io-client';
import { CLIENT_CONNECTION } from '@ephemera/proto/client';
import type { ServerEvents, ClientEvents, ClientEventName, ClientPayload, ClientAcks } from '@ephemera/proto';

export type RoomSocket = Socket<ServerEvents, ClientEvents>;

export class RequestTimeoutError extends Error {
  constructor() {
    super('Request timed out');
  }
}
export class NotConnectedError extends Error {
  constructor() {
    super('Not connected');
  }
}

/** Counts consecutive connect errors; says when the manual retry is due. */
export class ConnectErrorCounter {
  private count = 0;
  constructor(private readonly threshold = CLIENT_CONNECTION.maxConsecutiveErrors) {}
  /** Record one error; true when the threshold is reached (the counter then starts over). */
  record(): boolean {
    this.count += 1;
    if (this.count >= this.threshold) {
      this.count = 0;
      return true;
    }
    return false;
  }
  reset(): void {
    this.count = 0;
  }
  get value(): number {
    return this.count;
  }
}

export interface RoomConnection {
  socket: RoomSocket;
  dispose(): void;
}

export function connectRoomSocket(): RoomConnection {
  const socket: RoomSocket = io({
    path: '/socket.io',
    transports: CLIENT_CONNECTION.transports,
    reconnectionDelay: CLIENT_CONNECTION.reconnectionDelay,
    reconnectionDelayMax: CLIENT_CONNECTION.reconnectionDelayMax,
    randomizationFactor: CLIENT_CONNECTION.randomizationFactor,
    timeout: CLIENT_CONNECTION.timeout,
    auth: {},
  });
  const errors = new ConnectErrorCounter();
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let disposed = false;

  socket.on('connect', () => errors.reset());
  socket.on('connect_error', () => {
    if (disposed || retryTimer || !errors.record()) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      if (disposed) return;
      socket.disconnect();
      socket.connect();
    }, CLIENT_CONNECTION.manualRetryAfterMs);
  });
  // packets buffered while offline would reach the server before join-workspace on the next connection;
  // everything that matters is resent explicitly after the rejoin instead
  socket.on('disconnect', () => {
    socket.sendBuffer.length = 0;
  });

  return {
    socket,
    dispose() {
      disposed = true;
      if (retryTimer) clearTimeout(retryTimer);
      socket.removeAllListeners();
      socket.disconnect();
    },
  };
}

/** Emit a client event and wait for its ack; rejects with RequestTimeoutError or NotConnectedError. */
export function request<E extends ClientEventName>(
  socket: RoomSocket,
  event: E,
  payload: ClientPayload<E>,
  timeoutMs: number,
): Promise<ClientAcks[E]> {
  return new Promise((resolve, reject) => {
    if (!socket.connected) {
      reject(new NotConnectedError());
      return;
    }
    const emitter = socket.timeout(timeoutMs) as unknown as {
      emit(ev: string, data: unknown, cb: (err: Error | null, ack: unknown) => void): void;
    };
    emitter.emit(event, payload, (err, ack) => {
      if (err) reject(new RequestTimeoutError());
      else resolve(normaliseAck(ack) as ClientAcks[E]);
    });
  });
}

function normaliseAck(ack: unknown): unknown {
  if (ack && typeof ack === 'object' && 'success' in ack) return ack;
  return { success: false, code: 'INTERNAL', message: '' };
}
