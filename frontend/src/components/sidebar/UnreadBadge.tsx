/**
 * A conversation row's unread badge (99+ above 99). Keyed by the count, so every change mounts it anew and its CSS
 * animation (sidebar.css .badge-animated: a short pop with animation-delay 500 ms, none with prefers-reduced-motion)
 * starts 0.5 s after the count changed.
 */
import { formatBadge } from '../../lib/format.ts';
import { useT } from '../../i18n/i18n.ts';

export function UnreadBadge({ count }: { count: number }) {
  const t = useT();
  if (count <= 0) return null;
  return (
    <span
      key={count}
      className="badge-unread badge-animated"
      data-testid="unread-badge"
      aria-label={t('roomside.badge.unread', { count })}
    >
      {formatBadge(count)}
    </span>
  );
}

/** Beside the unread badge: how many of the unread messages mention the reader ("@3"; docs/product/messages.md). */
export function MentionBadge({ count }: { count: number }) {
  const t = useT();
  if (count <= 0) return null;
  return (
    <span
      key={count}
      className="badge-unread badge-mention badge-animated"
      data-testid="mention-badge"
      aria-label={t('roomside.badge.mentions', { count })}
    >
      @{formatBadge(count)}
    </span>
  );
}
