/**
 * "bob changed the room theme to Forest": an info toast (the app's Toast, 4 s) when another member broadcasts a theme
 * while the room is open. It compares consecutive store states: the first join (no workspace before) and a rejoin
 * with the same theme announce nothing.
 */
import { useEffect } from 'react';
import type { RoomSession } from '../lib/session.ts';
import type { RoomState } from '../state/roomState.ts';
import { THEMES, isThemeId } from '../lib/themes.ts';
import { useToast } from '../components/overlays/Toast.tsx';

const keyOf = (s: RoomState) => {
  const t = s.workspace?.theme;
  return t ? `${t.themeId}|${t.changedBy}|${JSON.stringify(t.customTheme)}` : '';
};

/** The announcement for a change from prev to next, or null. */
export function themeAnnouncement(prev: RoomState, next: RoomState): string | null {
  const t = next.workspace?.theme;
  if (!prev.workspace || !t || !isThemeId(t.themeId) || keyOf(prev) === keyOf(next)) return null;
  if (t.changedBy === next.user?.id) return null;
  return `${t.changedByName || 'An admin'} changed the room theme to ${THEMES[t.themeId].name}`;
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
