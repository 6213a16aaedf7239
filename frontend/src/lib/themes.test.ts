import { describe, expect, it } from 'vitest';
import { CUSTOM_THEME_DEFAULTS, THEME_IDS } from '@ephemera/proto/client';
import { applyTheme, colorsOf, normaliseCustomTheme, themeName, themesFor, themeVariables } from './themes.ts';
import { THEMES } from './themePalettes.ts';
import { loadArea, setLocale } from '../i18n/i18n.ts';
import { initialTheme } from '../hooks/useRoomTheme.ts';
import {
  readCustomTheme,
  readPendingExtension,
  readStoredTheme,
  savePendingExtension,
  storeCustomTheme,
  storeTheme,
} from './roomPrefs.ts';

function memoryStore() {
  const m = new Map<string, string>();
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => {
      m.set(k, v);
    },
    removeItem: (k: string) => {
      m.delete(k);
    },
  };
}

describe('themes (docs/product/rooms.md R31)', () => {
  it('has the 11 themes, each with every colour role as a hex colour', () => {
    expect(Object.keys(THEMES)).toEqual([...THEME_IDS]);
    for (const id of THEME_IDS) {
      for (const value of Object.values(colorsOf(id))) expect(value).toMatch(/^#[0-9a-f]{6}$/i);
    }
  });

  it('names each theme in the active language, the brands alike in every language', async () => {
    await setLocale('en', { save: false });
    await loadArea('roomside');
    expect(THEME_IDS.map(themeName)).toEqual([
      'Default',
      'Dark',
      'WhatsApp',
      'Messenger',
      'Slack',
      'Telegram',
      'Discord',
      'Sunset',
      'Forest',
      'Rose Gold',
      'Custom',
    ]);
    await setLocale('de', { save: false });
    expect(themeName('forest')).toBe('Wald');
    expect(themeName('whatsapp')).toBe('WhatsApp');
    await setLocale('en', { save: false });
  });

  it('offers 3 themes on free, 10 on pro, 11 on business', () => {
    const allowed = (t: 'free' | 'pro' | 'business') =>
      themesFor(t)
        .filter((x) => x.allowed)
        .map((x) => x.id);
    expect(allowed('free')).toEqual(['default', 'dark', 'whatsapp']);
    expect(allowed('pro')).toHaveLength(10);
    expect(allowed('pro')).not.toContain('custom');
    expect(allowed('business')).toHaveLength(11);
  });

  it('applies a theme as CSS variables and the default clears them', () => {
    const props = new Map<string, string>();
    const el = {
      style: { setProperty: (n: string, v: string) => props.set(n, v), removeProperty: (n: string) => props.delete(n) },
      dataset: {} as Record<string, string | undefined>,
    };
    applyTheme(el, 'dark');
    expect(props.get('--sent-bg')).toBe(THEMES.dark.colors.sentMessage);
    expect(props.get('--chat-bg')).toBe(THEMES.dark.colors.background);
    expect(el.dataset.theme).toBe('dark');
    applyTheme(el, 'default');
    expect(props.size).toBe(0);
  });

  it('custom: the record over the defaults, its font, malformed fields fall back', () => {
    const custom = {
      ...CUSTOM_THEME_DEFAULTS,
      primaryColor: '#112233',
      chatBackgroundColor: '#445566',
      fontFamily: 'Georgia',
    };
    const vars = themeVariables('custom', custom);
    expect(vars['--primary']).toBe('#112233');
    expect(vars['--chat-bg']).toBe('#445566');
    expect(vars['--font']).toMatch(/^'Georgia'/);
    expect(
      normaliseCustomTheme({ primaryColor: 'red', logoUrl: 'javascript:alert(1)', sentTextColor: '#ABCDEF' }),
    ).toEqual({ ...CUSTOM_THEME_DEFAULTS, sentTextColor: '#ABCDEF' });
  });

  it('stores the theme, the custom record and a pending extension locally', () => {
    const store = memoryStore();
    expect(readStoredTheme(store)).toBe('default');
    storeTheme('forest', store);
    expect(readStoredTheme(store)).toBe('forest');
    store.setItem('theme', 'nonsense');
    expect(readStoredTheme(store)).toBe('default');
    storeCustomTheme({ ...CUSTOM_THEME_DEFAULTS, primaryColor: '#000000' }, store);
    expect(readCustomTheme(store).primaryColor).toBe('#000000');
    expect(readPendingExtension(store)).toBeNull();
    savePendingExtension({ workspaceId: 'w1', roomName: 'team', days: 30, returnUrl: '/team' }, store);
    expect(readPendingExtension(store)).toEqual({ workspaceId: 'w1', roomName: 'team', days: 30, returnUrl: '/team' });
  });

  it('on load: the broadcast theme of the room, else the default', () => {
    expect(initialTheme(null)).toEqual({ themeId: 'default', custom: null });
    expect(
      initialTheme({ themeId: 'slack', customTheme: null, changedBy: 'u', changedByName: 'bob', logoSrc: null }),
    ).toEqual({ themeId: 'slack', custom: null });
    expect(
      initialTheme({
        themeId: 'custom',
        customTheme: { primaryColor: '#010203' },
        changedBy: 'u',
        changedByName: 'bob',
        logoSrc: null,
      }),
    ).toEqual({ themeId: 'custom', custom: { ...CUSTOM_THEME_DEFAULTS, primaryColor: '#010203' } });
    expect(
      initialTheme({ themeId: 'bogus', customTheme: null, changedBy: 'u', changedByName: 'bob', logoSrc: null }),
    ).toEqual({ themeId: 'default', custom: null });
  });
});
