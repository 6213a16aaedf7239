/** The room session's connection and join (split from session.ts): join on every connect, retries, the watchdog. */
import { C, CLIENT_CONNECTION } from '@ephemera/proto/client';
import { request, RequestTimeoutError, type RoomConnection, type RoomSocket } from './socket.ts';
import { readAuth, type AuthRecord } from './storage.ts';
import type { RoomAction, RoomState } from '../state/roomState.ts';
import { MSG_CONNECT_FAILED, MSG_JOIN_TIMEOUT } from './commandTexts.ts';

export const MSG_JOIN_FAILED = 'Failed to join workspace';

const JOIN_RETRY_MS = 3_000;
/** how long a session whose token was replaced waits for this browser to store the new one */
const REPLACED_TOKEN_WAIT_MS = 5_000;

type Timer = ReturnType<typeof setTimeout>;

/** What the connection needs of its session (lib/session.ts). */
export interface ConnectionLink {
  /** the room's auth record; its token follows the one this browser stores for the room (adoptToken) */
  auth(): AuthRecord;
  adoptToken(userToken: string): void;
  state(): RoomState;
  dispatch(action: RoomAction): void;
  /** a join starts on a new connection: the commands' per-connection state starts over */
  joining(): void;
  /** join-workspace succeeded; the store holds the join already */
  joined(isRejoin: boolean): void;
  /** join-workspace refused for good: kicked (removed while this page was away) or refused */
  refused(message: string, kicked: boolean): void;
}

export class SessionConnection {
  private conn: RoomConnection | null = null;
  private watchdog: Timer | null = null;
  private joinRetry: Timer | null = null;
  private joinAttempt = 0;
  /** join-workspace succeeded on the current connection */
  private isJoined = false;
  private isStopped = false;

  constructor(
    private readonly link: ConnectionLink,
    private readonly connect: () => RoomConnection,
  ) {}

  get socket(): RoomSocket | null {
    return this.conn?.socket ?? null;
  }

  get joined(): boolean {
    return this.isJoined;
  }

  get stopped(): boolean {
    return this.isStopped;
  }

  /** Connect and join on every connect; null when connected already (the session binds its events on the socket). */
  open(): RoomSocket | null {
    if (this.conn) return null;
    this.isStopped = false;
    this.conn = this.connect();
    const socket = this.conn.socket;
    socket.on('connect', () => void this.onConnect());
    socket.on('disconnect', () => this.onDisconnect());
    return socket;
  }

  close(): void {
    this.isStopped = true;
    this.isJoined = false;
    if (this.watchdog) clearTimeout(this.watchdog);
    if (this.joinRetry) clearTimeout(this.joinRetry);
    this.watchdog = null;
    this.joinRetry = null;
    this.conn?.dispose();
    this.conn = null;
  }

  /** Retry now (the connecting screen's button). */
  retry(): void {
    const socket = this.socket;
    if (!socket) return;
    this.link.dispatch({ type: 'connectionError', error: null });
    if (socket.connected) void this.onConnect();
    else {
      socket.disconnect();
      socket.connect();
      this.armWatchdog();
    }
  }

  /** Tell the server we leave the room, when joined (leaving anyway if it does not answer). */
  async leave(): Promise<void> {
    const socket = this.socket;
    if (socket?.connected && this.isJoined) {
      try {
        await request(socket, C.leaveWorkspace, { workspaceId: this.link.auth().workspaceId }, 3_000);
      } catch {
        /* leaving anyway */
      }
    }
  }

  /** Not connected within 10 s: say so (the connection keeps trying). */
  armWatchdog(): void {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = setTimeout(() => {
      this.watchdog = null;
      if (!this.isStopped && !this.socket?.connected)
        this.link.dispatch({ type: 'connectionError', error: MSG_CONNECT_FAILED });
    }, CLIENT_CONNECTION.waitForConnectionMs);
  }

  /**
   * The token this browser holds for the room now: another tab may have replaced this session's (registering to
   * claim the room, a new owner token from the dashboard), and the replaced one no longer opens the room.
   */
  private adoptStoredToken(): void {
    const stored = readAuth();
    const auth = this.link.auth();
    if (stored && stored.workspaceId === auth.workspaceId && stored.userToken !== auth.userToken) {
      this.link.adoptToken(stored.userToken);
    }
  }

  /**
   * The server ended this session because its token was replaced. The tab that made the new token (a claim, the
   * dashboard) may store it only after the server told us, so wait for it a little, then join again on the same
   * connection; a browser that never gets the new token is refused then, as it should be.
   */
  rejoinWithReplacedToken(): void {
    this.isJoined = false;
    this.joinAttempt++;
    this.link.dispatch({ type: 'connection', status: 'reconnecting' });
    const replaced = this.link.auth().userToken;
    const deadline = Date.now() + REPLACED_TOKEN_WAIT_MS;
    const attempt = () => {
      this.joinRetry = null;
      if (this.isStopped || !this.socket?.connected) return; // a reconnect joins by itself
      const stored = readAuth();
      const newer = stored?.workspaceId === this.link.auth().workspaceId && stored.userToken !== replaced;
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
      if (!this.isStopped && this.socket?.connected && !this.isJoined) void this.onConnect();
    }, JOIN_RETRY_MS);
  }

  // ---- connection events ----

  private async onConnect(): Promise<void> {
    const socket = this.socket;
    if (!socket || this.isStopped) return;
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = null;
    this.isJoined = false;
    this.link.joining();
    const attempt = ++this.joinAttempt;
    this.adoptStoredToken();
    const state = this.link.state();
    const isRejoin = state.everJoined;
    const workspaceBefore = state.workspace;
    this.link.dispatch({
      type: 'connection',
      status: isRejoin ? 'reconnecting' : 'joining',
      error: state.connection.error,
    });

    const auth = this.link.auth();
    let ack;
    try {
      ack = await request(
        socket,
        C.joinWorkspace,
        {
          workspaceId: auth.workspaceId,
          username: auth.username,
          password: auth.password,
          userToken: auth.userToken,
        },
        CLIENT_CONNECTION.joinTimeoutMs,
      );
    } catch (err) {
      if (attempt !== this.joinAttempt || this.isStopped) return;
      if (err instanceof RequestTimeoutError) this.link.dispatch({ type: 'connectionError', error: MSG_JOIN_TIMEOUT });
      this.scheduleJoinRetry();
      return;
    }
    if (attempt !== this.joinAttempt || this.isStopped) return;
    if (!ack.success) {
      if (ack.code === 'INTERNAL' || ack.code === 'RATE_LIMITED') {
        this.link.dispatch({ type: 'connectionError', error: ack.message || MSG_JOIN_FAILED });
        this.scheduleJoinRetry();
        return;
      }
      // removed while this page was away (a background tab, a lost connection): as if the kick had arrived
      this.link.refused(ack.message || MSG_JOIN_FAILED, isRejoin && ack.code === 'KICKED');
      return;
    }

    this.isJoined = true;
    // The server sends workspace-joined (sessionEvents.ts) before this ack, with the same snapshot: applied once. A
    // second 'joined' re-renders the whole room, in a task of its own when the ack comes in a later read.
    const current = this.link.state().workspace;
    if (current === workspaceBefore || current?.id !== ack.workspace.id)
      this.link.dispatch({ type: 'joined', workspace: ack.workspace, user: ack.user, now: Date.now() });
    this.link.joined(isRejoin);
  }

  private onDisconnect(): void {
    this.isJoined = false;
    this.joinAttempt++;
    if (this.isStopped) return;
    this.link.dispatch({ type: 'connection', status: this.link.state().everJoined ? 'reconnecting' : 'connecting' });
    this.armWatchdog();
  }
}
