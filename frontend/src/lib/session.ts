/**
 * A room session: owns the realtime connection for one stored auth record, joins (and rejoins) the workspace,
 * keeps the room store up to date, resyncs missed messages by per-room seq and resends pending messages.
 * React components read the store and call the methods; nothing here touches the DOM.
 */
import { C, CLIENT_CONNECTION } from '@ephemera/proto/client';
import type { Message, PresenceStatus } from '@ephemera/proto';
import { connectRoomSocket, request, RequestTimeoutError, type RoomConnection, type RoomSocket } from './socket.ts';
import { clearRoomData, getLastChannel, readAuth, setLastChannel, type AuthRecord } from './storage.ts';
import { ChatCommands } from './chatCommands.ts';
import { createStore, type Store } from '../state/store.ts';
import { initialRoomState, roomReducer, type RoomAction, type RoomState } from '../state/roomState.ts';
import { tailSeq } from '../state/conversationsSlice.ts';
import { bindConversationEvents, bindRoomEvents } from './sessionEvents.ts';
import { ConversationCommands, type Result } from './conversationCommands.ts';
import { MessageSender, type SendExtra } from './messageSender.ts';
import { HistoryLoader } from './historyLoader.ts';
import { AdminCommands, bindAdminEvents } from './adminCommands.ts';
import { MSG_CONNECT_FAILED, MSG_JOIN_TIMEOUT, MSG_ROOM_DELETED_BY_ME } from './commandTexts.ts';

export const MSG_JOIN_FAILED = 'Failed to join workspace';

const JOIN_RETRY_MS = 3_000;
/** how often stale typing indicators are dropped (a typer whose connection vanished sends no stop) */
const TYPING_SWEEP_MS = 1_000;
const MOBILE_QUERY = '(max-width: 767px)';

export interface SessionCallbacks {
  /** join-workspace refused for the stored record: storage is already cleared */
  onJoinRefused(message: string): void;
  /** byMe: this session's owner deleted it (the success text); else the room ended under us (the server's text) */
  onWorkspaceDeleted(message: string, byMe: boolean): void;
  onKicked(reason: string): void;
}

type Timer = ReturnType<typeof setTimeout>;

/** how long a session whose token was replaced waits for this browser to store the new one */
const REPLACED_TOKEN_WAIT_MS = 5_000;

export class RoomSession {
  readonly store: Store<RoomState, RoomAction> = createStore(roomReducer, initialRoomState());
  private conn: RoomConnection | null = null;
  private watchdog: Timer | null = null;
  private joinRetry: Timer | null = null;
  private joinAttempt = 0;
  /** join-workspace succeeded on the current connection */
  private joined = false;
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
  /** sending, retrying and resending messages (messageSender.ts) */
  private readonly sender: MessageSender;
  /** resync, summaries, pages of history, revealing a message (historyLoader.ts) */
  private readonly history: HistoryLoader;
  /** room administration: rename, password, max users, extend, delete, kick, roles, theme (adminCommands.ts) */
  readonly admin: AdminCommands;

  constructor(
    /** the room's auth record; its token follows the one this browser stores for the room (adoptStoredToken) */
    public auth: AuthRecord,
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
    const link = {
      workspaceId: auth.workspaceId,
      state: () => this.state,
      dispatch: (a: RoomAction) => this.dispatch(a),
      subscribe: (l: () => void) => this.store.subscribe(l),
      socket: () => this.socket,
      joined: () => this.joined,
      stopped: () => this.stopped,
      selectChannel: (id: string) => this.selectChannel(id),
    };
    this.sender = new MessageSender(link);
    this.history = new HistoryLoader(link);
    this.admin = new AdminCommands({
      workspaceId: auth.workspaceId,
      state: () => this.state,
      dispatch: (a) => this.dispatch(a),
      socket: () => (this.joined ? this.socket : null),
      deleted: (message) => this.fail(() => this.callbacks.onWorkspaceDeleted(message, true)),
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

  /** The room's connection, for calls (lib/calls): they listen and emit on it while the room is open; null when stopped. */
  get realtime(): RoomSocket | null {
    return this.socket;
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
    // the room's events: messages, channels, people, administration (sessionEvents.ts, adminCommands.ts, chatCommands.ts)
    bindRoomEvents(socket, {
      workspaceId: this.auth.workspaceId,
      dispatch: (a) => this.dispatch(a),
      liveMessage: (m) => this.onLiveMessage(m),
      ended: (end) =>
        this.fail(() => {
          if (end.kind === 'kicked') this.callbacks.onKicked(end.message);
          else if (this.admin.deletingRoom) this.callbacks.onWorkspaceDeleted(MSG_ROOM_DELETED_BY_ME, true);
          else this.callbacks.onWorkspaceDeleted(end.message, false);
        }),
      // The server ended the session (its token was replaced): the same connection joins again with the new token.
      replaced: () => this.rejoinWithReplacedToken(),
    });
    this.chat.attach(socket);
    bindConversationEvents(socket, {
      workspaceId: this.auth.workspaceId,
      dispatch: (a) => this.dispatch(a),
      removeChannel: (id) => this.removeChannel(id),
    });
    bindAdminEvents(socket, { workspaceId: this.auth.workspaceId, dispatch: (a) => this.dispatch(a) });
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
      } catch {
        /* leaving anyway */
      }
    }
    clearRoomData(this.auth.workspaceId);
    this.stop();
  }

  private fail(report: () => void): void {
    // A newer token another tab stored for this room (a claim, a new owner token) is not this session's to clear.
    const stored = readAuth();
    if (!stored || stored.workspaceId !== this.auth.workspaceId || stored.userToken === this.auth.userToken)
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
      if (!this.stopped && !this.socket?.connected)
        this.dispatch({ type: 'connectionError', error: MSG_CONNECT_FAILED });
    }, CLIENT_CONNECTION.waitForConnectionMs);
  }

  /**
   * The token this browser holds for the room now: another tab may have replaced this session's (registering to
   * claim the room, a new owner token from the dashboard), and the replaced one no longer opens the room.
   */
  private adoptStoredToken(): void {
    const stored = readAuth();
    if (stored && stored.workspaceId === this.auth.workspaceId && stored.userToken !== this.auth.userToken) {
      this.auth = { ...this.auth, userToken: stored.userToken };
    }
  }

  /**
   * The server ended this session because its token was replaced. The tab that made the new token (a claim, the
   * dashboard) may store it only after the server told us, so wait for it a little, then join again on the same
   * connection; a browser that never gets the new token is refused then, as it should be.
   */
  private rejoinWithReplacedToken(): void {
    this.joined = false;
    this.joinAttempt++;
    this.dispatch({ type: 'connection', status: 'reconnecting' });
    const replaced = this.auth.userToken;
    const deadline = Date.now() + REPLACED_TOKEN_WAIT_MS;
    const attempt = () => {
      this.joinRetry = null;
      if (this.stopped || !this.socket?.connected) return; // a reconnect joins by itself
      const stored = readAuth();
      const newer = stored?.workspaceId === this.auth.workspaceId && stored.userToken !== replaced;
      if (newer || Date.now() >= deadline) void this.onConnect();
      else this.joinRetry = setTimeout(attempt, 200);
    };
    if (this.joinRetry) clearTimeout(this.joinRetry);
    attempt();
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
    this.adoptStoredToken();
    const isRejoin = this.state.everJoined;
    this.dispatch({
      type: 'connection',
      status: isRejoin ? 'reconnecting' : 'joining',
      error: this.state.connection.error,
    });

    let ack;
    try {
      ack = await request(
        socket,
        C.joinWorkspace,
        {
          workspaceId: this.auth.workspaceId,
          username: this.auth.username,
          password: this.auth.password,
          userToken: this.auth.userToken,
        },
        CLIENT_CONNECTION.joinTimeoutMs,
      );
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
      // removed while this page was away (a background tab, a lost connection): as if the kick had arrived
      if (isRejoin && ack.code === 'KICKED') this.fail(() => this.callbacks.onKicked(message));
      else this.fail(() => this.callbacks.onJoinRefused(message));
      return;
    }

    this.joined = true;
    this.dispatch({ type: 'joined', workspace: ack.workspace, user: ack.user, now: Date.now() });
    if (!isRejoin) {
      this.openInitialChannel();
    } else {
      // summaries after the resync: the server's counts then replace what the resynced messages added
      void this.history.syncFrom(this.state.lastSeq).finally(() => void this.history.loadSummaries());
      const current = this.state.currentChannelId;
      if (current) void this.history.loadLatest(current);
    }
    // unread counts, last-message previews and read positions of every conversation, from the server
    if (!isRejoin) void this.history.loadSummaries();
    if (this.desiredPresence !== 'online') this.commands.setPresence(this.desiredPresence);
    this.sender.resendPending();
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
    if (before > 0 && m.seq > before + 1) void this.history.syncFrom(before);
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
    const isMobile =
      typeof window !== 'undefined' &&
      typeof window.matchMedia === 'function' &&
      window.matchMedia(MOBILE_QUERY).matches;
    const target = remembered ?? (isMobile ? undefined : topics[0]);
    if (target) this.selectChannel(target.id);
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
    if (after) void this.history.loadLatest(after);
  }

  /** Open a channel (null: back to the list on mobile). */
  selectChannel(channelId: string | null): void {
    this.dispatch({ type: 'channelSelected', channelId });
    if (!channelId) return;
    setLastChannel(this.auth.workspaceId, channelId);
    void this.history.loadLatest(channelId);
  }

  /** The page before the oldest loaded message. */
  loadOlder(channelId: string): Promise<void> {
    return this.history.loadOlder(channelId);
  }

  /** Open a conversation at one message (a search hit), paging back until it is held; true when held. */
  revealMessage(channelId: string, messageId: string): Promise<boolean> {
    return this.history.revealMessage(channelId, messageId);
  }

  /** A topic channel; a private one is visible to its members only (the creator and memberIds). */
  createChannel(name: string, isPrivate: boolean, memberIds: string[] = []): Promise<Result> {
    return this.commands.createChannel(name, isPrivate, memberIds);
  }

  // ---- conversations (conversationCommands.ts; errors also show as the notice where the spec says so) ----

  /** Open the DM with a user (create-dm-channel), or the one we already have. */
  startDm(targetUserId: string): Promise<Result> {
    return this.commands.startDm(targetUserId);
  }
  /** Delete Conversation: removed from our view at once, even if the server fails. */
  deleteDm(channelId: string): Promise<Result> {
    return this.commands.deleteDm(channelId);
  }
  renameChannel(channelId: string, newName: string): Promise<Result> {
    return this.commands.renameChannel(channelId, newName);
  }
  deleteChannel(channelId: string): Promise<Result> {
    return this.commands.deleteChannel(channelId);
  }
  updateChannelMembers(channelId: string, add: string[], remove: string[]): Promise<Result> {
    return this.commands.updateChannelMembers(channelId, add, remove);
  }
  /** Mark as Read: everything held in the channel is read (sent to the server, throttled). */
  markRead(channelId: string): void {
    this.commands.markRead(channelId);
  }
  searchMessages(query: string): Promise<Result<{ messages: Message[] }>> {
    return this.commands.searchMessages(query);
  }
  setPresence(status: PresenceStatus): void {
    this.desiredPresence = status;
    this.commands.setPresence(status);
  }
  updateProfile(username: string, profilePicture?: string): Promise<Result> {
    return this.commands.updateProfile(username, profilePicture);
  }

  // ---- messages (messageSender.ts) ----

  /** Queue a text message in the current channel (optionally a reply, with a link preview); false when nothing was sent. */
  sendMessage(content: string, extra: SendExtra = {}): boolean {
    return this.sender.send(content, extra);
  }
  /** The room and token the file routes take (lib/fileUpload.ts): Authorization: Bearer {userToken}. */
  fileAccess(): { workspaceId: string; userToken: string } {
    return { workspaceId: this.auth.workspaceId, userToken: this.auth.userToken };
  }
  retryMessage(clientMessageId: string): void {
    this.sender.retry(clientMessageId);
  }
  discardMessage(clientMessageId: string): void {
    this.sender.discard(clientMessageId);
  }

  /** A line in the room's toast (errors of actions whose dialog is already gone). */
  showNotice(message: string): void {
    this.dispatch({ type: 'notice', message });
  }

  dismissNotice(): void {
    this.dispatch({ type: 'notice', message: null });
  }
}
