/**
 * Embedded mode: the gateway's uWS proxy hands an upload's body to the express file route in the same process,
 * so hundreds of MB do not cross a loopback socket a second time (a write, a kernel copy and a read per byte). The
 * proxy puts the body here and sends only the request line and headers over loopback, naming the body in
 * BODY_HANDOFF_HEADER; the route takes it by that id. Ids are random (128 bits) and the proxy strips the header from
 * what a client sends, so only the proxy names a body, and a body is taken at most once.
 */
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';

export const BODY_HANDOFF_HEADER = 'x-ephemera-body-handoff';

/** An id is taken within milliseconds; this only bounds a body nobody claims (the route never ran, its answer lost). */
const UNCLAIMED_TTL_MS = 30_000;

export class BodyHandoff {
  private readonly waiting = new Map<string, { body: Readable; timer: NodeJS.Timeout }>();

  constructor(private readonly unclaimedTtlMs = UNCLAIMED_TTL_MS) {}

  /** Keeps `body` until taken; an id not taken within the TTL is dropped (its body destroyed). */
  put(body: Readable): string {
    const id = randomBytes(16).toString('base64url');
    const timer = setTimeout(() => this.drop(id), this.unclaimedTtlMs);
    timer.unref();
    this.waiting.set(id, { body, timer });
    // A body that ends its life before it is taken (the client went away) is forgotten at once.
    body.once('close', () => this.forget(id, body));
    return id;
  }

  /** The body named by `id` (a header's value), once; anything else: undefined. */
  take(id: unknown): Readable | undefined {
    if (typeof id !== 'string') return undefined;
    const entry = this.waiting.get(id);
    if (!entry) return undefined;
    this.forget(id, entry.body);
    return entry.body;
  }

  /** Destroys the body if it is still waiting (answered without it, or never claimed); a taken id is left alone. */
  drop(id: string): void {
    const entry = this.waiting.get(id);
    if (!entry) return;
    this.forget(id, entry.body);
    entry.body.destroy();
  }

  /** How many bodies wait to be taken (tests: nothing leaks). */
  get size(): number {
    return this.waiting.size;
  }

  private forget(id: string, body: Readable): void {
    const entry = this.waiting.get(id);
    if (!entry || entry.body !== body) return;
    clearTimeout(entry.timer);
    this.waiting.delete(id);
  }
}
