/**
 * Local browser storage of room administration (docs/product/rooms.md R37): the theme,
 * the custom theme record, and pendingExtension {workspaceId, roomName, days, returnUrl} kept while a guest
 * registers before extending a room.
 */
import type { CustomTheme, ThemeId } from '@ephemera/proto/client';
import { isThemeId, normaliseCustomTheme } from './themes.ts';
import type { KeyValueStore } from './storage.ts';
import { ACCOUNT_KEY } from './account.ts';

export const THEME_KEY = 'theme';
export const CUSTOM_THEME_KEY = 'customTheme';
export const PENDING_EXTENSION_KEY = 'pendingExtension';

export interface PendingExtension {
  workspaceId: string;
  roomName: string;
  days: 7 | 30;
  returnUrl: string;
}

function defaultStore(): KeyValueStore | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}
function get(key: string, store: KeyValueStore | null): string | null {
  try {
    return store?.getItem(key) ?? null;
  } catch {
    return null;
  }
}
function set(key: string, value: string, store: KeyValueStore | null): void {
  try {
    store?.setItem(key, value);
  } catch {
    /* quota or disabled: the choice lasts for this page */
  }
}

export function readStoredTheme(store = defaultStore()): ThemeId {
  const v = get(THEME_KEY, store);
  return isThemeId(v) ? v : 'default';
}

export function storeTheme(themeId: ThemeId, store = defaultStore()): void {
  set(THEME_KEY, themeId, store);
}

export function readCustomTheme(store = defaultStore()): CustomTheme {
  const raw = get(CUSTOM_THEME_KEY, store);
  try {
    return normaliseCustomTheme(raw ? JSON.parse(raw) : null);
  } catch {
    return normaliseCustomTheme(null);
  }
}

export function storeCustomTheme(theme: CustomTheme, store = defaultStore()): void {
  set(CUSTOM_THEME_KEY, JSON.stringify(theme), store);
}

export function savePendingExtension(p: PendingExtension, store = defaultStore()): void {
  set(PENDING_EXTENSION_KEY, JSON.stringify(p), store);
}

export function readPendingExtension(store = defaultStore()): PendingExtension | null {
  const raw = get(PENDING_EXTENSION_KEY, store);
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<PendingExtension>;
    if (typeof v.workspaceId !== 'string' || typeof v.roomName !== 'string' || (v.days !== 7 && v.days !== 30))
      return null;
    return {
      workspaceId: v.workspaceId,
      roomName: v.roomName,
      days: v.days,
      returnUrl: typeof v.returnUrl === 'string' ? v.returnUrl : '/',
    };
  } catch {
    return null;
  }
}

export function hasAccountSession(store = defaultStore()): boolean {
  const raw = get(ACCOUNT_KEY, store); // lib/account.ts's session record; a room's guest has none
  if (!raw) return false;
  try {
    return typeof (JSON.parse(raw) as { token?: unknown }).token === 'string';
  } catch {
    return false;
  }
}
