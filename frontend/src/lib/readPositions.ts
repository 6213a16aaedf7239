/** The read positions this browser sends (split from conversationCommands.ts): marked at once, sent throttled. */
import { C } from '@ephemera/proto/client';
import { request, type RoomSocket } from './socket.ts';
import type { RoomAction, RoomState } from '../state/roomState.ts';
import { tailSeq } from '../state/conversationsSlice.ts';

/** one mark-read per channel per second at most; the latest position goes out at the end of the window */
export const MARK_READ_THROTTLE_MS = 1_000;

export interface ReadPositionsLink {
  state(): RoomState;
  dispatch(action: RoomAction): void;
  /** the socket when joined, else null */
  socket(): RoomSocket | null;
}

export class ReadPositions {
  private readTimers = new Map<string, ReturnType<typeof setTimeout>>();
  private readSentAt = new Map<string, number>();
  private readSent = new Map<string, number>();

  constructor(
    private readonly link: ReadPositionsLink,
    private readonly requestTimeoutMs: number,
  ) {}

  dispose(): void {
    for (const t of this.readTimers.values()) clearTimeout(t);
    this.readTimers.clear();
  }

  /** A new connection: the server's read positions start over from what it has. */
  reset(): void {
    this.dispose();
    this.readSent.clear();
    this.readSentAt.clear();
  }

  /** Everything held in the channel is read: update locally at once, tell the server (throttled). */
  markRead(channelId: string): void {
    const seq = tailSeq(this.link.state(), channelId);
    if (seq <= 0) {
      // nothing held (e.g. a DM whose messages never loaded): the unread count still goes
      this.link.dispatch({ type: 'markedRead', channelId, seq: 0 });
      return;
    }
    this.link.dispatch({ type: 'markedRead', channelId, seq });
    this.scheduleReadSend(channelId);
  }

  private scheduleReadSend(channelId: string): void {
    if (this.readTimers.has(channelId)) return;
    const wait = Math.max(0, (this.readSentAt.get(channelId) ?? -Infinity) + MARK_READ_THROTTLE_MS - Date.now());
    if (wait === 0) {
      this.sendRead(channelId);
      return;
    }
    this.readTimers.set(
      channelId,
      setTimeout(() => {
        this.readTimers.delete(channelId);
        this.sendRead(channelId);
      }, wait),
    );
  }

  private sendRead(channelId: string): void {
    const socket = this.link.socket();
    const seq = this.link.state().readSeq[channelId] ?? 0;
    if (!socket || seq <= (this.readSent.get(channelId) ?? 0)) return;
    this.readSent.set(channelId, seq);
    this.readSentAt.set(channelId, Date.now());
    request(socket, C.markRead, { channelId, seq }, this.requestTimeoutMs)
      .then((ack) => {
        if (!ack.success) this.readSent.delete(channelId);
      })
      .catch(() => this.readSent.delete(channelId));
  }
}
