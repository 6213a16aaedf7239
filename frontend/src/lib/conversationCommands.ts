/**
 * The sidebar's commands over the room socket (DMs, channel rename/delete/members, read positions, search,
 * presence, profile), with the error texts of proto/src/errors.ts. RoomSession exposes them as methods; the read
 * positions' throttle is readPositions.ts.
 */
import { C, LIMITS } from '@ephemera/proto/client';
import type { Message, PresenceStatus } from '@ephemera/proto';
import { request, RequestTimeoutError, type RoomSocket } from './socket.ts';
import type { RoomAction, RoomState } from '../state/roomState.ts';
import { dmWith } from '../state/conversationSelectors.ts';
import { UI_TEXT } from './texts.ts';
import { ReadPositions } from './readPositions.ts';
import {
  MSG_CREATE_CHANNEL_FAILED,
  MSG_DELETE_CHANNEL_FAILED,
  MSG_DELETE_DM_TIMEOUT,
  MSG_NOT_CONNECTED,
  MSG_PROFILE_FAILED,
  MSG_RENAME_CHANNEL_FAILED,
  MSG_SEARCH_FAILED,
  MSG_START_DM_FAILED,
  MSG_UNKNOWN_ERROR,
  MSG_UPDATE_MEMBERS_FAILED,
  deleteDmFailed,
} from './commandTexts.ts';

export const MSG_NOT_DM_MEMBER = 'You are not a member of this DM conversation';
export const MSG_NOT_A_DM = 'Channel is not a DM';
export const MSG_USERNAME_REQUIRED = 'Username is required';
export const MSG_USER_NOT_FOUND = 'User not found';

const DELETE_DM_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 15_000;

export type Result<T = object> = ({ ok: true } & T) | { ok: false; message: string };

export interface CommandLink {
  readonly workspaceId: string;
  state(): RoomState;
  dispatch(action: RoomAction): void;
  /** the socket when joined, else null */
  socket(): RoomSocket | null;
  selectChannel(channelId: string | null): void;
  removeChannel(channelId: string): void;
  notice(message: string): void;
}

const fail = (message: string): { ok: false; message: string } => ({ ok: false, message });

export class ConversationCommands {
  private presenceSent: PresenceStatus | null = null;
  /** read positions: marked at once, sent throttled (readPositions.ts) */
  private readonly reads: ReadPositions;

  constructor(private readonly link: CommandLink) {
    this.reads = new ReadPositions(link, REQUEST_TIMEOUT_MS);
  }

  dispose(): void {
    this.reads.dispose();
  }

  /** A new connection: the server's read positions and presence start over from what it has. */
  reset(): void {
    this.reads.reset();
    this.presenceSent = null;
  }

  /** Everything held in the channel is read: update locally at once, tell the server (throttled; readPositions.ts). */
  markRead(channelId: string): void {
    this.reads.markRead(channelId);
  }

  // ---- DMs ----

  /** Open our DM with a user, or create it (the sidebar asks first: StartDmModal) and open it. */
  async startDm(targetUserId: string): Promise<Result> {
    const state = this.link.state();
    const existing = dmWith(state, targetUserId);
    if (existing) {
      this.link.selectChannel(existing.id);
      return { ok: true };
    }
    const target =
      state.workspace?.users.find((u) => u.id === targetUserId) ?? state.online.find((u) => u.id === targetUserId);
    if (!target) return this.report(MSG_USER_NOT_FOUND);
    const socket = this.link.socket();
    if (!socket) return this.report(MSG_START_DM_FAILED);
    try {
      const ack = await request(
        socket,
        C.createDmChannel,
        { workspaceId: this.link.workspaceId, targetUserId, name: target.username },
        REQUEST_TIMEOUT_MS,
      );
      if (!ack.success) return this.report(ack.message || MSG_START_DM_FAILED);
      this.link.dispatch({ type: 'dmOpened', channel: ack.channel });
      this.link.selectChannel(ack.channel.id);
      return { ok: true };
    } catch {
      return this.report(MSG_START_DM_FAILED);
    }
  }

  /** Delete Conversation: gone from our view at once (even if the server fails); the partner keeps it. */
  async deleteDm(channelId: string): Promise<Result> {
    const state = this.link.state();
    const channel = state.channels.find((c) => c.id === channelId);
    if (!channel || channel.type !== 'dm') return this.report(MSG_NOT_A_DM);
    if (!state.user || !channel.memberIds.includes(state.user.id)) return this.report(MSG_NOT_DM_MEMBER);
    this.link.removeChannel(channelId);
    const socket = this.link.socket();
    if (!socket) return this.report(deleteDmFailed(MSG_NOT_CONNECTED));
    try {
      const ack = await request(
        socket,
        C.deleteDm,
        { channelId, workspaceId: this.link.workspaceId, userId: state.user.id },
        DELETE_DM_TIMEOUT_MS,
      );
      return ack.success ? { ok: true } : this.report(deleteDmFailed(ack.message || MSG_UNKNOWN_ERROR));
    } catch (err) {
      return this.report(
        err instanceof RequestTimeoutError ? MSG_DELETE_DM_TIMEOUT : deleteDmFailed(MSG_NOT_CONNECTED),
      );
    }
  }

  // ---- channels ----

  /** A topic channel; a private one is visible to its members only (the creator and memberIds); opened once created. */
  async createChannel(name: string, isPrivate: boolean, memberIds: string[]): Promise<Result> {
    return this.call(MSG_CREATE_CHANNEL_FAILED, async (socket) => {
      const ack = await request(
        socket,
        C.createChannel,
        {
          workspaceId: this.link.workspaceId,
          name,
          type: 'topic',
          isPrivate,
          memberIds: isPrivate ? memberIds : [],
        },
        REQUEST_TIMEOUT_MS,
      );
      if (!ack.success) return fail(ack.message || MSG_CREATE_CHANNEL_FAILED);
      this.link.dispatch({ type: 'channelAdded', channel: ack.channel });
      this.link.selectChannel(ack.channel.id);
      return { ok: true };
    });
  }

  async renameChannel(channelId: string, newName: string): Promise<Result> {
    const name = newName.trim();
    const channel = this.link.state().channels.find((c) => c.id === channelId);
    if (!channel || !name || name === channel.name) return { ok: true }; // empty or unchanged cancels
    if (name.length > LIMITS.channelNameMax) return fail(MSG_RENAME_CHANNEL_FAILED);
    return this.call(MSG_RENAME_CHANNEL_FAILED, async (socket) => {
      const ack = await request(
        socket,
        C.renameChannel,
        { channelId, workspaceId: this.link.workspaceId, newName: name },
        REQUEST_TIMEOUT_MS,
      );
      if (!ack.success) return fail(ack.message || MSG_RENAME_CHANNEL_FAILED);
      this.link.dispatch({ type: 'channelUpdated', channel: ack.channel });
      return { ok: true };
    });
  }

  async deleteChannel(channelId: string): Promise<Result> {
    return this.call(MSG_DELETE_CHANNEL_FAILED, async (socket) => {
      const ack = await request(
        socket,
        C.deleteChannel,
        { channelId, workspaceId: this.link.workspaceId },
        REQUEST_TIMEOUT_MS,
      );
      if (!ack.success) return fail(ack.message || MSG_DELETE_CHANNEL_FAILED);
      this.link.removeChannel(channelId);
      return { ok: true };
    });
  }

  async updateChannelMembers(channelId: string, add: string[], remove: string[]): Promise<Result> {
    if (add.length === 0 && remove.length === 0) return { ok: true };
    return this.call(MSG_UPDATE_MEMBERS_FAILED, async (socket) => {
      const ack = await request(
        socket,
        C.updateChannelMembers,
        { channelId, workspaceId: this.link.workspaceId, add, remove },
        REQUEST_TIMEOUT_MS,
      );
      if (!ack.success) return fail(ack.message || MSG_UPDATE_MEMBERS_FAILED);
      this.link.dispatch({ type: 'channelUpdated', channel: ack.channel });
      return { ok: true };
    });
  }

  // ---- search, presence, profile ----

  async searchMessages(query: string): Promise<Result<{ messages: Message[] }>> {
    const q = query.trim().slice(0, LIMITS.searchQueryMax);
    if (!q) return { ok: true, messages: [] };
    return this.call(MSG_SEARCH_FAILED, async (socket) => {
      const ack = await request(
        socket,
        C.searchMessages,
        { workspaceId: this.link.workspaceId, query: q },
        REQUEST_TIMEOUT_MS,
      );
      if (!ack.success) return fail(ack.message || MSG_SEARCH_FAILED);
      return { ok: true, messages: Array.isArray(ack.messages) ? ack.messages : [] };
    });
  }

  /** Our presence (online, away, busy): shown at once, sent once per change. */
  setPresence(status: PresenceStatus): void {
    const user = this.link.state().user;
    if (!user) return;
    if (user.presenceStatus !== status) this.link.dispatch({ type: 'presenceUpdated', userId: user.id, status });
    const socket = this.link.socket();
    if (!socket || this.presenceSent === status) return;
    this.presenceSent = status;
    request(socket, C.updatePresence, { workspaceId: this.link.workspaceId, status }, REQUEST_TIMEOUT_MS)
      .then((ack) => {
        if (!ack.success) this.presenceSent = null;
      })
      .catch(() => {
        this.presenceSent = null;
      });
  }

  /** profilePicture: an uploaded picture's address (lib/fileUpload.ts, purpose avatar); undefined keeps the current one */
  async updateProfile(username: string, profilePicture?: string): Promise<Result> {
    const user = this.link.state().user;
    if (!user) return fail(MSG_PROFILE_FAILED);
    const name = username.trim();
    if (!name) return fail(MSG_USERNAME_REQUIRED);
    if (name === user.username && profilePicture === undefined) return { ok: true }; // unchanged: close without saving
    if (Array.from(name).length > LIMITS.profileUsernameMax)
      return fail(`Username must be at most ${LIMITS.profileUsernameMax} characters`);
    return this.call(MSG_PROFILE_FAILED, async (socket) => {
      const ack = await request(
        socket,
        C.updateProfile,
        {
          workspaceId: this.link.workspaceId,
          userId: user.id,
          username: name,
          ...(profilePicture !== undefined ? { profilePicture } : {}),
        },
        REQUEST_TIMEOUT_MS,
      );
      if (!ack.success) return fail(ack.message || MSG_PROFILE_FAILED);
      this.link.dispatch({
        type: 'profileUpdated',
        userId: ack.user.id,
        username: ack.user.username,
        profilePicture: ack.user.profilePicture,
      });
      return { ok: true };
    });
  }

  private report(message: string): { ok: false; message: string } {
    this.link.notice(message);
    return fail(message);
  }

  private async call<T extends object>(
    fallback: string,
    run: (socket: RoomSocket) => Promise<Result<T>>,
  ): Promise<Result<T>> {
    // no room joined (before the join, or after leaving it): the state's own text, not the command's
    if (!this.link.state().workspace) return fail(UI_TEXT.noWorkspace);
    const socket = this.link.socket();
    if (!socket) return fail(fallback);
    try {
      return await run(socket);
    } catch {
      return fail(fallback);
    }
  }
}
