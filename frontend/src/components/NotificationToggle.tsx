import { useSyncExternalStore } from 'react';
import { getNotifyState, subscribeNotifyState, toggleNotifications } from '../lib/desktopNotifications.ts';
import { useT, type MessageId } from '../i18n/i18n.ts';

const HINT = {
  off: 'roomside.notify.turnOn',
  on: 'roomside.notify.on',
  blocked: 'roomside.notify.blocked',
} as const satisfies Record<string, MessageId>;

/**
 * Sidebar header toggle for desktop notifications (docs/product/notifications.md N1): the first click asks the
 * browser's permission; blocked in the browser's settings, it says so. Not shown where notifications do not exist.
 */
export function NotificationToggle() {
  const t = useT();
  const state = useSyncExternalStore(subscribeNotifyState, getNotifyState, () => 'unsupported' as const);
  if (state === 'unsupported') return null;
  const on = state === 'on';
  return (
    <button
      type="button"
      className="icon-button icon-button-dark notification-toggle"
      aria-label={t('roomside.notify.label')}
      title={t(HINT[state])}
      aria-pressed={on}
      aria-disabled={state === 'blocked'}
      data-testid="notification-toggle"
      data-state={state}
      onClick={() => void toggleNotifications()}
    >
      <svg
        width={18}
        height={18}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
      >
        <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
        <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
        {!on && <path d="m3 3 18 18" />}
      </svg>
    </button>
  );
}
