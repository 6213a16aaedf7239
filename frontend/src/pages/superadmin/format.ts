/**
 * The dashboard's figures as text, and the small rules of its prompts (docs/product/admin.md).
 * Pure functions: admin-format.test.ts checks them.
 */
import { ADMIN_LIMITS } from '../../lib/adminApi.ts';

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
/** $1,234.50 (the answers carry dollars) */
export const money = (n: number | null | undefined) => usd.format(Number.isFinite(n) ? Number(n) : 0);
/** 12.5% (one decimal, as the Conversion Rate card) */
export const percent = (n: number | null | undefined, digits = 1) =>
  `${(Number.isFinite(n) ? Number(n) : 0).toFixed(digits)}%`;
export const count = (n: number | null | undefined) => (Number.isFinite(n) ? Number(n) : 0).toLocaleString('en-US');
/** 63 ms; below 10 ms with two decimals (a database round trip is often under 1 ms) */
export function ms(n: number | null | undefined): string {
  const v = Number.isFinite(n) ? Number(n) : 0;
  return `${v < 10 ? v.toFixed(2) : Math.round(v)} ms`;
}

export function bytes(n: number | null | undefined): string {
  const v = Number.isFinite(n) ? Number(n) : 0;
  if (v < 1024) return `${v} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let x = v / 1024;
  let i = 0;
  while (x >= 1024 && i < units.length - 1) {
    x /= 1024;
    i++;
  }
  return `${x.toFixed(1)} ${units[i]}`;
}

export const dateOf = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleDateString('en-US') : '');
export const dateTimeOf = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString('en-US') : '');

/** docs/product/admin.md ADM6: the room extend prompt accepts only 1 (7 days = 168 h) or 2 (30 days = 720 h); anything else does nothing. */
export function extendHoursOf(answer: string | null): 168 | 720 | null {
  const a = (answer ?? '').trim();
  if (a === '1') return ADMIN_LIMITS.extendHours[0];
  if (a === '2') return ADMIN_LIMITS.extendHours[1];
  return null;
}

/** docs/product/admin.md ADM12: auto-delete days are a whole number from 1 to 1000; anything else is ignored (null). */
export function autoDeleteDaysOf(input: string): number | null {
  if (!/^\d+$/.test(input.trim())) return null;
  const n = Number(input.trim());
  const { minDays, maxDays } = ADMIN_LIMITS.autoDelete;
  return n >= minDays && n <= maxDays ? n : null;
}

/** A reason prompt's answer: trimmed, or null (cancelled or empty: the action is abandoned). */
export const reasonOf = (answer: string | null) => (answer && answer.trim() ? answer.trim() : null);

const iso = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** The quick revenue periods: the calendar month 1..6 months before today's (local dates, YYYY-MM-DD). */
export function monthsAgo(months: number, today = new Date()): { label: string; startDate: string; endDate: string } {
  const start = new Date(today.getFullYear(), today.getMonth() - months, 1);
  const end = new Date(start.getFullYear(), start.getMonth() + 1, 0);
  const name = start.toLocaleDateString('en-US', { month: 'long', year: 'numeric' });
  return { label: `${months} month${months === 1 ? '' : 's'} ago (${name})`, startDate: iso(start), endDate: iso(end) };
}
export const todayIso = (today = new Date()) => iso(today);
