import { memo } from 'react';
import type { DisplayMessage } from '../state/selectors.ts';
import { formatTime } from '../lib/format.ts';
import { Avatar } from './Avatar.tsx';
import { MessageText } from './MessageText.tsx';
import { AlertIcon, CheckIcon, ClockIcon } from './Icons.tsx';

interface Props {
  message: DisplayMessage;
  showHeader: boolean;
  onRetry(clientMessageId: string): void;
  onDiscard(clientMessageId: string): void;
}

function StatusMark({ status }: { status: DisplayMessage['status'] }) {
  if (status === 'sending') return <span className="message-status" title="Sending" aria-label="Sending"><ClockIcon size={12} /></span>;
  if (status === 'sent') return <span className="message-status" title="Sent" aria-label="Sent"><CheckIcon size={12} /></span>;
  if (status === 'failed') return <span className="message-status failed" title="Not sent" aria-label="Not sent"><AlertIcon size={12} /></span>;
  return null;
}

export const MessageItem = memo(function MessageItem({ message: m, showHeader, onRetry, onDiscard }: Props) {
  const common = {
    'data-testid': 'message-item',
    'data-seq': m.seq ?? undefined,
    'data-message-id': m.id ?? undefined,
    'data-client-id': m.clientMessageId,
    'data-status': m.status ?? undefined,
    'data-author': m.authorName,
  };
  if (m.type === 'system') {
    return <div className="message-system" {...common}><span>{m.content}</span></div>;
  }
  const time = formatTime(m.timestamp);
  return (
    <div className={`message${m.own ? ' own' : ''}${showHeader ? ' first' : ' cont'}${m.status ? ` status-${m.status}` : ''}`} {...common}>
      {!m.own && (showHeader ? <Avatar name={m.authorName} size={34} /> : <span className="avatar-spacer" />)}
      <div className="message-body">
        {showHeader && (
          <div className="message-meta">
            <span className="message-author" data-testid="message-author">{m.own ? 'You' : m.authorName}</span>
            <time dateTime={m.timestamp}>{time}</time>
          </div>
        )}
        <div className="bubble">
          <MessageText content={m.content} />
          <span className="bubble-foot">
            {m.isEdited && <span className="edited">edited</span>}
            <time dateTime={m.timestamp} data-testid="message-time">{time}</time>
            {m.own && <StatusMark status={m.status} />}
          </span>
        </div>
        {m.status === 'failed' && (
          <div className="message-error" role="alert" data-testid="message-error">
            <span>{m.error ?? 'Message could not be sent'}</span>
            <button type="button" className="link-button" onClick={() => onRetry(m.clientMessageId)}>Retry</button>
            <button type="button" className="link-button" onClick={() => onDiscard(m.clientMessageId)}>Discard</button>
          </div>
        )}
      </div>
    </div>
  );
});
