/** Who is typing, as the chat shows it (the entries are RoomState.typing, kept by peopleSlice.ts). */
import { LIMITS } from '@ephemera/proto/client';
import type { RoomState } from './roomState.ts';
import { t } from '../i18n/i18n.ts';

/** Names typing in a channel (not me, not expired), in the order they started. */
export function typingNames(
  typing: RoomState['typing'],
  channelId: string | null,
  selfId: string | null | undefined,
  now: number,
): string[] {
  const typers = channelId ? typing[channelId] : undefined;
  if (!typers) return [];
  return Object.entries(typers)
    .filter(([userId, e]) => userId !== selfId && now - e.at < LIMITS.typingExpireMs)
    .sort(([, a], [, b]) => a.at - b.at)
    .map(([, e]) => e.username || t('room.typing.nameless'));
}

/**
 * The chat's line in the active language: "{name} is typing...", two names, or several. `others`: typers a big room does not name (the
 * server forwards a few and counts the rest; onlineSlice.ts), who make it several.
 */
export function typingText(names: readonly string[], others = 0): string {
  if (others > 0 && names.length + others > 1) return t('room.typing.several');
  if (names.length === 0) return others > 0 ? t('room.typing.someone') : '';
  if (names.length === 1) return t('room.typing.one', { name: names[0]! });
  if (names.length === 2) return t('room.typing.two', { first: names[0]!, second: names[1]! });
  return t('room.typing.several');
}
