/**
 * The dashboard's figures as text, and the small rules of its prompts (docs/product/admin.md). Figures and dates in
 * the active language through i18n/format.ts (docs/i18n.md). Pure functions: admin-format.test.ts checks them.
 */
import { ADMIN_LIMITS } from '../../lib/adminApi.ts';
import { formatCurrency, formatDate, formatNumber } from '../../i18n/format.ts';
import { t } from '../../i18n/i18n.ts';

const finite = (n: number | null | undefined) => (Number.isFinite(n) ? Number(n) : 0);
const fixed = (v: number, digits: number) =>
  formatNumber(v, { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** $1,234.50 (the answers carry dollars) */
export const money = (n: number | null | undefined) => formatCurrency(finite(n), 'USD');
/** 12.5% (one decimal, as the Conversion Rate card); the answers carry percent, not fractions */
export const percent = (n: number | null | undefined, digits = 1) =>
  formatNumber(finite(n) / 100, { style: 'percent', minimumFractionDigits: digits, maximumFractionDigits: digits });
export const count = (n: number | null | undefined) => formatNumber(finite(n));
/** 63 ms; below 10 ms with two decimals (a database round trip is often under 1 ms) */
export function ms(n: number | null | undefined): string {
  const v = finite(n);
  return `${v < 10 ? fixed(v, 2) : formatNumber(Math.round(v))} ms`;
}

export function bytes(n: number | null | undefined): string {
  const v = finite(n);
  if (v < 1024) return `${formatNumber(v)} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let x = v / 1024;
  let i = 0;
  while (x >= 1024 && i < units.length - 1) {
    x /= 1024;
    i++;
  }
  return `${fixed(x, 1)} ${units[i]}`;
}

export const dateOf = (iso: string | null | undefined) => (iso ? formatDate(iso, {}) : '');
const DATE_TIME: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
};
/** 12/7/2026, 8:10:38 PM / 7.12.2026, 20:10:38: the language's own clock */
export const dateTimeOf = (iso: string | null | undefined) => (iso ? formatDate(iso, DATE_TIME) : '');

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
  const month = formatDate(start, { month: 'long', year: 'numeric' });
  return { label: t('admin.revenue.monthsAgo', { count: months, month }), startDate: iso(start), endDate: iso(end) };
}
export const todayIso = (today = new Date()) => iso(today);
