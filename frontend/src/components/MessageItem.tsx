/**
 * One message: author and time (when it starts a group), reply quote, text or the inline editor, "(edited)",
 * link preview, reactions, delivery mark on own messages, and the actions toolbar (hover or keyboard focus; on a
 * touch screen a tap on the bubble reveals it, as chat apps do: the bubble takes focus, chat.css shows the toolbar).
 */
import { memo } from 'react';
import type { ChatMessage } from '../state/chatMessages.ts';
import { myReaction } from '../state/reactions.ts';
import { formatTime } from '../lib/format.ts';
import { PersonAvatar } from './sidebar/PersonAvatar.tsx';
import { MessageText } from './MessageText.tsx';
import { MessageActions } from './MessageActions.tsx';
import { MessageEditor } from './MessageEditor.tsx';
import { ReactionBar } from './ReactionBar.tsx';
import { LinkPreviewCard } from './LinkPreviewCard.tsx';
import { ReplyQuote } from './ReplyBar.tsx';
import { DeliveryMark } from './DeliveryMark.tsx';
import { MessageAttachment } from './files/MessageAttachment.tsx';
import { useT } from '../i18n/i18n.ts';
import { errorText } from '../i18n/errorText.ts';

/** What a message can do; one stable object for the whole list, so unchanged rows do not re-render. */
export interface MessageHandlers {
  selfId: string | null;
  nameOf(userId: string): string;
  onRetry(clientMessageId: string): void;
  onDiscard(clientMessageId: string): void;
  onReply(message: ChatMessage): void;
  onCopy(message: ChatMessage): void;
  onStartEdit(messageId: string): void;
  onSaveEdit(message: ChatMessage, content: string): void;
  onCancelEdit(): void;
  onDelete(message: ChatMessage): void;
  onReact(message: ChatMessage, emoji: string): void;
  /** the room and token a file attachment loads its signed link with */
  fileAccess?(): { workspaceId: string; userToken: string };
}

interface Props {
  message: ChatMessage;
  showHeader: boolean;
  editing: boolean;
  handlers: MessageHandlers;
  /** just revealed from the search: highlighted briefly */
  highlighted?: boolean;
}

export const MessageItem = memo(function MessageItem({
  message: m,
  showHeader,
  editing,
  handlers: h,
  highlighted = false,
}: Props) {
  const t = useT();
  const common = {
    'data-testid': 'message-item',
    'data-seq': m.seq ?? undefined,
    'data-message-id': m.id ?? undefined,
    'data-client-id': m.clientMessageId,
    'data-status': m.status ?? undefined,
    'data-author': m.authorName,
    'data-highlighted': highlighted ? 'true' : undefined,
  };
  const hl = highlighted ? ' highlighted' : '';
  if (m.type === 'system') {
    return (
      <div className={`message-system${hl}`} {...common}>
        <span>{m.content}</span>
      </div>
    );
  }
  const time = formatTime(m.timestamp);
  const stored = m.id !== null;
  return (
    <div
      className={`message${m.own ? ' own' : ''}${showHeader ? ' first' : ' cont'}${m.status ? ` status-${m.status}` : ''}${editing ? ' editing' : ''}${hl}`}
      {...common}
    >
      {!m.own &&
        (showHeader ? (
          <PersonAvatar name={m.authorName} picture={m.authorPicture} size={34} />
        ) : (
          <span className="avatar-spacer" />
        ))}
      <div className="message-body">
        {showHeader && (
          <div className="message-meta">
            <span className="message-author" data-testid="message-author">
              {m.own ? t('room.message.you') : m.authorName}
            </span>
            <time dateTime={m.timestamp}>{time}</time>
          </div>
        )}
        <div className="bubble-row">
          <div className="bubble" tabIndex={stored ? -1 : undefined}>
            {m.replyTo && <ReplyQuote authorName={m.replyTo.authorName} content={m.replyTo.content} />}
            {m.file && h.fileAccess && <MessageAttachment file={m.file} {...h.fileAccess()} />}
            {editing ? (
              <MessageEditor initial={m.content} onSave={(text) => h.onSaveEdit(m, text)} onCancel={h.onCancelEdit} />
            ) : (
              (!m.file || m.file.caption) && <MessageText content={m.content} />
            )}
            <span className="bubble-foot">
              {m.isEdited && (
                <span className="edited" data-testid="edited-mark">
                  {t('room.message.edited')}
                </span>
              )}
              <time dateTime={m.timestamp} data-testid="message-time">
                {time}
              </time>
              {m.own && <DeliveryMark status={m.status} />}
            </span>
            {m.linkPreview && <LinkPreviewCard preview={m.linkPreview} testId="message-link-preview" />}
          </div>
          {stored && !editing && (
            <MessageActions
              own={m.own}
              myReaction={myReaction(m.reactions, h.selfId)}
              onReact={(emoji) => h.onReact(m, emoji)}
              onReply={() => h.onReply(m)}
              onCopy={() => h.onCopy(m)}
              onEdit={() => h.onStartEdit(m.id!)}
              onDelete={() => h.onDelete(m)}
            />
          )}
        </div>
        <ReactionBar
          reactions={m.reactions}
          selfId={h.selfId}
          nameOf={h.nameOf}
          onToggle={(emoji) => h.onReact(m, emoji)}
          disabled={!stored}
        />
        {m.status === 'failed' && (
          <div className="message-error" role="alert" data-testid="message-error">
            <span>{m.error ? errorText(null, m.error) : t('room.message.notSent')}</span>
            <button type="button" className="link-button" onClick={() => h.onRetry(m.clientMessageId)}>
              {t('room.message.retry')}
            </button>
            <button type="button" className="link-button" onClick={() => h.onDiscard(m.clientMessageId)}>
              {t('room.message.discard')}
            </button>
          </div>
        )}
      </div>
    </div>
  );
});
