/**
 * Room expiry as the room page shows it (docs/product/rooms.md R15, R34): the expiry banner's state and the
 * sidebar's countdown chip. Pure functions of (expiresAt, now, tier); the components re-run them on a timer
 * (EXPIRY.recomputeMs for the banner, EXPIRY.countdownTickMs for the chip).
 */
import { EXPIRY, type Tier } from '@ephemera/proto/client';
import { t } from '../i18n/i18n.ts';

export type ExpiryLevel = 'info' | 'warning' | 'critical' | 'expired';

export interface ExpiryState {
  level: ExpiryLevel;
  /** the banner shows (hidden while EXPIRY.bannerHiddenFromMs or more remain) */
  visible: boolean;
  remainingMs: number;
  days: number;
  hours: number;
  minutes: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * The banner's state, null for a room that never expires. The spec's rules, in order: expired when past expiry;
 * critical at 1 hour or less; warning at 6 hours or less with zero days; info otherwise. The banner is hidden when
 * 4 hours or more remain, so a visible banner is warning or worse (the spec's info level shows only if the hidden
 * threshold is ever raised above 6 hours; the level is still computed for it).
 */
export function expiryState(expiresAt: string | null | undefined, now: number): ExpiryState | null {
  if (!expiresAt) return null;
  const end = Date.parse(expiresAt);
  if (!Number.isFinite(end)) return null;
  const remainingMs = end - now;
  const left = Math.max(0, remainingMs);
  const days = Math.floor(left / DAY);
  const hours = Math.floor((left % DAY) / HOUR);
  const minutes = Math.floor((left % HOUR) / 60_000);
  let level: ExpiryLevel;
  if (remainingMs <= 0) level = 'expired';
  else if (remainingMs <= EXPIRY.criticalAtMs) level = 'critical';
  else if (remainingMs <= EXPIRY.warningAtMs && days === 0) level = 'warning';
  else level = 'info';
  return { level, visible: remainingMs < EXPIRY.bannerHiddenFromMs, remainingMs, days, hours, minutes };
}

/** The banner's sentence for a state, in the active language (hours left out when none are left). */
export function expiryText(s: ExpiryState): string {
  if (s.level === 'expired') return t('room.expiry.expired');
  return t('room.expiry.left', { hours: s.hours, minutes: s.minutes });
}

/** The sidebar chip: free rooms with under 24 hours left (business rooms never show it, pro rooms last days). */
export function showsCountdown(tier: Tier, expiresAt: string | null | undefined, now: number): boolean {
  if (tier !== 'free' || !expiresAt) return false;
  const end = Date.parse(expiresAt);
  return Number.isFinite(end) && end - now < EXPIRY.countdownChipUnderMs;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** HH:MM:SS left, 00:00:00 once past. */
export function formatCountdown(expiresAt: string, now: number): string {
  const left = Math.max(0, Date.parse(expiresAt) - now);
  const total = Number.isFinite(left) ? Math.floor(left / 1000) : 0;
  return `${pad(Math.floor(total / 3600))}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
}

/** The extend modal's "Hurry!" line: under 2 hours left. */
export function isHurry(expiresAt: string | null | undefined, now: number): boolean {
  if (!expiresAt) return false;
  const left = Date.parse(expiresAt) - now;
  return Number.isFinite(left) && left > 0 && left < EXPIRY.hurryUnderMs;
}
