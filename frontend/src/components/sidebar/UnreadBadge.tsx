/**
 * A conversation row's unread badge (99+ above 99). Keyed by the count, so every change mounts it anew and its CSS
 * animation (sidebar.css .badge-animated: a short pop with animation-delay 500 ms, none with prefers-reduced-motion)
 * starts 0.5 s after the count changed.
 */
import { formatBadge } from '../../lib/format.ts';

export function UnreadBadge({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <span key={count} className="badge-unread badge-animated" data-testid="unread-badge" aria-label={`${count} unread`}>
      {formatBadge(count)}
    </span>
  );
}

/** Beside the unread badge: how many of the unread messages mention the reader ("@3"; docs/product/messages.md). */
export function MentionBadge({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <span
      key={count}
      className="badge-unread badge-mention badge-animated"
      data-testid="mention-badge"
      aria-label={`${count} ${count === 1 ? 'mention' : 'mentions'}`}
    >
      @{formatBadge(count)}
    </span>
  );
}
