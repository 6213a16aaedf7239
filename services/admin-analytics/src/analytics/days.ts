/** UTC days as the read models key them ('YYYY-MM-DD'), and the money and percentage roundings every figure uses. */

const DAY_MS = 86_400_000;

/** the UTC day of a time */
export const dayOf = (at: Date | string): string => new Date(at).toISOString().slice(0, 10);

/** the day `n` days before `day` (n may be negative) */
export function daysBefore(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - n * DAY_MS).toISOString().slice(0, 10);
}

/** a real calendar day in YYYY-MM-DD (2024-02-30 is not) */
export function isCalendarDay(s: string): boolean {
  const t = Date.parse(`${s}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === s;
}

/** how many days from `start` to `end`, both included */
export const daysBetween = (start: string, end: string): number =>
  Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY_MS) + 1;

/** every day from start to end, both included, ascending */
export function eachDay(start: string, end: string): string[] {
  const out: string[] = [];
  for (let d = start; d <= end; d = daysBefore(d, -1)) out.push(d);
  return out;
}

/** cents (a number or Postgres' bigint text) to dollars, e.g. 299 -> 2.99 */
export const dollars = (cents: number | string | null | undefined): number => Math.round(Number(cents ?? 0)) / 100;

/** part / whole as a percentage with `digits` decimals; 0 when there is no whole */
export function percent(part: number, whole: number, digits = 1): number {
  if (!whole) return 0;
  const f = 10 ** digits;
  return Math.round((part / whole) * 100 * f) / f;
}

export const round = (x: number, digits = 2): number => Math.round(x * 10 ** digits) / 10 ** digits;
