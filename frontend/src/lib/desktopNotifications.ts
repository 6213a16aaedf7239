/**
 * Desktop notifications (docs/product/notifications.md N1-N5): a direct message, or a message that mentions the
 * reader (mentionsMember, lib/mentions.ts), shows a system notification while the tab is hidden, once the reader
 * turned them on from the sidebar's control (the browser asks for permission then, never on load). Never for own or
 * system messages, never while the reader is Busy; silent when the notification sound is off. The text is the
 * message's plain text (plainText, lib/markdown.ts).
 *
 * Pure parts (unit-tested): notifyReason, notificationContent. The rest touches the browser. Loaded on demand (by
 * the sidebar's bell, and by the first message that arrives with the browser's permission granted), outside the room
 * page's initial code (performance.md PF17).
 */
import type { Message, PresenceStatus } from '@ephemera/proto';
import type { RoomState } from '../state/roomState.ts';
import { getSoundEnabled } from './notificationSound.ts';
import { mentionsMember } from './mentions.ts';
import { plainText } from './markdown.ts';
import { t } from '../i18n/i18n.ts';
import {
  notificationPermission,
  onNotificationPermissionChange,
  refreshNotificationPermission,
} from './notificationPermission.ts';

// ---- the decision ----

export interface NotifyInput {
  message: Pick<Message, 'authorId' | 'type' | 'content'>;
  channelType: 'topic' | 'dm' | undefined;
  selfId: string | null;
  selfName: string | null;
  selfStatus: PresenceStatus | undefined;
  tabVisible: boolean;
  /** turned on from the control, and the browser's permission granted */
  enabled: boolean;
}

export type NotifyReason = 'dm' | 'mention';

export function notifyReason(i: NotifyInput): NotifyReason | null {
  if (!i.enabled || i.tabVisible || i.selfStatus === 'busy') return null;
  if (i.message.type === 'system' || i.selfId === null || i.message.authorId === i.selfId) return null;
  if (i.channelType === 'dm') return 'dm';
  if (i.selfName && mentionsMember(i.message.content, i.selfName)) return 'mention';
  return null;
}

/** A notification's body holds at most this many characters of the message (then "…"). */
export const NOTIFICATION_BODY_MAX = 160;

export function notificationContent(
  reason: NotifyReason,
  authorName: string,
  channelName: string,
  content: string,
): { title: string; body: string } {
  const text = plainText(content).replace(/\s+/g, ' ').trim();
  const body = text.length > NOTIFICATION_BODY_MAX ? `${text.slice(0, NOTIFICATION_BODY_MAX - 1)}…` : text;
  // a DM: the sender's name; a mention: the sender in the channel (in the active language)
  const title =
    reason === 'dm' ? authorName : t('roomside.notify.mentionTitle', { author: authorName, channel: channelName });
  return { title, body };
}

// ---- the reader's choice (localStorage) and the browser's permission ----

/** localStorage key: "true" once turned on from the control, "false" when turned off; absent = off. */
export const NOTIFY_PREF_KEY = 'desktopNotifications';

export type NotifyState = 'unsupported' | 'blocked' | 'off' | 'on';

const listeners = new Set<() => void>();

function readPref(): boolean {
  try {
    return globalThis.localStorage?.getItem(NOTIFY_PREF_KEY) === 'true';
  } catch {
    return false;
  }
}

function writePref(on: boolean): void {
  try {
    globalThis.localStorage?.setItem(NOTIFY_PREF_KEY, String(on));
  } catch {
    /* storage disabled: the choice lasts for this page */
  }
  memo = on;
  for (const l of [...listeners]) l();
}

let memo: boolean | null = null;

/** For useSyncExternalStore. */
export function getNotifyState(): NotifyState {
  const p = notificationPermission();
  if (p === null) return 'unsupported';
  if (p === 'denied') return 'blocked';
  memo ??= readPref();
  return memo && p === 'granted' ? 'on' : 'off';
}

export function subscribeNotifyState(listener: () => void): () => void {
  listeners.add(listener);
  const off = onNotificationPermissionChange(listener);
  return () => {
    listeners.delete(listener);
    off();
  };
}

/** The control's click: off asks the browser's permission (if not yet given) and turns them on; on turns them off. */
export async function toggleNotifications(): Promise<void> {
  const state = getNotifyState();
  if (state === 'unsupported' || state === 'blocked') return;
  if (state === 'on') return writePref(false);
  const answer =
    notificationPermission() === 'granted' ? 'granted' : await Notification.requestPermission().catch(() => 'denied');
  refreshNotificationPermission();
  if (answer === 'granted') writePref(true);
  else for (const l of [...listeners]) l(); // refused: the control shows it blocked
}

/** Show one; a click brings the tab forward and opens the conversation. Never throws. */
export function showNotification(
  content: { title: string; body: string },
  opts: { tag: string; silent: boolean; onClick(): void },
): void {
  try {
    const n = new Notification(content.title, {
      body: content.body,
      tag: opts.tag,
      silent: opts.silent,
      icon: '/icons/icon-192.png',
    });
    n.onclick = () => {
      window.focus();
      opts.onClick();
      n.close();
    };
  } catch {
    /* some browsers only show notifications from a service worker: none then */
  }
}

/** The messages that just arrived (newIncomingMessages): one notification for each that notifyReason allows. */
export function notifyArrivals(
  incoming: readonly Message[],
  state: RoomState,
  tabVisible: boolean,
  open: (channelId: string) => void,
): void {
  if (getNotifyState() !== 'on') return;
  for (const message of incoming) {
    const channel = state.channels.find((c) => c.id === message.channelId);
    const reason = notifyReason({
      message,
      channelType: channel?.type,
      selfId: state.user?.id ?? null,
      selfName: state.user?.username ?? null,
      selfStatus: state.user?.presenceStatus,
      tabVisible,
      enabled: true,
    });
    if (!reason) continue;
    const author =
      state.workspace?.users.find((u) => u.id === message.authorId)?.username ??
      state.online.find((u) => u.id === message.authorId)?.username ??
      t('roomside.notify.nameless');
    showNotification(notificationContent(reason, author, channel?.name ?? '', message.content), {
      tag: message.id,
      silent: !getSoundEnabled(),
      onClick: () => open(message.channelId),
    });
  }
}
