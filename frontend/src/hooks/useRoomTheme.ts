/**
 * The theme the room page shows (docs/product/rooms.md R31-R32): on load a stored non-default theme
 * resets to default unless the room has a broadcast theme (Workspace.theme), which applies; a theme-changed from
 * the room applies for everyone; Apply Theme applies and stores the user's choice; a theme clicked in Choose Theme
 * previews until applied or cancelled. Applied as CSS variables on the document root; cleared when the room closes.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { CustomTheme, ThemeId } from '@ephemera/proto/client';
import type { Workspace } from '@ephemera/proto';
import { applyTheme, isThemeId, normaliseCustomTheme } from '../lib/themes.ts';
import { readStoredTheme, storeCustomTheme, storeTheme } from '../lib/roomPrefs.ts';

export interface AppliedTheme {
  themeId: ThemeId;
  custom: CustomTheme | null;
}

const DEFAULT: AppliedTheme = { themeId: 'default', custom: null };

function fromRoom(theme: Workspace['theme'] | null | undefined): AppliedTheme | null {
  if (!theme || !isThemeId(theme.themeId)) return null;
  return {
    themeId: theme.themeId,
    custom: theme.themeId === 'custom' ? normaliseCustomTheme(theme.customTheme) : null,
  };
}

/** What shows on load: the room's broadcast theme, else the default (a stored non-default choice is reset). */
export function initialTheme(roomTheme: Workspace['theme'] | null | undefined): AppliedTheme {
  const room = fromRoom(roomTheme);
  if (room) return room;
  if (readStoredTheme() !== 'default') storeTheme('default');
  return DEFAULT;
}

const keyOf = (t: Workspace['theme'] | null | undefined) =>
  t ? `${t.themeId}|${t.changedBy}|${JSON.stringify(t.customTheme)}` : '';

export function useRoomTheme(roomTheme: Workspace['theme'] | null | undefined) {
  const [active, setActive] = useState<AppliedTheme>(() => initialTheme(roomTheme));
  const [preview, setPreview] = useState<AppliedTheme | null>(null);
  const lastKey = useRef(keyOf(roomTheme));

  // the room's theme changed (joined with one, or theme-changed): it applies for everyone
  const key = keyOf(roomTheme);
  useEffect(() => {
    if (key === lastKey.current) return;
    lastKey.current = key;
    const room = fromRoom(roomTheme);
    if (!room) return;
    setActive(room);
    storeTheme(room.themeId);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  useEffect(() => {
    const shown = preview ?? active;
    applyTheme(document.documentElement, shown.themeId, shown.custom);
  }, [active, preview]);
  useEffect(() => () => applyTheme(document.documentElement, 'default'), []);

  /** Apply Theme: shown and stored locally (broadcasting is the caller's, for admins). */
  const choose = useCallback((t: AppliedTheme) => {
    setPreview(null);
    setActive(t);
    storeTheme(t.themeId);
    if (t.themeId === 'custom' && t.custom) storeCustomTheme(t.custom);
  }, []);

  return { active, preview, setPreview, choose };
}

export type RoomThemeControl = ReturnType<typeof useRoomTheme>;
