/**
 * Room administration over the room socket (docs/product/rooms.md R21-R27): rename, password, max users,
 * extend, delete, kick, member roles and the room theme, with their error texts (proto/src/errors.ts); and the live events
 * every member receives (workspace-updated, user-kicked, user-updated, theme-changed). RoomSession exposes the
 * commands as `session.admin`. The server decides every change; these only send and apply its answers.
 */
import { C, S, EXTENSION_HOURS, type CustomTheme, type ExtensionHours, type ThemeId } from '@ephemera/proto/client';
import type { ClientPayload, RoomTheme } from '@ephemera/proto';
import { request, RequestTimeoutError, type RoomSocket } from './socket.ts';
import type { RoomAction, RoomState } from '../state/roomState.ts';
import { renameTarget } from './roomRules.ts';
import { isThemeId } from './themes.ts';
import { fail, type Result } from './commandResult.ts';
import {
  MSG_DELETE_ROOM_FAILED,
  MSG_EXTEND_FAILED,
  MSG_NOT_CONNECTED,
  MSG_RENAME_WORKSPACE_FAILED,
  MSG_ROLE_FAILED,
  MSG_ROOM_DELETED_BY_ME,
  MSG_THEME_FAILED,
  MSG_TIMED_OUT,
  MSG_UNKNOWN_ERROR,
  kickFailed,
  maxUsersFailed,
  passwordFailed,
} from './commandTexts.ts';

/** extension refusals whose own message tells the owner what to do */
const SAYS_WHY = new Set<string>(['EXTENSION_NEEDS_PAYMENT', 'SUBSCRIPTION_IN_GRACE', 'SUBSCRIPTION_EXPIRED']);

const REQUEST_TIMEOUT_MS = 15_000;
/** the wire's record names its font from CUSTOM_THEME_FONTS; the editor offers only those and the server checks it */
type WireCustomTheme = NonNullable<ClientPayload<typeof C.broadcastTheme>['customTheme']>;

export interface AdminLink {
  readonly workspaceId: string;
  state(): RoomState;
  dispatch(action: RoomAction): void;
  /** the socket when joined, else null */
  socket(): RoomSocket | null;
  /** the room is gone for us (delete-workspace acknowledged): same path as workspace-deleted */
  deleted(message: string): void;
}

export class AdminCommands {
  /** this session asked to delete the room and has no refusal yet */
  deletingRoom = false;

  constructor(private readonly link: AdminLink) {}

  /** Click the room name to rename: trimmed; empty or unchanged cancels; at most 50 characters. */
  async renameWorkspace(input: string): Promise<Result> {
    const current = this.link.state().workspace?.name ?? '';
    const { name, error } = renameTarget(input, current);
    if (error) return fail(error);
    if (!name) return { ok: true };
    return this.call(
      (reason) => (reason ? reason : MSG_RENAME_WORKSPACE_FAILED),
      async (socket) => {
        const ack = await request(
          socket,
          C.renameWorkspace,
          { workspaceId: this.link.workspaceId, newName: name },
          REQUEST_TIMEOUT_MS,
        );
        if (!ack.success) return fail(ack.message || MSG_RENAME_WORKSPACE_FAILED);
        this.link.dispatch({ type: 'workspaceUpdated', update: ack.workspace });
        return { ok: true };
      },
    );
  }

  /** null removes the password (members already inside stay). */
  async setPassword(password: string | null): Promise<Result> {
    return this.call(passwordFailed, async (socket) => {
      const ack = await request(
        socket,
        C.setWorkspacePassword,
        { workspaceId: this.link.workspaceId, password },
        REQUEST_TIMEOUT_MS,
      );
      if (!ack.success) return fail(passwordFailed(ack.message || MSG_UNKNOWN_ERROR));
      this.link.dispatch({ type: 'workspaceUpdated', update: ack.workspace });
      return { ok: true };
    });
  }

  async setMaxUsers(maxUsers: number | 'unlimited'): Promise<Result> {
    return this.call(maxUsersFailed, async (socket) => {
      const ack = await request(
        socket,
        C.setWorkspaceMaxUsers,
        { workspaceId: this.link.workspaceId, maxUsers },
        REQUEST_TIMEOUT_MS,
      );
      if (!ack.success) return fail(maxUsersFailed(ack.message || MSG_UNKNOWN_ERROR));
      this.link.dispatch({ type: 'workspaceUpdated', update: ack.workspace });
      return { ok: true };
    });
  }

  /**
   * Extend Room Duration (pro and business: free): 7 days = 168 hours, 30 days = 720 hours. A refusal that says what
   * to do (pay for a free room; renew the owner's subscription, docs/product/payments.md PAY12) is shown as the server
   * words it; any other failure is the spec's text.
   */
  async extend(days: 7 | 30): Promise<Result<{ code?: string }>> {
    const additionalHours: ExtensionHours = days === 7 ? EXTENSION_HOURS[0] : EXTENSION_HOURS[1];
    const socket = this.link.socket();
    if (!socket) return fail(MSG_EXTEND_FAILED);
    try {
      const ack = await request(
        socket,
        C.extendWorkspace,
        { workspaceId: this.link.workspaceId, additionalHours },
        REQUEST_TIMEOUT_MS,
      );
      if (!ack.success) return { ok: false, message: SAYS_WHY.has(ack.code) ? ack.message : MSG_EXTEND_FAILED };
      this.link.dispatch({ type: 'workspaceUpdated', update: ack.workspace });
      return { ok: true };
    } catch {
      return fail(MSG_EXTEND_FAILED);
    }
  }

  /** Delete Chat Room: on success the room is gone for us as for everyone (workspace-deleted). */
  async deleteWorkspace(): Promise<Result> {
    return this.call(
      (reason) => {
        this.deletingRoom = false;
        return reason || MSG_DELETE_ROOM_FAILED;
      },
      async (socket) => {
        // workspace-deleted may reach us before the answer: it then ends our session as the deleting owner's
        this.deletingRoom = true;
        const ack = await request(
          socket,
          C.deleteWorkspace,
          { workspaceId: this.link.workspaceId },
          REQUEST_TIMEOUT_MS,
        );
        if (!ack.success) {
          this.deletingRoom = false;
          return fail(ack.message || MSG_DELETE_ROOM_FAILED);
        }
        this.link.deleted(MSG_ROOM_DELETED_BY_ME);
        return { ok: true };
      },
    );
  }

  /** Kick User (owner and admins; never oneself). */
  async kickUser(userId: string): Promise<Result> {
    if (userId === this.link.state().user?.id) return fail(kickFailed('You cannot kick yourself'));
    return this.call(kickFailed, async (socket) => {
      const ack = await request(socket, C.kickUser, { workspaceId: this.link.workspaceId, userId }, REQUEST_TIMEOUT_MS);
      if (!ack.success) return fail(kickFailed(ack.message || MSG_UNKNOWN_ERROR));
      this.link.dispatch({ type: 'memberKicked', userId });
      return { ok: true };
    });
  }

  /** Make admin / remove admin (owner only). */
  async setMemberRole(userId: string, isAdmin: boolean): Promise<Result> {
    return this.call(
      (reason) => reason || MSG_ROLE_FAILED,
      async (socket) => {
        const ack = await request(
          socket,
          C.setMemberRole,
          { workspaceId: this.link.workspaceId, userId, isAdmin },
          REQUEST_TIMEOUT_MS,
        );
        if (!ack.success) return fail(ack.message || MSG_ROLE_FAILED);
        this.link.dispatch({ type: 'memberUpdated', user: ack.user });
        return { ok: true };
      },
    );
  }

  /** Apply Theme by an admin or the room creator: the whole room gets it (theme-changed). */
  async broadcastTheme(themeId: ThemeId, customTheme: CustomTheme | null = null): Promise<Result> {
    return this.call(
      (reason) => reason || MSG_THEME_FAILED,
      async (socket) => {
        const ack = await request(
          socket,
          C.broadcastTheme,
          {
            workspaceId: this.link.workspaceId,
            themeId,
            ...(themeId === 'custom' ? { customTheme: customTheme as WireCustomTheme | null } : {}),
          },
          REQUEST_TIMEOUT_MS,
        );
        if (!ack.success) return fail(ack.message || MSG_THEME_FAILED);
        this.link.dispatch({ type: 'themeBroadcast', theme: ack.theme });
        return { ok: true };
      },
    );
  }

  /** `describe` turns the server's reason (or a timeout / no connection) into the spec's text. */
  private async call(
    describe: (reason: string) => string,
    run: (socket: RoomSocket) => Promise<Result>,
  ): Promise<Result> {
    const socket = this.link.socket();
    if (!socket) return fail(describe(MSG_NOT_CONNECTED));
    try {
      return await run(socket);
    } catch (err) {
      return fail(describe(err instanceof RequestTimeoutError ? MSG_TIMED_OUT : MSG_NOT_CONNECTED));
    }
  }
}

export interface AdminEventSink {
  readonly workspaceId: string;
  dispatch(action: RoomAction): void;
}

const ours = (sink: AdminEventSink, p: { workspaceId?: string } | null | undefined): boolean =>
  Boolean(p) && (!p!.workspaceId || p!.workspaceId === sink.workspaceId);

/** The administration events every member of the room receives. */
export function bindAdminEvents(socket: RoomSocket, sink: AdminEventSink): void {
  socket.on(S.workspaceUpdated, (p) => {
    if (ours(sink, p) && typeof p.name === 'string' && p.settings)
      sink.dispatch({ type: 'workspaceUpdated', update: p });
  });
  socket.on(S.userKicked, (p) => {
    if (ours(sink, p) && typeof p.userId === 'string') sink.dispatch({ type: 'memberKicked', userId: p.userId });
  });
  socket.on(S.userUpdated, (p) => {
    if (ours(sink, p) && p.user && typeof p.user.id === 'string')
      sink.dispatch({ type: 'memberUpdated', user: p.user });
  });
  socket.on(S.themeChanged, (p) => {
    if (!ours(sink, p) || !isThemeId(p.themeId)) return;
    const theme: RoomTheme = {
      themeId: p.themeId,
      customTheme: p.customTheme ?? null,
      changedBy: p.changedBy,
      changedByName: p.changedByName,
      logoSrc: typeof p.logoSrc === 'string' ? p.logoSrc : null,
    };
    sink.dispatch({ type: 'themeBroadcast', theme });
  });
}
