/**
 * The message list's two floating controls (docs/product/messages.md M7): back to top (after BACK_TO_TOP_AFTER_PX of
 * scrolling) and jump to the latest message (scrolled up from the bottom), with the count of messages that arrived below.
 */
import { ArrowDownIcon, ArrowUpIcon } from './Icons.tsx';

export function BackToTop({ onClick }: { onClick(): void }) {
  return (
    <button type="button" className="back-to-top" onClick={onClick} aria-label="Back to top" data-testid="back-to-top">
      <ArrowUpIcon size={18} />
    </button>
  );
}

export const newMessagesLabel = (n: number) => `${n} new message${n === 1 ? '' : 's'}`;

export function JumpToLatest({ count, onClick }: { count: number; onClick(): void }) {
  const label = count > 0 ? newMessagesLabel(count) : 'Jump to latest';
  return (
    <button
      type="button"
      className="jump-to-latest"
      onClick={onClick}
      data-testid="jump-to-latest"
      data-count={count}
      aria-label={count > 0 ? `Jump to latest: ${label}` : 'Jump to latest message'}
    >
      <ArrowDownIcon size={16} />
      <span data-testid="jump-to-latest-label">{label}</span>
    </button>
  );
}
