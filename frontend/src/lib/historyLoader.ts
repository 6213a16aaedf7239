/**
 * Reading a room's history (docs/protocol.md P3, P4, P11): resync by per-room seq after a reconnect or a gap,
 * channel summaries, a channel's latest page, older pages, and revealing one message (a search hit) by paging back.
 * RoomSession calls these; they only read over the socket and merge into the store.
 */
import { C, LIMITS } from '@ephemera/proto/client';
import { request, type RoomSocket } from './socket.ts';
import type { RoomAction, RoomState } from '../state/roomState.ts';

const REQUEST_TIMEOUT_MS = 15_000;
const MAX_SYNC_ROUNDS = 20;
/** revealMessage pages back at most this many times (50 messages a page) */
const MAX_REVEAL_PAGES = 40;

export interface HistoryLink {
  readonly workspaceId: string;
  state(): RoomState;
  dispatch(action: RoomAction): void;
  subscribe(listener: () => void): () => void;
  socket(): RoomSocket | null;
  joined(): boolean;
  stopped(): boolean;
  selectChannel(channelId: string): void;
}

export class HistoryLoader {
  private syncRunning = false;
  private syncFromSeq: number | null = null;

  constructor(private readonly link: HistoryLink) {}

  /** The socket when joined, else null. */
  private ready(): RoomSocket | null {
    const socket = this.link.socket();
    return socket && this.link.joined() ? socket : null;
  }

  /** Fetch every message of the room after afterSeq (page by page) and merge it. Calls coalesce. */
  async syncFrom(afterSeq: number): Promise<void> {
    this.syncFromSeq = this.syncFromSeq === null ? afterSeq : Math.min(this.syncFromSeq, afterSeq);
    if (this.syncRunning) return;
    this.syncRunning = true;
    try {
      while (this.syncFromSeq !== null && this.ready()) {
        let from = this.syncFromSeq;
        this.syncFromSeq = null;
        for (let round = 0; round < MAX_SYNC_ROUNDS; round++) {
          const socket = this.ready();
          if (!socket) return;
          const ack = await request(
            socket,
            C.syncMessages,
            { workspaceId: this.link.workspaceId, afterSeq: from },
            REQUEST_TIMEOUT_MS,
          );
          if (!ack.success) break;
          const messages = Array.isArray(ack.messages) ? ack.messages : [];
          this.link.dispatch({ type: 'messagesMerged', messages, source: 'sync' });
          if (!ack.hasMore || messages.length === 0) {
            if (!ack.hasMore && typeof ack.lastSeq === 'number')
              this.link.dispatch({ type: 'seqSeen', seq: ack.lastSeq });
            break;
          }
          from = messages.reduce((max, m) => Math.max(max, m.seq), from);
        }
      }
    } catch {
      // timed out or disconnected: the next reconnect or gap starts another sync
    } finally {
      this.syncRunning = false;
    }
  }

  /** fetch-channel-summaries: per conversation the last message, unread count and read positions. */
  async loadSummaries(): Promise<void> {
    const socket = this.ready();
    if (!socket) return;
    try {
      const ack = await request(
        socket,
        C.fetchChannelSummaries,
        { workspaceId: this.link.workspaceId },
        REQUEST_TIMEOUT_MS,
      );
      if (ack.success && Array.isArray(ack.summaries))
        this.link.dispatch({ type: 'summariesLoaded', summaries: ack.summaries });
    } catch {
      /* the next join loads them again */
    }
  }

  async loadLatest(channelId: string): Promise<void> {
    const socket = this.ready();
    if (!socket) return;
    try {
      const ack = await request(socket, C.joinChannel, { channelId }, REQUEST_TIMEOUT_MS);
      if (ack.success) {
        this.link.dispatch({
          type: 'messagesMerged',
          messages: ack.messages ?? [],
          source: 'history',
          page: { channelId, hasMore: Boolean(ack.hasMore) },
        });
      } else if (ack.message) {
        this.link.dispatch({ type: 'notice', message: ack.message });
      }
    } catch {
      /* retried on reconnect */
    }
  }

  /** The page before the oldest loaded message. */
  async loadOlder(channelId: string): Promise<void> {
    const state = this.link.state();
    const socket = this.ready();
    if (!socket || state.loadingOlder[channelId] || state.hasMore[channelId] === false) return;
    if (!state.latestLoaded[channelId]) return; // the latest page comes first
    const oldest = state.messages[channelId]?.[0]?.seq;
    if (!oldest) return;
    this.link.dispatch({ type: 'olderLoading', channelId, loading: true });
    try {
      const ack = await request(
        socket,
        C.fetchMessages,
        { channelId, beforeSeq: oldest, limit: LIMITS.historyPageSize },
        REQUEST_TIMEOUT_MS,
      );
      if (ack.success) {
        this.link.dispatch({
          type: 'messagesMerged',
          messages: ack.messages ?? [],
          source: 'older',
          page: { channelId, hasMore: Boolean(ack.hasMore) },
        });
      }
    } catch {
      /* the user can scroll up again */
    } finally {
      this.link.dispatch({ type: 'olderLoading', channelId, loading: false });
    }
  }

  /**
   * Open a conversation at one message (a hit of the sidebar search): select it, then load older pages
   * (fetch-messages, as scrolling up does) until the message is held or the channel has no more. True when held.
   */
  async revealMessage(channelId: string, messageId: string): Promise<boolean> {
    if (this.link.state().currentChannelId !== channelId) this.link.selectChannel(channelId);
    const held = (s: RoomState) => (s.messages[channelId] ?? []).some((m) => m.id === messageId);
    for (let page = 0; page <= MAX_REVEAL_PAGES; page++) {
      if (held(this.link.state())) return true;
      // the latest page comes first, and no older page may be in flight (the list loads them too)
      const settled = await this.until(
        (s) => held(s) || (Boolean(s.latestLoaded[channelId]) && !s.loadingOlder[channelId]),
        REQUEST_TIMEOUT_MS,
      );
      const s = this.link.state();
      if (held(s)) return true;
      if (!settled || this.link.stopped() || s.currentChannelId !== channelId || s.hasMore[channelId] === false)
        return false;
      const before = s.messages[channelId];
      await this.loadOlder(channelId);
      // nothing came (offline, or the request failed) and nothing else is loading: give up
      const after = this.link.state();
      if (after.messages[channelId] === before && !after.loadingOlder[channelId] && after.hasMore[channelId] !== false)
        return false;
    }
    return held(this.link.state());
  }

  /** Resolves true as soon as the store's state satisfies `ok`, false after timeoutMs. */
  private until(ok: (s: RoomState) => boolean, timeoutMs: number): Promise<boolean> {
    if (ok(this.link.state())) return Promise.resolve(true);
    return new Promise((resolve) => {
      const finish = (result: boolean) => {
        clearTimeout(timer);
        unsubscribe();
        resolve(result);
      };
      const unsubscribe = this.link.subscribe(() => {
        if (ok(this.link.state())) finish(true);
      });
      const timer = setTimeout(() => finish(false), timeoutMs);
    });
  }
}
