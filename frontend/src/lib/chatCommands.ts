/**
 * The chat's commands and live events (docs/product/messages.md M3-M5, M11, M16): edit, delete, react, typing, link
 * previews; message-edited, message-deleted, reaction-added, user-typing, user-stopped-typing into the room store.
 * RoomSession owns one (session.chat) and lends it its socket while joined; nothing here touches the DOM.
 */
import { C, S, LINK_PREVIEW_PATH } from '@ephemera/proto/client';
import type { LinkPreview } from '@ephemera/proto';
import { request, type RoomSocket } from './socket.ts';
import type { RoomAction, RoomState } from '../state/roomState.ts';
import { toggleReaction } from '../state/reactions.ts';
import { MSG_DELETE_FAILED, MSG_EDIT_FAILED, MSG_REACTION_FAILED } from './commandTexts.ts';

const REQUEST_TIMEOUT_MS = 15_000;

export interface ChatHost {
  /** the connection, only while join-workspace has succeeded on it */
  socket(): RoomSocket | null;
  state(): RoomState;
  dispatch(action: RoomAction): void;
  workspaceId(): string;
  userToken(): string;
}

export type PreviewResult = { ok: true; preview: LinkPreview } | { ok: false; message: string };

export class ChatCommands {
  constructor(private readonly host: ChatHost) {}

  /** Live events of the chat; called once per connection by the session. */
  attach(socket: RoomSocket): void {
    // a late event of a previous session's room must not leak into this one
    const ours = (p: { workspaceId?: string } | null | undefined) =>
      Boolean(p) && (!p!.workspaceId || p!.workspaceId === this.host.workspaceId());
    socket.on(S.messageEdited, (p) => {
      if (!ours(p) || !p.messageId || !p.channelId || typeof p.content !== 'string') return;
      this.host.dispatch({
        type: 'messageEdited',
        channelId: p.channelId,
        messageId: p.messageId,
        content: p.content,
        editedAt: p.editedAt ?? null,
      });
    });
    socket.on(S.messageDeleted, (p) => {
      if (ours(p) && p.messageId && p.channelId)
        this.host.dispatch({ type: 'messageDeleted', channelId: p.channelId, messageId: p.messageId });
    });
    socket.on(S.reactionAdded, (p) => {
      if (ours(p) && p.messageId && p.channelId && p.reactions && typeof p.reactions === 'object') {
        this.host.dispatch({
          type: 'reactionsChanged',
          channelId: p.channelId,
          messageId: p.messageId,
          reactions: p.reactions,
        });
      }
    });
    socket.on(S.userTyping, (p) => {
      if (ours(p) && p.userId && p.channelId) {
        this.host.dispatch({
          type: 'typingStarted',
          channelId: p.channelId,
          userId: p.userId,
          username: p.username ?? '', // a nameless typist is named in the active language (state/typing.ts)
          now: Date.now(),
        });
      }
    });
    socket.on(S.userStoppedTyping, (p) => {
      if (ours(p) && p.userId && p.channelId)
        this.host.dispatch({ type: 'typingStopped', channelId: p.channelId, userId: p.userId });
    });
  }

  private notice(message: string): void {
    this.host.dispatch({ type: 'notice', message });
  }

  /** Inline edit: trimmed; empty or unchanged is not sent. Resolves true when the server stored it. */
  async editMessage(channelId: string, messageId: string, newContent: string): Promise<boolean> {
    const text = newContent.trim();
    const current = this.host.state().messages[channelId]?.find((m) => m.id === messageId);
    if (!text || !current || current.content === text) return false;
    const socket = this.host.socket();
    if (!socket) {
      this.notice(MSG_EDIT_FAILED);
      return false;
    }
    try {
      const ack = await request(
        socket,
        C.editMessage,
        { messageId, newContent: text, workspaceId: this.host.workspaceId() },
        REQUEST_TIMEOUT_MS,
      );
      if (!ack.success) {
        this.notice(MSG_EDIT_FAILED);
        return false;
      }
      const m = ack.message;
      this.host.dispatch({
        type: 'messageEdited',
        channelId,
        messageId,
        content: m?.content ?? text,
        editedAt: m?.editedAt ?? null,
      });
      return true;
    } catch {
      this.notice(MSG_EDIT_FAILED);
      return false;
    }
  }

  async deleteMessage(channelId: string, messageId: string): Promise<boolean> {
    const socket = this.host.socket();
    if (!socket) {
      this.notice(MSG_DELETE_FAILED);
      return false;
    }
    try {
      const ack = await request(
        socket,
        C.deleteMessage,
        { messageId, workspaceId: this.host.workspaceId() },
        REQUEST_TIMEOUT_MS,
      );
      if (!ack.success) {
        this.notice(MSG_DELETE_FAILED);
        return false;
      }
      this.host.dispatch({ type: 'messageDeleted', channelId, messageId });
      return true;
    } catch {
      this.notice(MSG_DELETE_FAILED);
      return false;
    }
  }

  /** Toggle or move my reaction: shown at once, then the server's map replaces it (or the old one comes back). */
  async react(channelId: string, messageId: string, emoji: string): Promise<boolean> {
    const state = this.host.state();
    const me = state.user;
    const message = state.messages[channelId]?.find((m) => m.id === messageId);
    const socket = this.host.socket();
    if (!me || !message || !socket) return false;
    const before = message.reactions ?? {};
    const optimistic = toggleReaction(before, me.id, emoji);
    this.host.dispatch({ type: 'reactionsChanged', channelId, messageId, reactions: optimistic });
    const revert = () => {
      const now = this.host.state().messages[channelId]?.find((m) => m.id === messageId);
      // only undo our own guess: a newer map from the server stays
      if (now && JSON.stringify(now.reactions) === JSON.stringify(optimistic)) {
        this.host.dispatch({ type: 'reactionsChanged', channelId, messageId, reactions: before });
      }
    };
    try {
      const ack = await request(
        socket,
        C.addReaction,
        { messageId, emoji, workspaceId: this.host.workspaceId() },
        REQUEST_TIMEOUT_MS,
      );
      if (!ack.success) {
        revert();
        this.notice(ack.message || MSG_REACTION_FAILED);
        return false;
      }
      if (ack.reactions)
        this.host.dispatch({ type: 'reactionsChanged', channelId, messageId, reactions: ack.reactions });
      return true;
    } catch {
      revert();
      this.notice(MSG_REACTION_FAILED);
      return false;
    }
  }

  /** typing-start / typing-stop; best effort (a lost one is repaired by the refresh or the receiver's expiry). */
  typing(channelId: string, typing: boolean): void {
    const socket = this.host.socket();
    if (!socket) return;
    request(socket, typing ? C.typingStart : C.typingStop, { channelId }, REQUEST_TIMEOUT_MS).catch(() => {});
  }

  /** POST /api/link-preview/fetch {url} with the member's room token (docs/protocol.md). */
  async fetchLinkPreview(url: string, signal?: AbortSignal): Promise<PreviewResult> {
    try {
      const res = await fetch(LINK_PREVIEW_PATH, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${this.host.userToken()}` },
        body: JSON.stringify({ url }),
        signal,
      });
      const body: unknown = await res.json().catch(() => null);
      if (!res.ok) {
        const message =
          body && typeof body === 'object' && 'message' in body && typeof body.message === 'string'
            ? body.message
            : 'No preview';
        return { ok: false, message };
      }
      return isLinkPreview(body) ? { ok: true, preview: body } : { ok: false, message: 'No preview' };
    } catch (err) {
      if (signal?.aborted) throw err;
      return { ok: false, message: 'No preview' };
    }
  }
}

const PREVIEW_TEXT_FIELDS = [
  'title',
  'description',
  'image',
  'thumbnail',
  'author',
  'siteName',
  'postId',
  'videoId',
] as const;

/** The server's preview answer, checked by hand: the browser bundle carries no zod (proto/src/client.ts). */
export function isLinkPreview(body: unknown): body is LinkPreview {
  if (!body || typeof body !== 'object') return false;
  const p = body as Record<string, unknown>;
  return (
    (p.type === 'youtube' || p.type === 'instagram' || p.type === 'other') &&
    typeof p.url === 'string' &&
    PREVIEW_TEXT_FIELDS.every((k) => p[k] === null || typeof p[k] === 'string')
  );
}
