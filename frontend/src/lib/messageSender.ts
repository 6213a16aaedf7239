/**
 * Sending messages (docs/protocol.md P2, P3): a pending copy shows at once, send-message goes out with a
 * client-generated id, a timeout retries with the same id (the server stores it once), and whatever is still
 * pending after a reconnect is resent after the rejoin. RoomSession exposes these as its methods.
 */
import { C, LIMITS } from '@ephemera/proto/client';
import { request, RequestTimeoutError, type RoomSocket } from './socket.ts';
import { newClientMessageId } from './ids.ts';
import type { RoomAction, RoomState } from '../state/roomState.ts';
import { MSG_SEND_FAILED } from './commandTexts.ts';

const SEND_TIMEOUT_MS = 15_000;
const MAX_SEND_ATTEMPTS = 3;

export interface SenderLink {
  state(): RoomState;
  dispatch(action: RoomAction): void;
  /** the connection's socket (joined or not) */
  socket(): RoomSocket | null;
  joined(): boolean;
  stopped(): boolean;
}

/** A reply, a link preview, or an uploaded file (whose message type the server takes from the upload). */
export interface SendExtra {
  replyTo?: { messageId: string } | null;
  linkPreview?: { url: string } | null;
  file?: { id: string; type: 'file' | 'image' | 'video' | 'voice' } | null;
  /** the channel the message belongs to when it is not the current one (an upload that finished after a switch) */
  channelId?: string;
}

export class MessageSender {
  private sendAttempts = new Map<string, number>();

  constructor(private readonly link: SenderLink) {}

  /** Queue a text message in the current channel (optionally a reply, with a link preview); false when nothing was sent. */
  send(content: string, extra: SendExtra = {}): boolean {
    const { user } = this.link.state();
    const currentChannelId = extra.channelId ?? this.link.state().currentChannelId;
    const text = content.trim();
    if (!user || !currentChannelId || !text || text.length > LIMITS.messageMax) return false;
    const clientMessageId = newClientMessageId();
    this.link.dispatch({
      type: 'pendingAdded',
      pending: {
        clientMessageId,
        channelId: currentChannelId,
        content: text,
        createdAt: new Date().toISOString(),
        status: 'sending',
        error: null,
        replyTo: extra.replyTo ?? null,
        linkPreview: extra.linkPreview ?? null,
        file: extra.file ?? null,
      },
    });
    this.transmit(clientMessageId);
    return true;
  }

  retry(clientMessageId: string): void {
    this.sendAttempts.delete(clientMessageId);
    this.link.dispatch({ type: 'pendingStatus', clientMessageId, status: 'sending' });
    this.transmit(clientMessageId);
  }

  discard(clientMessageId: string): void {
    this.sendAttempts.delete(clientMessageId);
    this.link.dispatch({ type: 'pendingRemoved', clientMessageId });
  }

  /** After a rejoin: every message still sending goes out again (same ids). */
  resendPending(): void {
    for (const p of this.link.state().pending) {
      if (p.status !== 'sending') continue;
      this.sendAttempts.delete(p.clientMessageId);
      this.transmit(p.clientMessageId);
    }
  }

  /** Send one pending message; the same clientMessageId every time, so the server stores it once. */
  private transmit(clientMessageId: string): void {
    const pending = this.link.state().pending.find((p) => p.clientMessageId === clientMessageId);
    const socket = this.link.socket();
    if (!pending || pending.status !== 'sending') return;
    if (!socket || !socket.connected || !this.link.joined()) return; // resent after the next rejoin
    const attempt = (this.sendAttempts.get(clientMessageId) ?? 0) + 1;
    this.sendAttempts.set(clientMessageId, attempt);
    const { replyTo, linkPreview, file } = pending;
    request(
      socket,
      C.sendMessage,
      {
        clientMessageId,
        channelId: pending.channelId,
        content: pending.content,
        type: file?.type ?? 'text',
        ...(replyTo ? { replyTo } : {}),
        ...(linkPreview ? { linkPreview } : {}),
        ...(file ? { fileId: file.id } : {}),
      },
      SEND_TIMEOUT_MS,
    )
      .then((ack) => {
        if (ack.success) {
          this.sendAttempts.delete(clientMessageId);
          if (ack.message) this.link.dispatch({ type: 'messagesMerged', messages: [ack.message], source: 'ack' });
          else this.link.dispatch({ type: 'pendingRemoved', clientMessageId });
          return;
        }
        if (ack.code === 'NOT_AUTHENTICATED') return; // the connection was replaced; the rejoin resends it
        this.sendAttempts.delete(clientMessageId);
        this.link.dispatch({
          type: 'pendingStatus',
          clientMessageId,
          status: 'failed',
          error: ack.message || MSG_SEND_FAILED,
        });
      })
      .catch((err) => {
        if (!(err instanceof RequestTimeoutError) || this.link.stopped()) return;
        if (!this.link.joined() || this.link.socket() !== socket || !socket.connected) return; // stays pending until the rejoin
        if (attempt < MAX_SEND_ATTEMPTS) this.transmit(clientMessageId);
        else this.link.dispatch({ type: 'pendingStatus', clientMessageId, status: 'failed', error: MSG_SEND_FAILED });
      });
  }
}
