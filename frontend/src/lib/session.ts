/**
 * A room session: owns the realtime connection for one stored auth record, joins (and rejoins) the workspace
 * (sessionConnection.ts), keeps the room store up to date, resyncs missed messages by per-room seq and resends
 * pending messages. React components read the store and call the methods; nothing here touches the DOM.
 */
import type { Message, PresenceStatus } from '@ephemera/proto';
import { connectRoomSocket, type RoomConnection, type RoomSocket } from './socket.ts';
import { clearRoomData, readAuth, type AuthRecord } from './storage.ts';
import { ChatCommands } from './chatCommands.ts';
import { createStore, type Store } from '../state/store.ts';
import { initialRoomState, roomReducer, type RoomAction, type RoomState } from '../state/roomState.ts';
import { bindConversationEvents, bindRoomEvents } from './sessionEvents.ts';
import { ConversationCommands } from './conversationCommands.ts';
import type { Result } from './commandResult.ts';
import { MessageSender, type SendExtra } from './messageSender.ts';
import { HistoryLoader } from './historyLoader.ts';
import { AdminCommands, bindAdminEvents } from './adminCommands.ts';
import { MSG_ROOM_DELETED_BY_ME } from './commandTexts.ts';
import { SessionConnection } from './sessionConnection.ts';
import { ChannelView } from './sessionChannels.ts';

/** how often stale typing indicators are dropped (a typer whose connection vanished sends no stop) */
const TYPING_SWEEP_MS = 1_000;

export interface SessionCallbacks {
  /** join-workspace refused for the stored record: storage is already cleared */
  onJoinRefused(message: string): void;
  /** byMe: this session's owner deleted it (the success text); else the room ended under us (the server's text) */
  onWorkspaceDeleted(message: string, byMe: boolean): void;
  onKicked(reason: string): void;
}

export class RoomSession {
  readonly store: Store<RoomState, RoomAction> = createStore(roomReducer, initialRoomState());
  /** the connection, joining and rejoining the workspace on it (sessionConnection.ts) */
  private readonly connection: SessionConnection;
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
  /** which conversation is shown: the first after joining, selecting, reading it (sessionChannels.ts) */
  private readonly channels: ChannelView;
  /** room administration: rename, password, max users, extend, delete, kick, roles, theme (adminCommands.ts) */
  readonly admin: AdminCommands;

  constructor(
    /** the room's auth record; its token follows the one this browser stores for the room (sessionConnection.ts) */
    public auth: AuthRecord,
    private readonly callbacks: SessionCallbacks,
    connect: () => RoomConnection = connectRoomSocket,
  ) {
    this.connection = new SessionConnection(
      {
        auth: () => this.auth,
        adoptToken: (userToken) => (this.auth = { ...this.auth, userToken }),
        state: () => this.state,
        dispatch: (a) => this.dispatch(a),
        joining: () => this.commands.reset(),
        joined: (isRejoin) => this.onJoined(isRejoin),
        refused: (message, kicked) =>
          this.fail(() => (kicked ? this.callbacks.onKicked(message) : this.callbacks.onJoinRefused(message))),
      },
      connect,
    );
    this.commands = new ConversationCommands({
      workspaceId: auth.workspaceId,
      state: () => this.state,
      dispatch: (a) => this.dispatch(a),
      socket: () => (this.joined ? this.socket : null),
      selectChannel: (id) => this.selectChannel(id),
      removeChannel: (id) => this.channels.remove(id),
      notice: (message) => this.dispatch({ type: 'notice', message }),
    });
    const link = {
      workspaceId: auth.workspaceId,
      state: () => this.state,
      dispatch: (a: RoomAction) => this.dispatch(a),
      subscribe: (l: () => void) => this.store.subscribe(l),
      socket: () => this.socket,
      joined: () => this.joined,
      stopped: () => this.connection.stopped,
      selectChannel: (id: string) => this.selectChannel(id),
    };
    this.sender = new MessageSender(link);
    this.history = new HistoryLoader(link);
    this.channels = new ChannelView(
      {
        workspaceId: auth.workspaceId,
        state: () => this.state,
        dispatch: (a) => this.dispatch(a),
        joined: () => this.joined,
        markRead: (id) => this.commands.markRead(id),
      },
      this.history,
    );
    this.admin = new AdminCommands({
      workspaceId: auth.workspaceId,
      state: () => this.state,
      dispatch: (a) => this.dispatch(a),
      socket: () => (this.joined ? this.socket : null),
      deleted: (message) => this.fail(() => this.callbacks.onWorkspaceDeleted(message, true)),
    });
    // Viewing a channel reads it: whenever the open channel holds a message above our read position, mark it read.
    this.store.subscribe(() => this.channels.readOpen());
  }

  get state(): RoomState {
    return this.store.getState();
  }

  private get socket(): RoomSocket | null {
    return this.connection.socket;
  }

  /** join-workspace succeeded on the current connection */
  private get joined(): boolean {
    return this.connection.joined;
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
    const socket = this.connection.open();
    if (!socket) return;
    // the room's events: messages, channels, people, administration (sessionEvents.ts, adminCommands.ts, chatCommands.ts)
    bindRoomEvents(socket, {
      workspaceId: this.auth.workspaceId,
      dispatch: (a) => this.dispatch(a),
      liveMessage: (m) => this.channels.liveMessage(m),
      ended: (end) =>
        this.fail(() => {
          if (end.kind === 'kicked') this.callbacks.onKicked(end.message);
          else if (this.admin.deletingRoom) this.callbacks.onWorkspaceDeleted(MSG_ROOM_DELETED_BY_ME, true);
          else this.callbacks.onWorkspaceDeleted(end.message, false);
        }),
      // The server ended the session (its token was replaced): the same connection joins again with the new token.
      replaced: () => this.connection.rejoinWithReplacedToken(),
    });
    this.chat.attach(socket);
    bindConversationEvents(socket, {
      workspaceId: this.auth.workspaceId,
      dispatch: (a) => this.dispatch(a),
      removeChannel: (id) => this.channels.remove(id),
    });
    bindAdminEvents(socket, { workspaceId: this.auth.workspaceId, dispatch: (a) => this.dispatch(a) });
    // DM rows show typing... for any conversation, not only the open one: drop stale indicators everywhere
    this.typingSweep = setInterval(() => {
      if (Object.keys(this.state.typing).length) this.dispatch({ type: 'typingExpired', now: Date.now() });
    }, TYPING_SWEEP_MS);
    this.connection.armWatchdog();
  }

  stop(): void {
    this.connection.close();
    if (this.typingSweep) clearInterval(this.typingSweep);
    this.typingSweep = null;
    this.commands.dispose();
  }

  /** Retry now (the connecting screen's button). */
  retry(): void {
    this.connection.retry();
  }

  /** Logout / leave: tell the server, clear stored room data, close the connection. */
  async leave(): Promise<void> {
    await this.connection.leave();
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

  /** Joined (or joined again): the channel view opens or catches up; presence and pending messages go out again. */
  private onJoined(isRejoin: boolean): void {
    this.channels.afterJoin(isRejoin);
    if (this.desiredPresence !== 'online') this.commands.setPresence(this.desiredPresence);
    this.sender.resendPending();
  }

  // ---- channels (sessionChannels.ts) ----

  /** Open a channel (null: back to the list on mobile). */
  selectChannel(channelId: string | null): void {
    this.channels.select(channelId);
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
