/**
 * Unit tests' stand-in for the client half of a Socket.IO socket (on, connected, timeout().emit, connect,
 * disconnect), answered by a handler; NO_ACK makes a request time out. The server side is up()/drop()/fire().
 */
export const NO_ACK = Symbol('no ack');
export type Handler = (event: string, payload: any) => unknown;
type Listener = (...args: any[]) => void;

/** Enough of a Socket.IO client socket for the session: on, connected, timeout().emit, connect, disconnect. */
export class FakeSocket {
  connected = false;
  sendBuffer: unknown[] = [];
  emitted: { event: string; payload: any }[] = [];
  private listeners = new Map<string, Set<Listener>>();
  constructor(public handler: Handler) {}
  on(event: string, fn: Listener) {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event)!.add(fn);
    return this;
  }
  removeAllListeners() {
    this.listeners.clear();
    return this;
  }
  fire(event: string, ...args: unknown[]) {
    for (const l of [...(this.listeners.get(event) ?? [])]) l(...args);
  }
  connect() {
    return this;
  }
  disconnect() {
    if (this.connected) {
      this.connected = false;
      this.fire('disconnect', 'io client disconnect');
    }
    return this;
  }
  timeout(ms: number) {
    return {
      emit: (event: string, payload: any, cb: (err: Error | null, ack?: unknown) => void) => {
        this.emitted.push({ event, payload });
        const answer = this.handler(event, payload);
        if (answer === NO_ACK) setTimeout(() => cb(new Error('operation has timed out')), ms);
        else void Promise.resolve(answer).then((a) => cb(null, a));
      },
    };
  }
  // server side
  up() {
    this.connected = true;
    this.fire('connect');
  }
  drop() {
    this.connected = false;
    this.fire('disconnect', 'transport close');
  }
  count(event: string) {
    return this.emitted.filter((e) => e.event === event).length;
  }
  last(event: string) {
    return [...this.emitted].reverse().find((e) => e.event === event)?.payload;
  }
  all(event: string) {
    return this.emitted.filter((e) => e.event === event).map((e) => e.payload);
  }
}
