import { beforeAll, describe, expect, it } from 'vitest';
import { activateLocale } from '../i18n/i18n.ts';
import { expiryState, expiryText, formatCountdown, isHurry, showsCountdown } from './expiry.ts';

const H = 3_600_000;
const M = 60_000;
const NOW = Date.UTC(2030, 0, 1, 12, 0, 0);
const at = (ms: number) => new Date(NOW + ms).toISOString();

describe('expiry banner state (docs/product/rooms.md R34)', () => {
  beforeAll(() => activateLocale('en', ['room']));

  it('is null for a room that never expires (business) or a bad date', () => {
    expect(expiryState(null, NOW)).toBeNull();
    expect(expiryState('not a date', NOW)).toBeNull();
  });

  it('is hidden while 4 hours or more remain, and any days', () => {
    expect(expiryState(at(4 * H), NOW)).toMatchObject({ visible: false });
    expect(expiryState(at(30 * H), NOW)).toMatchObject({ visible: false, level: 'info', days: 1 });
    expect(expiryState(at(7 * H), NOW)).toMatchObject({ visible: false, level: 'info' });
  });

  it('warns at 6 hours or less with zero days; shows below 4 hours', () => {
    expect(expiryState(at(6 * H), NOW)).toMatchObject({ level: 'warning', visible: false });
    expect(expiryState(at(4 * H - 1), NOW)).toMatchObject({ level: 'warning', visible: true, hours: 3, minutes: 59 });
    expect(expiryState(at(61 * M), NOW)).toMatchObject({ level: 'warning', visible: true });
  });

  it('is critical at 1 hour or less, expired when past', () => {
    expect(expiryState(at(60 * M), NOW)).toMatchObject({ level: 'critical', visible: true, hours: 1, minutes: 0 });
    expect(expiryState(at(1), NOW)).toMatchObject({ level: 'critical' });
    expect(expiryState(at(0), NOW)).toMatchObject({ level: 'expired', visible: true, remainingMs: 0 });
    expect(expiryState(at(-5 * M), NOW)).toMatchObject({ level: 'expired', days: 0, hours: 0, minutes: 0 });
  });

  it('says how long is left, or Room has expired', () => {
    expect(expiryText(expiryState(at(3 * H + 5 * M), NOW)!)).toBe('This room expires in 3 hours 5 minutes');
    expect(expiryText(expiryState(at(1 * H + 1 * M + 1), NOW)!)).toBe('This room expires in 1 hour 1 minute');
    expect(expiryText(expiryState(at(30 * M), NOW)!)).toBe('This room expires in 30 minutes');
    expect(expiryText(expiryState(at(-1), NOW)!)).toBe('Room has expired');
  });

  it('says it in German with German plurals', async () => {
    await activateLocale('de', ['room']);
    try {
      expect(expiryText(expiryState(at(3 * H + 5 * M), NOW)!)).toBe('Dieser Raum läuft in 3 Stunden 5 Minuten ab');
      expect(expiryText(expiryState(at(1 * H + 1 * M + 1), NOW)!)).toBe('Dieser Raum läuft in 1 Stunde 1 Minute ab');
      expect(expiryText(expiryState(at(30 * M), NOW)!)).toBe('Dieser Raum läuft in 30 Minuten ab');
    } finally {
      await activateLocale('en', ['room']);
    }
  });
});

describe('sidebar countdown chip', () => {
  it('shows for free rooms under 24 hours only (never business, not pro)', () => {
    expect(showsCountdown('free', at(23 * H), NOW)).toBe(true);
    expect(showsCountdown('free', at(24 * H), NOW)).toBe(false);
    expect(showsCountdown('free', at(-H), NOW)).toBe(true);
    expect(showsCountdown('pro', at(2 * H), NOW)).toBe(false);
    expect(showsCountdown('business', null, NOW)).toBe(false);
  });

  it('counts down HH:MM:SS and shows zeros when past', () => {
    expect(formatCountdown(at(23 * H + 59 * M + 59_000), NOW)).toBe('23:59:59');
    expect(formatCountdown(at(61_500), NOW)).toBe('00:01:01');
    expect(formatCountdown(at(-10_000), NOW)).toBe('00:00:00');
  });

  it('hurries under 2 hours (the extend modal)', () => {
    expect(isHurry(at(2 * H - 1), NOW)).toBe(true);
    expect(isHurry(at(2 * H), NOW)).toBe(false);
    expect(isHurry(at(-1), NOW)).toBe(false);
    expect(isHurry(null, NOW)).toBe(false);
  });
});
