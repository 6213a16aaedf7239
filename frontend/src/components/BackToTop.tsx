/** The message list's back-to-top button (shown after BACK_TO_TOP_AFTER_PX of scrolling; docs/product/messages.md M7). */
import { ArrowUpIcon } from './Icons.tsx';

export function BackToTop({ onClick }: { onClick(): void }) {
  return (
    <button type="button" className="back-to-top" onClick={onClick} aria-label="Back to top" data-testid="back-to-top">
      <ArrowUpIcon size={18} />
    </button>
  );
}
