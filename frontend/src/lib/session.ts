/**
 * A room session: owns the realtime connection for one stored auth record, joins (and rejoins) the workspace,
 * keeps the room store up to date, resyncs missed messages by per-room seq and resends pending messages.
 * React components read the store and call the methods; nothing here touches the DOM.
 */
import { C, S, LIMITS, CLIENT_CONNECTION } from '@ephemera/proto/client';
import type { Message, PresenceStatus } from '@ephemera/proto';
import { connectRoomSocket, request, RequestTimeoutError, type RoomConnection, type RoomSocket } from './socket.ts';
import { clearRoomData, getLastChannel, setLastChannel, type AuthRecord } from './storage.ts';
import { newClientMessageId } from './ids.ts';
import { ChatCommands } from './chatCommands.ts';
import { createStore, type Store } from '../state/store.ts';
import { initialRoomState, roomReducer, type RoomAction, type RoomState } from '../state/roomState.ts';
import { tailSeq } from '../state/conversationsSlice.ts';
import { bindConversationEvents } from './sessionEvents.ts';
import { ConversationCommands, type Result } from './conversationCommands.ts';

export const MSG_JOIN_TIMEOUT = 'Connection timed out. Please check if the server is running and try again.';
export const MSG_CONNECT_FAILED = 'Failed to connect to server. Please check your connection and try again.';
export const MSG_JOIN_FAILED = 'Failed to join workspace';
export const MSG_CREATE_CHANNEL_FAILED = 'Failed to create channel';
export const MSG_SEND_FAILED = 'Message could not be sent';

const REQUEST_TIMEOUT_MS = 15_000;
const SEND_TIMEOUT_MS = 15_000;
const MAX_SEND_ATTEMPTS = 3;
const JOIN_RETRY_MS = 3_000;
const MAX_SYNC_ROUNDS = 20;
/** how often stale typing indicators are dropped (a typer whose connection vanished sends no stop) */
const TYPING_SWEEP_MS = 1_000;
const MOBILE_QUERY = '(max-width: 767px)';
/** revealMessage pages back at most this many times (50 messages a page) */
const MAX_REVEAL_PAGES = 40;

export interface SessionCallbacks {
  /** join-workspace refused for the stored record: storage is already cleared */
  onJoinRefused(message: string): void;
  onWorkspaceDeleted(message: string): void;
  onKicked(reason: string): void;
}

type Timer = ReturnType<typeof setTimeout>;

export class RoomSession {
  readonly store: Store<RoomState, RoomAction> = createStore(roomReducer, initialRoomState());
  private conn: RoomConnection | null = null;
  private watchdog: Timer | null = null;
  private joinRetry: Timer | null = null;
  private joinAttempt = 0;
  /** join-workspace succeeded on the current connection */
  private joined = false;
  private syncRunning = false;
  private syncFromSeq: number | null = null;
  private sendAttempts = new Map<string, number>();
  private stopped = false;
  /** the chat's commands and live events (edit, delete, react, typing, link previews): chatCommands.ts */
  readonly chat = new ChatCommands({
    socket: () => (this.joined && this.socket?.connected ? this.socket : null),
    state: () => this.state,
    dispatch: (action) => this.dispatch(action),
    workspaceId: () => this.auth.workspaceId,
    userToken: () => this.auth.userToken,
  });

  private typingSweep: ReturnType<typeof setInterval> | null = null;
  /** the presence the user should have (the presence tracker sets it); re-sent after a reconnect */
  private desiredPresence: PresenceStatus = 'online';
  /** DMs, channel management, read positions, search, presence and profile (conversationCommands.ts) */
  private readonly commands: ConversationCommands;

  constructor(
    readonly auth: AuthRecord,
    private readonly callbacks: SessionCallbacks,
    private readonly connect: () => RoomConnection = connectRoomSocket,
  ) {
    this.commands = new ConversationCommands({
      workspaceId: auth.workspaceId,
      state: () => this.state,
      dispatch: (a) => this.dispatch(a),
      socket: () => (this.joined ? this.socket : null),
      selectChannel: (id) => this.selectChannel(id),
      removeChannel: (id) => this.removeChannel(id),
      notice: (message) => this.dispatch({ type: 'notice', message }),
    });
    // Viewing a channel reads it: whenever the open channel holds a message above our read position, mark it read.
    this.store.subscribe(() => this.readOpenChannel());
  }

  get state(): RoomState {
    return this.store.getState();
  }

  private get socket(): RoomSocket | null {
    return this.conn?.socket ?? null;
  }

  private dispatch(action: RoomAction): void {
    this.store.dispatch(action);
  }

  // ---- lifecycle ----

  start(): void {
    if (this.conn) return;
    this.stopped = false;
    this.conn = this.connect();
    const socket = this.conn.socket;
    socket.on('connect', () => void this.onConnect());
    socket.on('disconnect', () => this.onDisconnect());
    socket.on(S.workspaceJoined, (p) => {
      if (p?.workspace && p?.user) this.dispatch({ type: 'joined', workspace: p.workspace, user: p.user, now: Date.now() });
    });
    socket.on(S.messagesHistory, (p) => {
      if (!p || !Array.isArray(p.messages)) return;
      this.dispatch({ type: 'messagesMerged', messages: p.messages, source: 'history', page: { channelId: p.channelId, hasMore: Boolean(p.hasMore) } });
    });
    socket.on(S.message, (m) => this.onLiveMessage(m));
    socket.on(S.channelCreated, (channel) => {
      if (channel?.id) this.dispatch({ type: 'channelAdded', channel });
    });
    socket.on(S.onlineUsers, (p) => {
      if (p && Array.isArray(p.users) && (!p.workspaceId || p.workspaceId === this.auth.workspaceId)) {
        this.dispatch({ type: 'onlineUsers', users: p.users });
      }
    });
    socket.on(S.userJoined, (p) => {
      if (p?.user?.id) this.dispatch({ type: 'userJoined', user: p.user });
    });
    socket.on(S.userLeft, (p) => {
      if (p?.userId) this.dispatch({ type: 'userLeft', userId: p.userId });
    });
    socket.on(S.workspaceDeleted, (p) => {
      this.fail(() => this.callbacks.onWorkspaceDeleted(p?.message || 'This chat room has been deleted.'));
    });
    this.chat.attach(socket);
    socket.on(S.kicked, (p) => {
      this.fail(() => this.callbacks.onKicked(p?.reason || 'You have been removed from this chat room.'));
    });
    bindConversationEvents(socket, {
      workspaceId: this.auth.workspaceId,
      dispatch: (a) => this.dispatch(a),
      removeChannel: (id) => this.removeChannel(id),
    });
    // DM rows show typing... for any conversation, not only the open one: drop stale indicators everywhere
    this.typingSweep = setInterval(() => {
      if (Object.keys(this.state.typing).length) this.dispatch({ type: 'typingExpired', now: Date.now() });
    }, TYPING_SWEEP_MS);
    this.armWatchdog();
  }

  stop(): void {
    this.stopped = true;
    this.joined = false;
    this.clearTimers();
    this.conn?.dispose();
    this.conn = null;
  }

  /** Retry now (the connecting screen's button). */
  retry(): void {
    const socket = this.socket;
    if (!socket) return;
    this.dispatch({ type: 'connectionError', error: null });
    if (socket.connected) void this.onConnect();
    else {
      socket.disconnect();
      socket.connect();
      this.armWatchdog();
    }
  }

  /** Logout / leave: tell the server, clear stored room data, close the connection. */
  async leave(): Promise<void> {
    const socket = this.socket;
    if (socket?.connected && this.joined) {
      try {
        await request(socket, C.leaveWorkspace, { workspaceId: this.auth.workspaceId }, 3_000);
      } catch { /* leaving anyway */ }
    }
    clearRoomData(this.auth.workspaceId);
    this.stop();
  }

  private fail(report: () => void): void {
    clearRoomData(this.auth.workspaceId);
    this.stop();
    report();
  }

  private clearTimers(): void {
    if (this.watchdog) clearTimeout(this.watchdog);
    if (this.joinRetry) clearTimeout(this.joinRetry);
    if (this.typingSweep) clearInterval(this.typingSweep);
    this.commands.dispose();
    this.watchdog = null;
    this.joinRetry = null;
    this.typingSweep = null;
  }

  /** Not connected within 10 s: say so (the connection keeps trying). */
  private armWatchdog(): void {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = setTimeout(() => {
      this.watchdog = null;
      if (!this.stopped && !this.socket?.connected) this.dispatch({ type: 'connectionError', error: MSG_CONNECT_FAILED });
    }, CLIENT_CONNECTION.waitForConnectionMs);
  }

  private scheduleJoinRetry(): void {
    if (this.joinRetry) clearTimeout(this.joinRetry);
    this.joinRetry = setTimeout(() => {
      this.joinRetry = null;
      if (!this.stopped && this.socket?.connected && !this.joined) void this.onConnect();
    }, JOIN_RETRY_MS);
  }

  // ---- connection events ----

  private async onConnect(): Promise<void> {
    const socket = this.socket;
    if (!socket || this.stopped) return;
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = null;
    this.joined = false;
    this.commands.reset();
    const attempt = ++this.joinAttempt;
    const isRejoin = this.state.everJoined;
    this.dispatch({ type: 'connection', status: isRejoin ? 'reconnecting' : 'joining', error: this.state.connection.error });

    let ack;
    try {
      ack = await request(socket, C.joinWorkspace, {
        workspaceId: this.auth.workspaceId,
        username: this.auth.username,
        password: this.auth.password,
        userToken: this.auth.userToken,
      }, CLIENT_CONNECTION.joinTimeoutMs);
    } catch (err) {
      if (attempt !== this.joinAttempt || this.stopped) return;
      if (err instanceof RequestTimeoutError) this.dispatch({ type: 'connectionError', error: MSG_JOIN_TIMEOUT });
      this.scheduleJoinRetry();
      return;
    }
    if (attempt !== this.joinAttempt || this.stopped) return;
    if (!ack.success) {
      if (ack.code === 'INTERNAL' || ack.code === 'RATE_LIMITED') {
        this.dispatch({ type: 'connectionError', error: ack.message || MSG_JOIN_FAILED });
        this.scheduleJoinRetry();
        return;
      }
      const message = ack.message || MSG_JOIN_FAILED;
      this.fail(() => this.callbacks.onJoinRefused(message));
      return;
    }

    this.joined = true;
    this.dispatch({ type: 'joined', workspace: ack.workspace, user: ack.user, now: Date.now() });
    if (!isRejoin) {
      this.openInitialChannel();
    } else {
      // summaries after the resync: the server's counts then replace what the resynced messages added
      void this.syncFrom(this.state.lastSeq).finally(() => void this.loadSummaries());
      const current = this.state.currentChannelId;
      if (current) void this.loadLatest(current);
    }
    // unread counts, last-message previews and read positions of every conversation, from the server
    if (!isRejoin) void this.loadSummaries();
    if (this.desiredPresence !== 'online') this.commands.setPresence(this.desiredPresence);
    this.resendPending();
  }

  private onDisconnect(): void {
    this.joined = false;
    this.joinAttempt++;
    if (this.stopped) return;
    this.dispatch({ type: 'connection', status: this.state.everJoined ? 'reconnecting' : 'connecting' });
    this.armWatchdog();
  }

  private onLiveMessage(m: Message): void {
    if (!m || typeof m.id !== 'string') return;
    const before = this.state.lastSeq;
    this.dispatch({ type: 'messagesMerged', messages: [m], source: 'live' });
    // per-room seq is gap-free: a jump means we missed something
    if (before > 0 && m.seq > before + 1) void this.syncFrom(before);
  }

  /** Fetch every message of the room after afterSeq (page by page) and merge it. Calls coalesce. */
  private async syncFrom(afterSeq: number): Promise<void> {
    this.syncFromSeq = this.syncFromSeq === null ? afterSeq : Math.min(this.syncFromSeq, afterSeq);
    if (this.syncRunning) return;
    this.syncRunning = true;
    try {
      while (this.syncFromSeq !== null && this.joined && this.socket) {
        let from = this.syncFromSeq;
        this.syncFromSeq = null;
        for (let round = 0; round < MAX_SYNC_ROUNDS; round++) {
          const socket = this.socket;
          if (!socket || !this.joined) return;
          const ack = await request(socket, C.syncMessages, { workspaceId: this.auth.workspaceId, afterSeq: from }, REQUEST_TIMEOUT_MS);
          if (!ack.success) break;
          const messages = Array.isArray(ack.messages) ? ack.messages : [];
          this.dispatch({ type: 'messagesMerged', messages, source: 'sync' });
          if (!ack.hasMore || messages.length === 0) {
            if (!ack.hasMore && typeof ack.lastSeq === 'number') this.dispatch({ type: 'seqSeen', seq: ack.lastSeq });
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

  // ---- channels ----

  private openInitialChannel(): void {
    const state = this.state;
    if (state.currentChannelId) return;
    const topics = state.channels
      .filter((c) => c.type === 'topic')
      .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
    // the last channel of this room (a topic channel or a DM), else the first topic channel
    const remembered = state.channels.find((c) => c.id === getLastChannel(this.auth.workspaceId));
    const isMobile = typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(MOBILE_QUERY).matches;
    const target = remembered ?? (isMobile ? undefined : topics[0]);
    if (target) this.selectChannel(target.id);
  }

  /** fetch-channel-summaries: per conversation the last message, unread count and read positions. */
  private async loadSummaries(): Promise<void> {
    const socket = this.socket;
    if (!socket || !this.joined) return;
    try {
      const ack = await request(socket, C.fetchChannelSummaries, { workspaceId: this.auth.workspaceId }, REQUEST_TIMEOUT_MS);
      if (ack.success && Array.isArray(ack.summaries)) this.dispatch({ type: 'summariesLoaded', summaries: ack.summaries });
    } catch { /* the next join loads them again */ }
  }

  private readOpenChannel(): void {
    const state = this.state;
    const channelId = state.currentChannelId;
    if (!channelId || !this.joined) return;
    if (tailSeq(state, channelId) > (state.readSeq[channelId] ?? 0)) this.commands.markRead(channelId);
  }

  /** A channel left our view: the store applies the selection rule; a newly selected channel is remembered and loaded. */
  private removeChannel(channelId: string): void {
    const before = this.state.currentChannelId;
    this.dispatch({ type: 'channelRemoved', channelId });
    const after = this.state.currentChannelId;
    if (after === before) return;
    setLastChannel(this.auth.workspaceId, after);
    if (after) void this.loadLatest(after);
  }

  /** Open a channel (null: back to the list on mobile). */
  selectChannel(channelId: string | null): void {
    this.dispatch({ type: 'channelSelected', channelId });
    if (!channelId) return;
    setLastChannel(this.auth.workspaceId, channelId);
    void this.loadLatest(channelId);
  }

  private async loadLatest(channelId: string): Promise<void> {
    const socket = this.socket;
    if (!socket || !this.joined) return;
    try {
      const ack = await request(socket, C.joinChannel, { channelId }, REQUEST_TIMEOUT_MS);
      if (ack.success) {
        this.dispatch({ type: 'messagesMerged', messages: ack.messages ?? [], source: 'history', page: { channelId, hasMore: Boolean(ack.hasMore) } });
      } else if (ack.message) {
        this.dispatch({ type: 'notice', message: ack.message });
      }
    } catch { /* retried on reconnect */ }
  }

  /** The page before the oldest loaded message. */
  async loadOlder(channelId: string): Promise<void> {
    const state = this.state;
    const socket = this.socket;
    if (!socket || !this.joined || state.loadingOlder[channelId] || state.hasMore[channelId] === false) return;
    if (!state.latestLoaded[channelId]) return; // the latest page comes first
    const oldest = state.messages[channelId]?.[0]?.seq;
    if (!oldest) return;
    this.dispatch({ type: 'olderLoading', channelId, loading: true });
    try {
      const ack = await request(socket, C.fetchMessages, { channelId, beforeSeq: oldest, limit: LIMITS.historyPageSize }, REQUEST_TIMEOUT_MS);
      if (ack.success) {
        this.dispatch({ type: 'messagesMerged', messages: ack.messages ?? [], source: 'older', page: { channelId, hasMore: Boolean(ack.hasMore) } });
      }
    } catch { /* the user can scroll up again */ } finally {
      this.dispatch({ type: 'olderLoading', channelId, loading: false });
    }
  }

  /**
   * Open a conversation at one message (a hit of the sidebar search): select it, then load older pages
   * (fetch-messages, as scrolling up does) until the message is held or the channel has no more. True when held.
   */
  async revealMessage(channelId: string, messageId: string): Promise<boolean> {
    if (this.state.currentChannelId !== channelId) this.selectChannel(channelId);
    const held = (s: RoomState) => (s.messages[channelId] ?? []).some((m) => m.id === messageId);
    for (let page = 0; page <= MAX_REVEAL_PAGES; page++) {
      if (held(this.state)) return true;
      // the latest page comes first, and no older page may be in flight (the list loads them too)
      const settled = await this.until((s) => held(s) || (Boolean(s.latestLoaded[channelId]) && !s.loadingOlder[channelId]), REQUEST_TIMEOUT_MS);
      const s = this.state;
      if (held(s)) return true;
      if (!settled || this.stopped || s.currentChannelId !== channelId || s.hasMore[channelId] === false) return false;
      const before = s.messages[channelId];
      await this.loadOlder(channelId);
      // nothing came (offline, or the request failed) and nothing else is loading: give up
      if (this.state.messages[channelId] === before && !this.state.loadingOlder[channelId] && this.state.hasMore[channelId] !== false) return false;
    }
    return held(this.state);
  }

  /** Resolves true as soon as the store's state satisfies `ok`, false after timeoutMs. */
  private until(ok: (s: RoomState) => boolean, timeoutMs: number): Promise<boolean> {
    if (ok(this.state)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const finish = (result: boolean) => { clearTimeout(timer); unsubscribe(); resolve(result); };
      const unsubscribe = this.store.subscribe(() => { if (ok(this.state)) finish(true); });
      const timer = setTimeout(() => finish(false), timeoutMs);
    });
  }

  /** A topic channel; a private one is visible to its members only (the creator and memberIds). */
  async createChannel(name: string, isPrivate: boolean, memberIds: string[] = []): Promise<{ ok: true } | { ok: false; message: string }> {
    const socket = this.socket;
    if (!socket || !this.joined) return { ok: false, message: MSG_CREATE_CHANNEL_FAILED };
    try {
      const ack = await request(socket, C.createChannel, {
        workspaceId: this.auth.workspaceId, name, type: 'topic', isPrivate, memberIds: isPrivate ? memberIds : [],
      }, REQUEST_TIMEOUT_MS);
      if (!ack.success) return { ok: false, message: ack.message || MSG_CREATE_CHANNEL_FAILED };
      this.dispatch({ type: 'channelAdded', channel: ack.channel });
      this.selectChannel(ack.channel.id);
      return { ok: true };
    } catch {
      return { ok: false, message: MSG_CREATE_CHANNEL_FAILED };
    }
  }

  // ---- conversations (conversationCommands.ts; errors also show as the notice where the spec says so) ----

  /** Open the DM with a user (create-dm-channel), or the one we already have. */
  startDm(targetUserId: string): Promise<Result> { return this.commands.startDm(targetUserId); }
  /** Delete Conversation: removed from our view at once, even if the server fails. */
  deleteDm(channelId: string): Promise<Result> { return this.commands.deleteDm(channelId); }
  renameChannel(channelId: string, newName: string): Promise<Result> { return this.commands.renameChannel(channelId, newName); }
  deleteChannel(channelId: string): Promise<Result> { return this.commands.deleteChannel(channelId); }
  updateChannelMembers(channelId: string, add: string[], remove: string[]): Promise<Result> {
    return this.commands.updateChannelMembers(channelId, add, remove);
  }
  /** Mark as Read: everything held in the channel is read (sent to the server, throttled). */
  markRead(channelId: string): void { this.commands.markRead(channelId); }
  searchMessages(query: string): Promise<Result<{ messages: Message[] }>> { return this.commands.searchMessages(query); }
  setPresence(status: PresenceStatus): void {
    this.desiredPresence = status;
    this.commands.setPresence(status);
  }
  updateProfile(username: string): Promise<Result> { return this.commands.updateProfile(username); }

  // ---- messages ----

  /** Queue a text message in the current channel (optionally a reply, with a link preview); false when nothing was sent. */
  sendMessage(content: string, extra: { replyTo?: { messageId: string } | null; linkPreview?: { url: string } | null } = {}): boolean {
    const { user, currentChannelId } = this.state;
    const text = content.trim();
    if (!user || !currentChannelId || !text || text.length > LIMITS.messageMax) return false;
    const clientMessageId = newClientMessageId();
    this.dispatch({
      type: 'pendingAdded',
      pending: {
        clientMessageId, channelId: currentChannelId, content: text, createdAt: new Date().toISOString(), status: 'sending', error: null,
        replyTo: extra.replyTo ?? null, linkPreview: extra.linkPreview ?? null,
      },
    });
    this.transmit(clientMessageId);
    return true;
  }

  retryMessage(clientMessageId: string): void {
    this.sendAttempts.delete(clientMessageId);
    this.dispatch({ type: 'pendingStatus', clientMessageId, status: 'sending' });
    this.transmit(clientMessageId);
  }

  discardMessage(clientMessageId: string): void {
    this.sendAttempts.delete(clientMessageId);
    this.dispatch({ type: 'pendingRemoved', clientMessageId });
  }

  private resendPending(): void {
    for (const p of this.state.pending) {
      if (p.status !== 'sending') continue;
      this.sendAttempts.delete(p.clientMessageId);
      this.transmit(p.clientMessageId);
    }
  }

  /** Send one pending message; the same clientMessageId every time, so the server stores it once. */
  private transmit(clientMessageId: string): void {
    const pending = this.state.pending.find((p) => p.clientMessageId === clientMessageId);
    const socket = this.socket;
    if (!pending || pending.status !== 'sending') return;
    if (!socket || !socket.connected || !this.joined) return; // resent after the next rejoin
    const attempt = (this.sendAttempts.get(clientMessageId) ?? 0) + 1;
    this.sendAttempts.set(clientMessageId, attempt);
    const { replyTo, linkPreview } = pending;
    request(socket, C.sendMessage, {
      clientMessageId, channelId: pending.channelId, content: pending.content, type: 'text',
      ...(replyTo ? { replyTo } : {}), ...(linkPreview ? { linkPreview } : {}),
    }, SEND_TIMEOUT_MS)
      .then((ack) => {
        if (ack.success) {
          this.sendAttempts.delete(clientMessageId);
          if (ack.message) this.dispatch({ type: 'messagesMerged', messages: [ack.message], source: 'ack' });
          else this.dispatch({ type: 'pendingRemoved', clientMessageId });
          return;
        }
        if (ack.code === 'NOT_AUTHENTICATED') return; // the connection was replaced; the rejoin resends it
        this.sendAttempts.delete(clientMessageId);
        this.dispatch({ type: 'pendingStatus', clientMessageId, status: 'failed', error: ack.message || MSG_SEND_FAILED });
      })
      .catch((err) => {
        if (!(err instanceof RequestTimeoutError) || this.stopped) return;
        if (!this.joined || this.socket !== socket || !socket.connected) return; // stays pending until the rejoin
        if (attempt < MAX_SEND_ATTEMPTS) this.transmit(clientMessageId);
        else this.dispatch({ type: 'pendingStatus', clientMessageId, status: 'failed', error: MSG_SEND_FAILED });
      });
  }

  dismissNotice(): void {
    this.dispatch({ type: 'notice', message: null });
  }
}
