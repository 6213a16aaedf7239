/**
 * Desktop notifications for messages that arrive while the room is open (docs/product/notifications.md): compares
 * consecutive store states like the notification sound (newIncomingMessages). Only with the browser's permission
 * granted is the deciding code (lib/desktopNotifications.ts) loaded and handed the new messages; a click on a
 * notification opens its conversation.
 */
import { useEffect } from 'react';
import type { RoomSession } from '../lib/session.ts';
import { newIncomingMessages } from '../lib/notificationSound.ts';
import { notificationPermission } from '../lib/notificationPermission.ts';

const permitted = () => notificationPermission() === 'granted';

export function useDesktopNotifications(session: RoomSession): void {
  useEffect(() => {
    let prev = session.store.getState();
    return session.store.subscribe(() => {
      const next = session.store.getState();
      const incoming = newIncomingMessages(prev, next);
      prev = next;
      if (incoming.length === 0 || !permitted()) return;
      const tabVisible = document.visibilityState === 'visible'; // as the message arrived, not once the code loaded
      void import('../lib/desktopNotifications.ts').then((m) =>
        m.notifyArrivals(incoming, next, tabVisible, (id) => session.selectChannel(id)),
      );
    });
  }, [session]);
}
