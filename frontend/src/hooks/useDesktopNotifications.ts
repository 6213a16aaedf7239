/**
 * Desktop notifications for messages that arrive while the room is open (docs/product/notifications.md): compares
 * consecutive store states like the notification sound (newIncomingMessages) and shows one notification per
 * message that notifyReason allows; a click opens its conversation.
 */
import { useEffect } from 'react';
import type { RoomSession } from '../lib/session.ts';
import { getSoundEnabled, newIncomingMessages } from '../lib/notificationSound.ts';
import { getNotifyState, notificationContent, notifyReason, showNotification } from '../lib/desktopNotifications.ts';

export function useDesktopNotifications(session: RoomSession): void {
  useEffect(() => {
    let prev = session.store.getState();
    return session.store.subscribe(() => {
      const next = session.store.getState();
      const incoming = newIncomingMessages(prev, next);
      prev = next;
      if (incoming.length === 0 || getNotifyState() !== 'on') return;
      for (const message of incoming) {
        const channel = next.channels.find((c) => c.id === message.channelId);
        const reason = notifyReason({
          message,
          channelType: channel?.type,
          selfId: next.user?.id ?? null,
          selfName: next.user?.username ?? null,
          selfStatus: next.user?.presenceStatus,
          tabVisible: document.visibilityState === 'visible',
          enabled: true,
        });
        if (!reason) continue;
        const author =
          next.workspace?.users.find((u) => u.id === message.authorId)?.username ??
          next.online.find((u) => u.id === message.authorId)?.username ??
          'Someone';
        showNotification(notificationContent(reason, author, channel?.name ?? '', message.content), {
          tag: message.id,
          silent: !getSoundEnabled(),
          onClick: () => session.selectChannel(message.channelId),
        });
      }
    });
  }, [session]);
}
