/** Above the composer while replying: "Replying to {author}", the quoted text (plain, lib/markdown.ts), and a cancel button. */
import { truncate } from '../lib/format.ts';
import { plainText } from '../lib/markdown.ts';
import { CloseIcon } from './Icons.tsx';
import { ReplyIcon } from './ChatIcons.tsx';
import { useT } from '../i18n/i18n.ts';

const QUOTE_PREVIEW_CHARS = 120;

interface Props {
  authorName: string;
  content: string;
  onCancel(): void;
}

export function ReplyBar({ authorName, content, onCancel }: Props) {
  const t = useT();
  return (
    <div className="reply-bar" data-testid="reply-bar">
      <ReplyIcon size={16} />
      <div className="reply-bar-text">
        <span className="reply-bar-title" data-testid="reply-bar-title">
          {t('room.reply.replyingTo', { name: authorName })}
        </span>
        <span className="reply-bar-quote">{truncate(plainText(content), QUOTE_PREVIEW_CHARS)}</span>
      </div>
      <button
        type="button"
        className="icon-button"
        onClick={onCancel}
        aria-label={t('room.reply.cancel')}
        data-testid="reply-cancel"
      >
        <CloseIcon size={16} />
      </button>
    </div>
  );
}

/** The quote inside a reply, as the server stored it. */
export function ReplyQuote({ authorName, content }: { authorName: string; content: string }) {
  return (
    <div className="reply-quote" data-testid="reply-quote">
      <span className="reply-quote-author" data-testid="reply-quote-author">
        {authorName}
      </span>
      <span className="reply-quote-text" data-testid="reply-quote-text">
        {truncate(plainText(content), QUOTE_PREVIEW_CHARS)}
      </span>
    </div>
  );
}
