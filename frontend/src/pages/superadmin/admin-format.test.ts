/** The superadmin dashboard's pure rules (format.ts): prompts, inputs and the quick revenue periods. */
import { beforeAll, describe, expect, it } from 'vitest';
import { activateLocale } from '../../i18n/i18n.ts';
import { autoDeleteDaysOf, bytes, extendHoursOf, ms, money, monthsAgo, percent, reasonOf } from './format.ts';

describe('superadmin dashboard rules', () => {
  beforeAll(() => activateLocale('en', ['admin']));
  it('the extend prompt accepts only 1 (168 h) or 2 (720 h)', () => {
    expect(extendHoursOf('1')).toBe(168);
    expect(extendHoursOf(' 2 ')).toBe(720);
    for (const other of [null, '', '3', '0', '7', '1.0', 'one', '12'])
      expect(extendHoursOf(other), String(other)).toBeNull();
  });
  it('auto-delete days: integers 1..1000 only', () => {
    expect(autoDeleteDaysOf('1')).toBe(1);
    expect(autoDeleteDaysOf('90')).toBe(90);
    expect(autoDeleteDaysOf('1000')).toBe(1000);
    for (const bad of ['0', '1001', '-5', '2.5', '1e2', 'abc', '']) expect(autoDeleteDaysOf(bad), bad).toBeNull();
  });
  it('a reason must not be empty', () => {
    expect(reasonOf(null)).toBeNull();
    expect(reasonOf('   ')).toBeNull();
    expect(reasonOf(' spam ')).toBe('spam');
  });
  it('quick periods are whole calendar months before this one', () => {
    const today = new Date(2026, 2, 15); // 15 March 2026
    expect(monthsAgo(1, today)).toEqual({
      label: '1 month ago (February 2026)',
      startDate: '2026-02-01',
      endDate: '2026-02-28',
    });
    expect(monthsAgo(3, today)).toMatchObject({ startDate: '2025-12-01', endDate: '2025-12-31' });
    expect(monthsAgo(6, today)).toMatchObject({
      label: '6 months ago (September 2025)',
      startDate: '2025-09-01',
      endDate: '2025-09-30',
    });
  });
  it('figures', () => {
    expect(money(1234.5)).toBe('$1,234.50');
    expect(money(undefined)).toBe('$0.00');
    expect(percent(12.345)).toBe('12.3%');
    expect(bytes(512)).toBe('512 B');
    expect(bytes(5 * 1024 * 1024)).toBe('5.0 MB');
    expect(ms(62.7)).toBe('63 ms');
    expect(ms(0.42)).toBe('0.42 ms');
  });
  it('figures and periods in German', async () => {
    await activateLocale('de', ['admin']);
    try {
      expect(money(1234.5)).toBe('1.234,50\u00a0$');
      expect(percent(12.345)).toBe('12,3\u00a0%');
      expect(bytes(5 * 1024 * 1024)).toBe('5,0 MB');
      expect(monthsAgo(1, new Date(2026, 2, 15)).label).toBe('vor 1 Monat (Februar 2026)');
      expect(monthsAgo(6, new Date(2026, 2, 15)).label).toBe('vor 6 Monaten (September 2025)');
    } finally {
      await activateLocale('en', ['admin']);
    }
  });
});
