/**
 * Big rooms (docs/architecture.md "Big rooms"). In a room of thousands, one frame per presence change to everyone is
 * quadratic: 10,000 members coming online are 100 million user-joined deliveries. A gateway that holds at least
 * `coalesceFromSockets` sockets of a room (what one change costs it: one write per socket) collects the room's
 * changes (joins, leaves, statuses, a member leaving for good) for `coalesceWindowMs` and sends them as one
 * presence-batch frame, in the order they came. A room below the threshold gets the single events, unchanged; a
 * room whose window is open keeps queueing until it is sent, so no single event overtakes a queued one.
 *
 * Typing in a big room's public channels: at most `typersShown` typers per channel are forwarded (user-typing,
 * user-stopped-typing); the others are counted, and the count goes in the window's frame when it changed or a
 * hidden typer refreshed (so it stays alive at the receivers as a shown typer's refresh does). When a shown typer
 * stops, the longest-waiting hidden one is shown in its place. Every replica gets every signal, so each keeps the
 * same typers. Private channels and DMs (a few members) are never capped.
 */
import { BIG_ROOM, LIMITS, S, type PresenceChange, type PresenceSignal } from '@ephemera/proto';
import type { GatewayServer as Server } from './socket-types.ts';
import { workspaceRoom } from './rooms.ts';

export interface BigRoomOptions {
  coalesceFromSockets: number;
  coalesceWindowMs: number;
  onlinePageSize: number;
  typersShown: number;
}

export function bigRoomOptions(given?: Partial<BigRoomOptions>): BigRoomOptions {
  return { ...BIG_ROOM, ...given };
}

type TypingSignal = Extract<PresenceSignal, { kind: 'typing' }>;
interface Typer {
  username: string;
  /** when the indicator lapses without a refresh (receivers drop it then too) */
  until: number;
}
/** One public channel's typers: shown ones are forwarded, hidden ones counted (both in arrival order). */
interface ChannelTypers {
  shown: Map<string, Typer>;
  hidden: Map<string, Typer>;
}
interface Window {
  changes: PresenceChange[];
  /** channels whose hidden typers changed or refreshed in this window */
  typing: Set<string>;
  timer: NodeJS.Timeout;
}

export class PresenceCoalescer {
  private readonly options: BigRoomOptions;
  private readonly windows = new Map<string, Window>();
  private readonly typers = new Map<string, ChannelTypers>();

  constructor(
    private readonly io: Server,
    options?: Partial<BigRoomOptions>,
    private readonly now: () => number = Date.now,
  ) {
    this.options = bigRoomOptions(options);
  }

  /** The room's sockets on this gateway. */
  private socketsOf(workspaceId: string): number {
    return this.io.of('/').adapter.rooms.get(workspaceRoom(workspaceId))?.size ?? 0;
  }

  /** Whether the room's changes go in windows now: a big room, or one whose window is open (order kept). */
  coalesces(workspaceId: string): boolean {
    return this.windows.has(workspaceId) || this.socketsOf(workspaceId) >= this.options.coalesceFromSockets;
  }

  /** Queue a presence change for the room's window when it coalesces; false: the caller sends the single event. */
  change(workspaceId: string, change: PresenceChange): boolean {
    if (!this.coalesces(workspaceId)) return false;
    this.window(workspaceId).changes.push(change);
    return true;
  }

  /**
   * A typing signal of a public channel (audience: the whole room): the typers are kept whatever the room's size, so
   * a room that grows has them; in a big room only the shown typers' signals are forwarded. True when handled here
   * (forwarded, held back or counted), false when the caller forwards it as before.
   */
  typing(signal: TypingSignal): boolean {
    const { workspaceId, channelId, userId, username } = signal;
    const key = `${workspaceId}\n${channelId}`;
    const now = this.now();
    let t = this.typers.get(key);
    if (!t) this.typers.set(key, (t = { shown: new Map(), hidden: new Map() }));
    const big = this.coalesces(workspaceId);
    const lapsed = this.lapse(t, now);
    const typer: Typer = { username, until: now + LIMITS.typingExpireMs };
    let hiddenChanged = lapsed.hidden;
    const promoted: [string, Typer][] = [...lapsed.promoted];
    if (signal.typing) {
      if (t.shown.has(userId) || (!t.hidden.has(userId) && t.shown.size < this.options.typersShown)) {
        t.shown.set(userId, typer);
        if (big) this.emitTyping(workspaceId, channelId, userId, username, true);
      } else {
        t.hidden.delete(userId); // re-inserted: a refresh keeps its place only by arrival, which is fair enough
        t.hidden.set(userId, typer);
        hiddenChanged = true;
      }
    } else if (t.shown.delete(userId)) {
      if (big) this.emitTyping(workspaceId, channelId, userId, username, false);
      const next = this.promote(t);
      if (next) {
        promoted.push(next);
        hiddenChanged = true;
      }
    } else if (t.hidden.delete(userId)) hiddenChanged = true;
    else if (big) this.emitTyping(workspaceId, channelId, userId, username, false); // unknown here: pass the stop on
    if (big) {
      for (const [id, p] of promoted) this.emitTyping(workspaceId, channelId, id, p.username, true);
      if (hiddenChanged) this.window(workspaceId).typing.add(channelId);
    }
    if (t.shown.size === 0 && t.hidden.size === 0) this.typers.delete(key);
    return big;
  }

  /** Send every open window now and stop (the gateway is stopping). */
  stop(): void {
    for (const workspaceId of [...this.windows.keys()]) this.flush(workspaceId);
  }

  /** Typers whose indicator lapsed go (their stop was lost); hidden ones are shown in the free places. */
  private lapse(t: ChannelTypers, now: number): { hidden: boolean; promoted: [string, Typer][] } {
    let hidden = false;
    for (const [id, typer] of t.hidden)
      if (typer.until < now) {
        t.hidden.delete(id);
        hidden = true;
      }
    const promoted: [string, Typer][] = [];
    for (const [id, typer] of t.shown) if (typer.until < now) t.shown.delete(id);
    while (t.shown.size < this.options.typersShown) {
      const next = this.promote(t);
      if (!next) break;
      promoted.push(next);
      hidden = true;
    }
    return { hidden, promoted };
  }

  private promote(t: ChannelTypers): [string, Typer] | null {
    const first = t.hidden.entries().next();
    if (first.done) return null;
    const [id, typer] = first.value;
    t.hidden.delete(id);
    t.shown.set(id, typer);
    return [id, typer];
  }

  private emitTyping(workspaceId: string, channelId: string, userId: string, username: string, typing: boolean) {
    const to = this.io.to(workspaceRoom(workspaceId));
    if (typing) to.emit(S.userTyping, { workspaceId, channelId, userId, username });
    else to.emit(S.userStoppedTyping, { workspaceId, channelId, userId });
  }

  private window(workspaceId: string): Window {
    let w = this.windows.get(workspaceId);
    if (!w) {
      const timer = setTimeout(() => this.flush(workspaceId), this.options.coalesceWindowMs);
      this.windows.set(workspaceId, (w = { changes: [], typing: new Set(), timer }));
    }
    return w;
  }

  private flush(workspaceId: string): void {
    const w = this.windows.get(workspaceId);
    if (!w) return;
    clearTimeout(w.timer);
    this.windows.delete(workspaceId);
    const typing = [...w.typing].map((channelId) => ({
      channelId,
      others: this.typers.get(`${workspaceId}\n${channelId}`)?.hidden.size ?? 0,
    }));
    if (w.changes.length === 0 && typing.length === 0) return;
    this.io
      .to(workspaceRoom(workspaceId))
      .emit(S.presenceBatch, { workspaceId, changes: w.changes, ...(typing.length > 0 ? { typing } : {}) });
  }
}
