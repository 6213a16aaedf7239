/** Direct messages' commands (split from conversationCommands.ts): open or create our DM with a user, delete one. */
import { C } from '@ephemera/proto/client';
import { request, RequestTimeoutError, type RoomSocket } from './socket.ts';
import type { RoomAction, RoomState } from '../state/roomState.ts';
import { dmWith } from '../state/conversationSelectors.ts';
import type { Result } from './commandResult.ts';
import {
  MSG_DELETE_DM_TIMEOUT,
  MSG_NOT_CONNECTED,
  MSG_START_DM_FAILED,
  MSG_UNKNOWN_ERROR,
  deleteDmFailed,
} from './commandTexts.ts';

export const MSG_NOT_DM_MEMBER = 'You are not a member of this DM conversation';
export const MSG_NOT_A_DM = 'Channel is not a DM';
export const MSG_USER_NOT_FOUND = 'User not found';

const DELETE_DM_TIMEOUT_MS = 10_000;

/** What the DM commands need of the session (the conversation commands' link, lib/conversationCommands.ts). */
export interface DmLink {
  readonly workspaceId: string;
  state(): RoomState;
  dispatch(action: RoomAction): void;
  /** the socket when joined, else null */
  socket(): RoomSocket | null;
  selectChannel(channelId: string | null): void;
  removeChannel(channelId: string): void;
}

export class DmCommands {
  constructor(
    private readonly link: DmLink,
    /** a failure, shown as the room's notice too */
    private readonly report: (message: string) => { ok: false; message: string },
    private readonly requestTimeoutMs: number,
  ) {}

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
        this.requestTimeoutMs,
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
}
