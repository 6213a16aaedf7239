/**
 * The message list's two floating controls (docs/product/messages.md M7): back to top (after BACK_TO_TOP_AFTER_PX of
 * scrolling) and jump to the latest message (scrolled up from the bottom), with the count of messages that arrived below.
 */
import { ArrowDownIcon, ArrowUpIcon } from './Icons.tsx';
import { useT } from '../i18n/i18n.ts';

export function BackToTop({ onClick }: { onClick(): void }) {
  const t = useT();
  return (
    <button
      type="button"
      className="back-to-top"
      onClick={onClick}
      aria-label={t('common.messages.backToTop')}
      data-testid="back-to-top"
    >
      <ArrowUpIcon size={18} />
    </button>
  );
}

export function JumpToLatest({ count, onClick }: { count: number; onClick(): void }) {
  const t = useT();
  const label = count > 0 ? t('common.messages.newCount', { count }) : t('common.messages.jumpToLatest');
  return (
    <button
      type="button"
      className="jump-to-latest"
      onClick={onClick}
      data-testid="jump-to-latest"
      data-count={count}
      aria-label={
        count > 0 ? t('common.messages.jumpToLatestWith', { label }) : t('common.messages.jumpToLatestMessage')
      }
    >
      <ArrowDownIcon size={16} />
      <span data-testid="jump-to-latest-label">{label}</span>
    </button>
  );
}
