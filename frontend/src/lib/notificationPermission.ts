/**
 * The browser's notification permission, read once and then kept current. `Notification.permission` is a
 * synchronous call into the browser: in a busy room it was read for every arriving message and on every render of
 * the sidebar's bell, which cost more of the page's time than drawing the messages (bench:scroll, a profile of
 * 4,000 live messages). The Permissions API says when the reader changes it in the browser's settings; asking
 * (toggleNotifications) reads it again.
 */
type Listener = () => void;

let cached: NotificationPermission | null | undefined;
const listeners = new Set<Listener>();

function read(): NotificationPermission | null {
  return typeof Notification === 'undefined' ? null : Notification.permission;
}

/** null where the browser has no notifications */
export function notificationPermission(): NotificationPermission | null {
  if (cached === undefined) {
    cached = read();
    if (cached !== null && typeof navigator !== 'undefined' && navigator.permissions?.query) {
      navigator.permissions
        .query({ name: 'notifications' })
        .then((status) => {
          status.onchange = refreshNotificationPermission;
        })
        .catch(() => {
          /* no change events: the value read at first stays until the page asks again */
        });
    }
  }
  return cached;
}

/** Read it again (after asking, or when the browser says it changed) and tell the listeners. */
export function refreshNotificationPermission(): void {
  cached = read();
  for (const l of [...listeners]) l();
}

export function onNotificationPermissionChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
