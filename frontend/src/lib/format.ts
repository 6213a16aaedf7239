/** Display formatting: 24-hour times, day labels, badges, previews (docs/product/rooms.md R16, limits.md L2). */

import { t } from '../i18n/i18n.ts';
import { formatDate } from '../i18n/format.ts';

const pad = (n: number) => String(n).padStart(2, '0');

function toDate(value: string | number | Date): Date | null {
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** HH:MM in 24-hour form, local time. */
export function formatTime(value: string | number | Date): string {
  const d = toDate(value);
  return d ? `${pad(d.getHours())}:${pad(d.getMinutes())}` : '';
}

/** Local calendar day as yyyy-mm-dd. */
export function dayKey(value: string | number | Date): string {
  const d = toDate(value);
  return d ? `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}` : '';
}

/**
 * Today, Yesterday, or e.g. "Monday, March 3" (with the year when it is not the current one), in the active language
 * ("Montag, 3. März").
 */
export function dayLabel(value: string | number | Date, now: Date = new Date()): string {
  const d = toDate(value);
  if (!d) return '';
  const key = dayKey(d);
  if (key === dayKey(now)) return t('room.day.today');
  const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1);
  if (key === dayKey(yesterday)) return t('room.day.yesterday');
  const thisYear = d.getFullYear() === now.getFullYear();
  return formatDate(d, { weekday: 'long', month: 'long', day: 'numeric', ...(thisYear ? {} : { year: 'numeric' }) });
}

/** Unread badge text: 99+ above 99. */
export function formatBadge(count: number): string {
  return count > 99 ? '99+' : String(Math.max(0, Math.floor(count)));
}

/** "(N) " prefix in the tab title for the total unread count. */
export function titleWithUnread(base: string, totalUnread: number): string {
  return totalUnread > 0 ? `(${formatBadge(totalUnread)}) ${base}` : base;
}

/** One-line preview: whitespace collapsed, cut at max characters followed by "...". */
export function truncate(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  return chars.length > max ? `${chars.slice(0, max).join('').trimEnd()}...` : flat;
}

/** First visible character of a name, upper-cased, for avatars. */
export function initialOf(name: string): string {
  const first = Array.from(name.trim())[0];
  return first ? first.toUpperCase() : '?';
}

/** Online count against the room cap: x/max, x/∞ when unlimited. */
export function formatCapacity(online: number, maxUsers: number | null | undefined): string {
  return `${online}/${maxUsers == null ? '∞' : maxUsers}`;
}

/** A stable hue for a name, for avatar colours. */
export function hueOf(name: string): number {
  let h = 0;
  for (const ch of name) h = (h * 31 + (ch.codePointAt(0) ?? 0)) % 360;
  return h;
}

export type Role = 'Owner' | 'Admin' | 'Member';

export function roleOf(user: { isOwner: boolean; isAdmin: boolean } | null | undefined): Role {
  if (user?.isOwner) return 'Owner';
  if (user?.isAdmin) return 'Admin';
  return 'Member';
}

export function canManageChannels(user: { isOwner: boolean; isAdmin: boolean } | null | undefined): boolean {
  return Boolean(user && (user.isOwner || user.isAdmin));
}
