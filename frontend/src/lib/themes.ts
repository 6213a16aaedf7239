/**
 * The 11 themes (docs/product/rooms.md R31): their names (from the catalog) and colour sets, applied as the CSS variables every
 * colour of styles.css comes from. Which themes a tier may use is proto's entitlement table (themeAllowed); the
 * custom theme (business) is the room's CustomTheme record on top of the default colours.
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

/** The spec's colour roles, plus the page and card backgrounds a dark theme needs. */
export interface ThemeColors {
  primary: string;
  secondary: string;
  accent: string;
  sentMessage: string;
  receivedMessage: string;
  sentText: string;
  receivedText: string;
  sidebar: string;
  sidebarText: string;
  header: string;
  input: string;
  border: string;
  textPrimary: string;
  textSecondary: string;
  textMuted: string;
  online: string;
  away: string;
  busy: string;
  button: string;
  buttonHover: string;
  buttonText: string;
  background: string;
  surface: string;
}

export interface ThemeDef {
  id: ThemeId;
  colors: ThemeColors;
}

const LIGHT_BASE: ThemeColors = {
  primary: '#2563eb',
  secondary: '#f1f5f9',
  accent: '#8b5cf6',
  sentMessage: '#2563eb',
  receivedMessage: '#ffffff',
  sentText: '#ffffff',
  receivedText: '#0f172a',
  sidebar: '#0f172a',
  sidebarText: '#e2e8f0',
  header: '#ffffff',
  input: '#ffffff',
  border: '#e2e8f0',
  textPrimary: '#0f172a',
  textSecondary: '#475569',
  textMuted: '#64748b',
  online: '#22c55e',
  away: '#eab308',
  busy: '#ef4444',
  button: '#2563eb',
  buttonHover: '#1d4ed8',
  buttonText: '#ffffff',
  background: '#f8fafc',
  surface: '#ffffff',
};

const light = (overrides: Partial<ThemeColors>): ThemeColors => ({ ...LIGHT_BASE, ...overrides });

export const THEMES: Record<ThemeId, ThemeDef> = {
  default: { id: 'default', colors: LIGHT_BASE },
  dark: {
    id: 'dark',
    colors: {
      primary: '#60a5fa',
      secondary: '#1f2937',
      accent: '#a78bfa',
      sentMessage: '#2563eb',
      receivedMessage: '#1f2937',
      sentText: '#ffffff',
      receivedText: '#e5e7eb',
      sidebar: '#030712',
      sidebarText: '#e5e7eb',
      header: '#111827',
      input: '#1f2937',
      border: '#374151',
      textPrimary: '#f3f4f6',
      textSecondary: '#d1d5db',
      textMuted: '#9ca3af',
      online: '#22c55e',
      away: '#eab308',
      busy: '#ef4444',
      button: '#2563eb',
      buttonHover: '#1d4ed8',
      buttonText: '#ffffff',
      background: '#0b1220',
      surface: '#111827',
    },
  },
  whatsapp: {
    id: 'whatsapp',
    colors: light({
      primary: '#008069',
      accent: '#25d366',
      sentMessage: '#d9fdd3',
      sentText: '#111b21',
      receivedText: '#111b21',
      sidebar: '#111b21',
      header: '#f0f2f5',
      background: '#efeae2',
      textMuted: '#54656f',
      button: '#008069',
      buttonHover: '#006e5a',
      secondary: '#f0f2f5',
    }),
  },
  messenger: {
    id: 'messenger',
    colors: light({
      primary: '#0866ff',
      accent: '#a033ff',
      sentMessage: '#0866ff',
      receivedMessage: '#f0f0f0',
      sidebar: '#1c1e21',
      button: '#0866ff',
      buttonHover: '#0055d4',
      background: '#ffffff',
    }),
  },
  slack: {
    id: 'slack',
    colors: light({
      primary: '#611f69',
      accent: '#ecb22e',
      sentMessage: '#f4ede4',
      sentText: '#1d1c1d',
      receivedText: '#1d1c1d',
      sidebar: '#3f0e40',
      sidebarText: '#f3e8f4',
      button: '#007a5a',
      buttonHover: '#006349',
      background: '#ffffff',
    }),
  },
  telegram: {
    id: 'telegram',
    colors: light({
      primary: '#2aabee',
      accent: '#229ed9',
      sentMessage: '#effdde',
      sentText: '#000000',
      receivedText: '#000000',
      sidebar: '#17212b',
      button: '#0f6fa8',
      buttonHover: '#0b5a8a',
      background: '#d9e6d0',
      textMuted: '#4a5a50',
    }),
  },
  discord: {
    id: 'discord',
    colors: {
      primary: '#5865f2',
      secondary: '#2b2d31',
      accent: '#eb459e',
      sentMessage: '#5865f2',
      receivedMessage: '#2b2d31',
      sentText: '#ffffff',
      receivedText: '#dbdee1',
      sidebar: '#1e1f22',
      sidebarText: '#dbdee1',
      header: '#313338',
      input: '#383a40',
      border: '#3f4147',
      textPrimary: '#f2f3f5',
      textSecondary: '#b5bac1',
      textMuted: '#949ba4',
      online: '#23a559',
      away: '#f0b232',
      busy: '#f23f43',
      button: '#5865f2',
      buttonHover: '#4752c4',
      buttonText: '#ffffff',
      background: '#313338',
      surface: '#2b2d31',
    },
  },
  sunset: {
    id: 'sunset',
    colors: light({
      primary: '#ea580c',
      accent: '#db2777',
      sentMessage: '#c2410c',
      receivedMessage: '#fff7ed',
      receivedText: '#431407',
      sidebar: '#431407',
      sidebarText: '#ffedd5',
      button: '#c2410c',
      buttonHover: '#9a3412',
      background: '#fff7ed',
      border: '#fed7aa',
      textMuted: '#6b5a4e',
    }),
  },
  forest: {
    id: 'forest',
    colors: light({
      primary: '#15803d',
      accent: '#65a30d',
      sentMessage: '#166534',
      receivedMessage: '#f0fdf4',
      receivedText: '#052e16',
      sidebar: '#052e16',
      sidebarText: '#dcfce7',
      button: '#15803d',
      buttonHover: '#166534',
      background: '#f0fdf4',
      border: '#bbf7d0',
    }),
  },
  rosegold: {
    id: 'rosegold',
    colors: light({
      primary: '#be185d',
      accent: '#b76e79',
      sentMessage: '#e8b4b8',
      sentText: '#3f1d24',
      receivedMessage: '#fff1f2',
      receivedText: '#3f1d24',
      sidebar: '#4a2c32',
      sidebarText: '#ffe4e6',
      button: '#be185d',
      buttonHover: '#9d174d',
      background: '#fff5f5',
      border: '#fecdd3',
      textMuted: '#6d5458',
    }),
  },
  custom: { id: 'custom', colors: LIGHT_BASE },
};

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

/** WCAG relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const v = parseInt(hex.slice(i, i + 2), 16) / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** White or the default dark text, whichever reads better on a background the room chose (a custom button colour). */
export function readableTextOn(background: string): string {
  const l = luminance(background);
  const dark = LIGHT_BASE.textPrimary;
  return 1.05 / (l + 0.05) >= (l + 0.05) / (luminance(dark) + 0.05) ? '#ffffff' : dark;
}

const contrastRatio = (a: string, b: string): number => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};
/** WCAG AA for normal text */
const AA_TEXT_CONTRAST = 4.5;

/** `hex` moved `t` (0..1) of the way to `to` (#000000 or #ffffff). */
function mix(hex: string, to: string, t: number): string {
  const channel = (h: string, i: number) => parseInt(h.slice(i, i + 2), 16);
  return `#${[1, 3, 5]
    .map((i) =>
      Math.round(channel(hex, i) + (channel(to, i) - channel(hex, i)) * t)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/**
 * The colour of link text (.link-button): the theme's primary where it reads at AA on both the cards and the page,
 * else the primary darkened (on light backgrounds) or lightened (on dark ones) just enough. A custom theme's primary
 * is the room's choice, so this is computed rather than listed.
 */
export function linkColorOf(c: ThemeColors): string {
  const readable = (fg: string) =>
    contrastRatio(fg, c.surface) >= AA_TEXT_CONTRAST && contrastRatio(fg, c.background) >= AA_TEXT_CONTRAST;
  const toward = luminance(c.surface) > 0.18 ? '#000000' : '#ffffff';
  for (let t = 0; t <= 1; t += 0.02) {
    const candidate = mix(c.primary, toward, t);
    if (readable(candidate)) return candidate;
  }
  return toward;
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
