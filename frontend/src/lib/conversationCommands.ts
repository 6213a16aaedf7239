/**
 * The sidebar's commands over the room socket (DMs, channel rename/delete/members, read positions, search,
 * presence, profile), with the error texts of proto/src/errors.ts. RoomSession exposes them as methods; the DMs'
 * commands are dmCommands.ts, the read positions' throttle readPositions.ts.
 */
import { C, LIMITS } from '@ephemera/proto/client';
import type { Message, PresenceStatus } from '@ephemera/proto';
import { request, type RoomSocket } from './socket.ts';
import { UI_TEXT } from './texts.ts';
import { ReadPositions } from './readPositions.ts';
import { DmCommands, type DmLink } from './dmCommands.ts';
import { fail, type Result } from './commandResult.ts';
import {
  MSG_CREATE_CHANNEL_FAILED,
  MSG_DELETE_CHANNEL_FAILED,
  MSG_PROFILE_FAILED,
  MSG_RENAME_CHANNEL_FAILED,
  MSG_SEARCH_FAILED,
  MSG_UPDATE_MEMBERS_FAILED,
} from './commandTexts.ts';

export const MSG_USERNAME_REQUIRED = 'Username is required';

const REQUEST_TIMEOUT_MS = 15_000;

/** What the conversation commands need of the session: the DM commands' link, and the room's notice. */
export interface CommandLink extends DmLink {
  notice(message: string): void;
}

export class ConversationCommands {
  private presenceSent: PresenceStatus | null = null;
  /** read positions: marked at once, sent throttled (readPositions.ts) */
  private readonly reads: ReadPositions;
  /** opening, creating and deleting DMs (dmCommands.ts) */
  private readonly dms: DmCommands;

  constructor(private readonly link: CommandLink) {
    this.reads = new ReadPositions(link, REQUEST_TIMEOUT_MS);
    this.dms = new DmCommands(link, (message) => this.report(message), REQUEST_TIMEOUT_MS);
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

  // ---- DMs (dmCommands.ts) ----

  /** Open our DM with a user, or create it (the sidebar asks first: StartDmModal) and open it. */
  startDm(targetUserId: string): Promise<Result> {
    return this.dms.startDm(targetUserId);
  }

  /** Delete Conversation: gone from our view at once (even if the server fails); the partner keeps it. */
  deleteDm(channelId: string): Promise<Result> {
    return this.dms.deleteDm(channelId);
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
