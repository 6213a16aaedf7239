/**
 * Maintenance mode (docs/product/admin.md ADM10), enforced in every process that takes writes. The
 * superadmin's switch is an event (admin.maintenance-changed on the admin topic, readable without the admin key:
 * event-log/sealed.ts); each process holds a MaintenanceState fed by its own subscription, and while it is on:
 *  - HTTP: maintenanceGuard refuses every write under /api/ with 503 MAINTENANCE and the superadmin's message;
 *  - socket: the gateway refuses the events SOCKET_EVENT_WRITES marks as writes, with the same answer.
 * Reads (GET, HEAD, OPTIONS, and the socket reads) keep working. What counts as a write is decided below, once:
 * OPEN_WRITES (HTTP writes that stay open) and SOCKET_EVENT_WRITES (every socket event, from the command table).
 */
import express from 'express';
import {
  ADMIN_PREFIX,
  AUTH_API,
  COMMANDS,
  DomainError,
  ERRORS,
  LINK_PREVIEW_PATH,
  PAYMENTS_API,
  TOPICS,
  type AnyEventEnvelope,
  type ClientEventName,
  type MaintenanceState as MaintenanceView,
} from '@ephemera/proto';
import type { EventLog, Subscription } from './event-log/port.ts';
import type { Logger } from './log.ts';

/** What a process knows: on or off, the message, and the admin event's sequence it came from (newer wins). */
export interface MaintenanceSnapshot {
  enabled: boolean;
  message: string | null;
  sequence: number;
}

export interface MaintenanceStateOptions {
  log: EventLog;
  /** names this process's consumer group (maintenance-{processId}) */
  processId: string;
  logger?: Logger;
  /**
   * The state as of now from a read model this process can query (embedded mode: the admin service's table in the
   * same database). Given: the group is stable and starts at the log's end, so a start reads no history. Absent: a
   * group of this boot's own reads the admin topic from the beginning (each replica must see every change).
   */
  initial?: () => Promise<MaintenanceSnapshot | null>;
}

export class MaintenanceState {
  private snapshot: MaintenanceSnapshot = { enabled: false, message: null, sequence: -1 };
  private subscription: Subscription | null = null;

  /** Subscribes, then (with `initial`) reads the current state; resolves once the state is current. */
  static async start(opts: MaintenanceStateOptions): Promise<MaintenanceState> {
    const state = new MaintenanceState();
    const groupId = opts.initial
      ? `maintenance-${opts.processId}`
      : `maintenance-${opts.processId}-${process.pid}-${Date.now()}`;
    state.subscription = await opts.log.subscribe({
      groupId,
      topics: [TOPICS.admin],
      fromBeginning: !opts.initial,
      handler: async ({ event }) => {
        state.apply(event);
      },
    });
    // Subscribed first, read second: a change between the two is seen by the subscription, and the sequence
    // decides which of the two is newer.
    if (opts.initial) {
      const initial = await opts.initial();
      if (initial) state.set(initial);
    } else {
      await state.subscription.caughtUp();
    }
    opts.logger?.info({ maintenance: state.current() }, 'maintenance state loaded');
    return state;
  }

  get enabled(): boolean {
    return this.snapshot.enabled;
  }

  /** what the banner and the refusals show */
  current(): MaintenanceView {
    return { enabled: this.snapshot.enabled, message: this.snapshot.message };
  }

  /** an admin.maintenance-changed event (anything else on the topic is ignored) */
  apply(event: AnyEventEnvelope): void {
    if (event.type !== 'admin.maintenance-changed') return;
    const p = event.payload as { enabled: boolean; message: string | null };
    this.set({ enabled: p.enabled, message: p.message, sequence: event.sequence });
  }

  /** keeps the newer of what it holds and `next` (by the admin event's sequence) */
  set(next: MaintenanceSnapshot): void {
    if (next.sequence < this.snapshot.sequence) return;
    this.snapshot = { ...next };
  }

  /** throws 503 MAINTENANCE with the superadmin's message while maintenance is on */
  refuseWrites(): void {
    if (this.snapshot.enabled) throw new DomainError('MAINTENANCE', this.snapshot.message || ERRORS.MAINTENANCE);
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = null;
  }
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/**
 * Writes that stay open during maintenance: the sign-in steps (the superadmin must be able to sign in and switch
 * maintenance off; sign-out ends a credential, no domain state), the payment provider's webhook (a payment made
 * before maintenance must still be recorded), and the link preview (a read sent as POST). /api/admin/ (the
 * superadmin's own calls and the page-view report) is open as a whole.
 */
const OPEN_WRITES = new Set<string>([
  AUTH_API.requestCode,
  AUTH_API.register,
  AUTH_API.login,
  AUTH_API.googleAuth,
  AUTH_API.logout,
  AUTH_API.logoutAll,
  PAYMENTS_API.webhook,
  LINK_PREVIEW_PATH,
]);

/** The path as routing sees it, made comparable: lower case (express routes ignore case), no repeated or trailing slash. */
function normalPath(originalUrl: string): string {
  const p = (originalUrl.split('?')[0] ?? '').toLowerCase().replace(/\/{2,}/g, '/');
  return p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p;
}

/** true when the request is a write maintenance refuses */
export function isMaintainedWrite(method: string, originalUrl: string): boolean {
  if (READ_METHODS.has(method.toUpperCase())) return false;
  const path = normalPath(originalUrl);
  if (!path.startsWith('/api/')) return false;
  if (path.startsWith(ADMIN_PREFIX)) return false;
  return !OPEN_WRITES.has(path);
}

/** Express middleware (a router, so it mounts where routers do): refuses writes while maintenance is on. */
export function maintenanceGuard(state: MaintenanceState): express.Router {
  const r = express.Router();
  r.use((req, _res, next) => {
    if (!state.enabled || !isMaintainedWrite(req.method, req.originalUrl)) return next();
    try {
      state.refuseWrites();
      next();
    } catch (err) {
      next(err);
    }
  });
  return r;
}

/**
 * Every socket event, from its row of the command table (proto/src/commands.ts `writes`): true = it changes durable
 * state (an event in the log or a stored row) and is refused during maintenance; false = a read or an ephemeral
 * signal (presence, typing, the call relay, which the log never stores) and keeps working.
 */
export const SOCKET_EVENT_WRITES = Object.fromEntries(
  Object.entries(COMMANDS).map(([name, row]) => [name, row.writes]),
) as { readonly [E in ClientEventName]: boolean };
