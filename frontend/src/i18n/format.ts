/**
 * Dates, times, numbers and lists in the active language, through Intl (docs/i18n.md). Plurals belong in the
 * catalog's message ({count, plural, one {# day} other {# days}}), which Lingui resolves with Intl.PluralRules.
 * Formatters are cached per language and options: building an Intl formatter is the slow part.
 */
import { activeLocale } from './i18n.ts';

type DateInput = string | number | Date;

const cache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat | Intl.ListFormat>();

function cached<F extends Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat | Intl.ListFormat>(
  kind: string,
  options: object,
  make: (locale: string) => F,
): F {
  const locale = activeLocale();
  const key = `${kind}|${locale}|${JSON.stringify(options)}`;
  let formatter = cache.get(key) as F | undefined;
  if (!formatter) {
    formatter = make(locale);
    cache.set(key, formatter);
  }
  return formatter;
}

function toDate(value: DateInput): Date | null {
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A calendar date ('7 December 2026' / '7. Dezember 2026' with the default long style); '' for an invalid date. */
export function formatDate(value: DateInput, options: Intl.DateTimeFormatOptions = { dateStyle: 'long' }): string {
  const d = toDate(value);
  return d ? cached('date', options, (l) => new Intl.DateTimeFormat(l, options)).format(d) : '';
}

/** A time of day, 24-hour in every language (docs/product/rooms.md R16); '' for an invalid date. */
export function formatTime(value: DateInput): string {
  return formatDate(value, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
}

/** A date with its time; '' for an invalid date. */
export function formatDateTime(value: DateInput): string {
  return formatDate(value, { dateStyle: 'medium', timeStyle: 'short', hourCycle: 'h23' });
}

/** A number with the language's grouping and decimal marks (1,234.5 / 1.234,5). */
export function formatNumber(value: number, options: Intl.NumberFormatOptions = {}): string {
  return cached('number', options, (l) => new Intl.NumberFormat(l, options)).format(value);
}

/** An amount of money ('$5.00' / '5,00 $'). */
export function formatCurrency(value: number, currency: string): string {
  return formatNumber(value, { style: 'currency', currency });
}

/** 'in 3 days', 'vor 2 Stunden': a distance in time in words. */
export function formatRelativeTime(value: number, unit: Intl.RelativeTimeFormatUnit): string {
  return cached('relative', {}, (l) => new Intl.RelativeTimeFormat(l, { numeric: 'auto' })).format(value, unit);
}

/** 'a, b and c' / 'a, b und c'. */
export function formatList(items: string[]): string {
  return cached('list', {}, (l) => new Intl.ListFormat(l, { style: 'long', type: 'conjunction' })).format(items);
}
