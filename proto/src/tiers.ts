/**
 * THE entitlement table (docs/product/limits.md L1): what each tier may do.
 * Plain code (no zod), shared by every service that checks a limit and by the browser bundle, which reads the same
 * table to show or hide controls. A service never hard-codes a tier's limit: it asks this table.
 */
import { LIMITS, type Tier } from './limits.ts';
import type { WorkspaceSettings } from './models.ts';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** The 11 themes (docs/product/rooms.md R31): 3 free, 7 premium (pro), custom (business). Colours live in the frontend. */
export const THEME_IDS = [
  'default',
  'dark',
  'whatsapp',
  'messenger',
  'slack',
  'telegram',
  'discord',
  'sunset',
  'forest',
  'rosegold',
  'custom',
] as const;
export type ThemeId = (typeof THEME_IDS)[number];
const FREE_THEMES: readonly ThemeId[] = ['default', 'dark', 'whatsapp'];
const PRO_THEMES: readonly ThemeId[] = THEME_IDS.filter((t) => t !== 'custom');

export interface Entitlements {
  /** rooms one account may own at once; null = unlimited */
  roomsPerAccount: number | null;
  /** members in the room at once without a custom cap; null = unlimited */
  usersPerRoom: number | null;
  /** may the owner set a cap (set-workspace-max-users)? */
  customMaxUsers: boolean;
  /** may the cap be "unlimited"? */
  unlimitedUsers: boolean;
  /** room lifetime from creation; null = permanent */
  lifetimeMs: number | null;
  /** may the owner extend the room without paying (extend-workspace) */
  freeExtension: boolean;
  /** largest file, in MB (the spec's maxFileSize) */
  fileSizeMb: number;
  /** how long uploaded files are kept; null = as long as the room */
  fileRetentionMs: number | null;
  themes: readonly ThemeId[];
  voiceCalls: boolean;
  videoCalls: boolean;
  screenSharing: boolean;
  customBranding: boolean;
}

export const ENTITLEMENTS: { readonly [T in Tier]: Entitlements } = {
  free: {
    roomsPerAccount: 1,
    usersPerRoom: LIMITS.defaultMaxUsers,
    customMaxUsers: false,
    unlimitedUsers: false,
    lifetimeMs: DAY,
    freeExtension: false,
    fileSizeMb: 10,
    fileRetentionMs: DAY,
    themes: FREE_THEMES,
    voiceCalls: false,
    videoCalls: false,
    screenSharing: false,
    customBranding: false,
  },
  pro: {
    roomsPerAccount: 10,
    usersPerRoom: 25,
    customMaxUsers: true,
    unlimitedUsers: false,
    lifetimeMs: 7 * DAY,
    freeExtension: true,
    fileSizeMb: 100,
    fileRetentionMs: 7 * DAY,
    themes: PRO_THEMES,
    voiceCalls: true,
    videoCalls: true,
    screenSharing: true,
    customBranding: false,
  },
  business: {
    roomsPerAccount: null,
    usersPerRoom: null,
    customMaxUsers: true,
    unlimitedUsers: true,
    lifetimeMs: null,
    freeExtension: true,
    fileSizeMb: 500,
    fileRetentionMs: null,
    themes: THEME_IDS,
    voiceCalls: true,
    videoCalls: true,
    screenSharing: true,
    customBranding: true,
  },
};

/**
 * A room's file storage quota: room storage for this many files of the tier's largest size (free 200 MB, pro 2 GB,
 * business 10 GB), counted over the files the room keeps (uploads, thumbnails and profile pictures; expired and
 * removed files no longer count). An upload that would pass it is refused (STORAGE_QUOTA_EXCEEDED).
 */
export const ROOM_STORAGE_FILES = 20;
export const roomStorageBytes = (tier: Tier): number =>
  ENTITLEMENTS[tier].fileSizeMb * ROOM_STORAGE_FILES * 1024 * 1024;

/** Extension choices (docs/product/rooms.md R35): 7 days = 168 h, 30 days = 720 h. */
export const EXTENSION_HOURS = [168, 720] as const;
export type ExtensionHours = (typeof EXTENSION_HOURS)[number];

/** The cap that applies: the custom cap when the tier allows one, else the tier's default; null = unlimited. */
export function maxUsersFor(tier: Tier, customMaxUsers: number | null): number | null {
  const e = ENTITLEMENTS[tier];
  if (e.customMaxUsers && customMaxUsers !== null) return customMaxUsers;
  return e.usersPerRoom;
}

export function themeAllowed(tier: Tier, themeId: string): boolean {
  return (ENTITLEMENTS[tier].themes as readonly string[]).includes(themeId);
}

/** A room's settings as the spec's Workspace.settings shows them, derived from the table. */
export function settingsForTier(tier: Tier, customMaxUsers: number | null = null): WorkspaceSettings {
  const e = ENTITLEMENTS[tier];
  const custom = e.customMaxUsers ? customMaxUsers : null;
  return {
    tier,
    maxUsers: maxUsersFor(tier, custom),
    customMaxUsers: custom,
    canUseThemes: e.themes.length > FREE_THEMES.length,
    maxFileSize: e.fileSizeMb,
    canUseVoiceCalls: e.voiceCalls,
    canUseVideoCalls: e.videoCalls,
  };
}

/** Custom theme fields (business), docs/product/rooms.md R32: defaults and the offered fonts. */
export const CUSTOM_THEME_FONTS = [
  'Inter',
  'Roboto',
  'Open Sans',
  'Lato',
  'Montserrat',
  'Poppins',
  'Arial',
  'Helvetica',
  'Georgia',
  'Times New Roman',
] as const;
export const CUSTOM_THEME_DEFAULTS = {
  primaryColor: '#3B82F6',
  sentMessageColor: '#DCF8C6',
  receivedMessageColor: '#FFFFFF',
  sentTextColor: '#000000',
  receivedTextColor: '#000000',
  chatBackgroundColor: '#F9FAFB',
  logoUrl: '',
  fontFamily: 'Inter',
} as const;
export type CustomTheme = { -readonly [K in keyof typeof CUSTOM_THEME_DEFAULTS]: string };

/**
 * The camera quality of a video call per tier (docs/product/calls.md C7): pro HD (1280x720), business full HD
 * (1920x1080), 30 frames a second; free rooms have no video calls. The browser asks the camera for it as ideal
 * capture constraints (a camera that cannot do it gives its nearest), so no call fails for want of a better camera.
 */
export interface VideoQuality {
  label: 'HD' | 'Full HD';
  width: number;
  height: number;
  frameRate: number;
}
export const VIDEO_QUALITY: { readonly [T in Tier]: VideoQuality | null } = {
  free: null,
  pro: { label: 'HD', width: 1280, height: 720, frameRate: 30 },
  business: { label: 'Full HD', width: 1920, height: 1080, frameRate: 30 },
};

/** getUserMedia's video constraints for a tier's calls: its quality as ideal values; no quality: the camera's default. */
export function videoCaptureConstraints(
  tier: Tier,
): { width: { ideal: number }; height: { ideal: number }; frameRate: { ideal: number } } | true {
  const q = VIDEO_QUALITY[tier];
  return q ? { width: { ideal: q.width }, height: { ideal: q.height }, frameRate: { ideal: q.frameRate } } : true;
}
