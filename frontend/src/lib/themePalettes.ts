/**
 * The 11 themes' colour sets (docs/product/rooms.md R31): the spec's colour roles and each theme's values. Most light
 * themes are the default set with their own colours on top; the custom theme starts from the default set too.
 */
import type { ThemeId } from '@ephemera/proto/client';

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

export const LIGHT_BASE: ThemeColors = {
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

/** a light theme: the default colours with its own on top */
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
