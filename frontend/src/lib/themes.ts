/**
 * The 11 themes (docs/product/rooms.md R31): their names (from the catalog) and colour sets (themePalettes.ts),
 * applied as the CSS variables every colour of styles.css comes from. Which themes a tier may use is proto's
 * entitlement table (themeAllowed); the custom theme (business) is the room's CustomTheme record on top of the
 * default colours, its button label and every theme's link colour picked for contrast (colorContrast.ts).
 */
import {
  CUSTOM_THEME_DEFAULTS,
  THEME_IDS,
  themeAllowed,
  type CustomTheme,
  type ThemeId,
  type Tier,
} from '@ephemera/proto/client';
import { t, type MessageId } from '../i18n/i18n.ts';
import { LIGHT_BASE, THEMES, type ThemeColors } from './themePalettes.ts';
import { linkColorOf, readableTextOn } from './colorContrast.ts';

export const FREE_THEME_COUNT = THEME_IDS.filter((id) => themeAllowed('free', id)).length;

export const isThemeId = (v: unknown): v is ThemeId =>
  typeof v === 'string' && (THEME_IDS as readonly string[]).includes(v);

/** A custom record with every field present and well-formed (anything else falls back to the default). */
export function normaliseCustomTheme(raw: unknown): CustomTheme {
  const out: CustomTheme = { ...CUSTOM_THEME_DEFAULTS };
  if (!raw || typeof raw !== 'object') return out;
  const r = raw as Record<string, unknown>;
  for (const key of Object.keys(out) as (keyof CustomTheme)[]) {
    const v = r[key];
    if (typeof v !== 'string') continue;
    if (key === 'logoUrl') {
      if (v === '' || /^https:\/\/[^\s"'<>]+$/.test(v)) out.logoUrl = v;
      continue;
    }
    if (key === 'fontFamily') {
      out.fontFamily = v;
      continue;
    }
    if (/^#[0-9a-f]{6}$/i.test(v)) out[key] = v;
  }
  return out;
}

/** The colours of a theme; custom is the default set with the record's colours on top (button labels readable on its button). */
export function colorsOf(themeId: ThemeId, custom: CustomTheme | null = null): ThemeColors {
  if (themeId !== 'custom') return THEMES[themeId].colors;
  const c = normaliseCustomTheme(custom);
  return {
    ...LIGHT_BASE,
    primary: c.primaryColor,
    button: c.primaryColor,
    buttonHover: c.primaryColor,
    buttonText: readableTextOn(c.primaryColor),
    sentMessage: c.sentMessageColor,
    receivedMessage: c.receivedMessageColor,
    sentText: c.sentTextColor,
    receivedText: c.receivedTextColor,
    background: c.chatBackgroundColor,
  };
}

/** CSS variable -> value for a theme (the names styles.css reads). */
export function themeVariables(themeId: ThemeId, custom: CustomTheme | null = null): Record<string, string> {
  const c = colorsOf(themeId, custom);
  const vars: Record<string, string> = {
    '--primary': c.primary,
    '--primary-hover': c.buttonHover,
    '--accent': c.accent,
    '--link': linkColorOf(c),
    '--surface-2': c.secondary,
    '--sent-bg': c.sentMessage,
    '--sent-text': c.sentText,
    '--received-bg': c.receivedMessage,
    '--received-text': c.receivedText,
    '--sidebar-bg': c.sidebar,
    '--sidebar-text': c.sidebarText,
    '--header-bg': c.header,
    '--input-bg': c.input,
    '--border': c.border,
    '--text': c.textPrimary,
    '--text-2': c.textSecondary,
    '--text-3': c.textMuted,
    '--online': c.online,
    '--away': c.away,
    '--busy': c.busy,
    '--button-bg': c.button,
    '--button-text': c.buttonText,
    '--chat-bg': c.background,
    '--bg': c.background,
    '--surface': c.surface,
  };
  if (themeId === 'custom')
    vars['--font'] = `'${normaliseCustomTheme(custom).fontFamily}', ui-sans-serif, system-ui, sans-serif`;
  return vars;
}

/** Every variable any theme sets (cleared when the room closes or the default is chosen). */
export const THEME_VARIABLE_NAMES = Object.keys({ ...themeVariables('custom'), ...themeVariables('default') });

export interface ThemeTarget {
  style: { setProperty(name: string, value: string): void; removeProperty(name: string): void };
  dataset?: Record<string, string | undefined>;
}

/** Apply a theme to an element (the document root); the default theme is styles.css itself, so it clears them. */
export function applyTheme(el: ThemeTarget, themeId: ThemeId, custom: CustomTheme | null = null): void {
  for (const name of THEME_VARIABLE_NAMES) el.style.removeProperty(name);
  if (el.dataset) el.dataset.theme = themeId;
  if (themeId === 'default') return;
  for (const [name, value] of Object.entries(themeVariables(themeId, custom))) el.style.setProperty(name, value);
}

/** Each theme's name as shown: literal keys, so the catalog check sees them; brands' names read alike in every language. */
const THEME_NAME_KEYS: Record<ThemeId, MessageId> = {
  default: 'roomside.theme.name.default',
  dark: 'roomside.theme.name.dark',
  whatsapp: 'roomside.theme.name.whatsapp',
  messenger: 'roomside.theme.name.messenger',
  slack: 'roomside.theme.name.slack',
  telegram: 'roomside.theme.name.telegram',
  discord: 'roomside.theme.name.discord',
  sunset: 'roomside.theme.name.sunset',
  forest: 'roomside.theme.name.forest',
  rosegold: 'roomside.theme.name.rosegold',
  custom: 'roomside.theme.name.custom',
};

/** A theme's name in the active language (the roomside catalog is loaded where themes are shown: the room). */
export const themeName = (id: ThemeId): string => t(THEME_NAME_KEYS[id]);

/** Themes the room's tier includes, in the spec's order, and those it does not (shown with the premium mark). */
export function themesFor(tier: Tier): { id: ThemeId; allowed: boolean }[] {
  return THEME_IDS.map((id) => ({ id, allowed: themeAllowed(tier, id) }));
}
