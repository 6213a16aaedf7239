/**
 * "bob changed the room theme to Forest": an info toast (the app's Toast, 4 s) when another member broadcasts a theme
 * while the room is open. It compares consecutive store states: the first join (no workspace before) and a rejoin
 * with the same theme announce nothing.
 */
import { useEffect } from 'react';
import type { RoomSession } from '../lib/session.ts';
import type { RoomState } from '../state/roomState.ts';
import { isThemeId, themeName } from '../lib/themes.ts';
import { t as translate } from '../i18n/i18n.ts';
import { useToast } from '../components/overlays/Toast.tsx';

const keyOf = (s: RoomState) => {
  const t = s.workspace?.theme;
  return t ? `${t.themeId}|${t.changedBy}|${JSON.stringify(t.customTheme)}` : '';
};

/** The announcement for a change from prev to next, or null. */
export function themeAnnouncement(prev: RoomState, next: RoomState): string | null {
  const theme = next.workspace?.theme;
  if (!prev.workspace || !theme || !isThemeId(theme.themeId) || keyOf(prev) === keyOf(next)) return null;
  if (theme.changedBy === next.user?.id) return null;
  const themeLabel = themeName(theme.themeId);
  return theme.changedByName
    ? translate('roomside.theme.changedBy', { name: theme.changedByName, theme: themeLabel })
    : translate('roomside.theme.changedByAdmin', { theme: themeLabel });
}

export function useThemeAnnouncement(session: RoomSession): void {
  const toast = useToast();
  useEffect(() => {
    let prev = session.store.getState();
    return session.store.subscribe(() => {
      const next = session.store.getState();
      const said = themeAnnouncement(prev, next);
      prev = next;
      if (said) toast.show({ type: 'info', message: said, testId: 'theme-toast' });
    });
  }, [session, toast]);
}
