import { beforeAll, describe, expect, it } from 'vitest';
import { activateLocale } from '../i18n/i18n.ts';
import {
  canManageChannels,
  dayKey,
  dayLabel,
  formatBadge,
  formatCapacity,
  formatTime,
  initialOf,
  roleOf,
  titleWithUnread,
  truncate,
} from './format.ts';

describe('formatTime: HH:MM in 24-hour form', () => {
  it('pads hours and minutes', () => {
    expect(formatTime(new Date(2025, 0, 5, 7, 3))).toBe('07:03');
  });
  it('uses 24-hour time in the afternoon', () => {
    expect(formatTime(new Date(2025, 0, 5, 23, 59))).toBe('23:59');
  });
  it('accepts ISO strings and rejects garbage', () => {
    const d = new Date(2025, 5, 1, 13, 45);
    expect(formatTime(d.toISOString())).toBe('13:45');
    expect(formatTime('not a date')).toBe('');
  });
});

describe('dayLabel: Today, Yesterday or a date', () => {
  beforeAll(() => activateLocale('en', ['room']));

  const now = new Date(2025, 2, 10, 9, 0);
  it('says Today for the same local day', () => {
    expect(dayLabel(new Date(2025, 2, 10, 0, 1), now)).toBe('Today');
  });
  it('says Yesterday for the previous local day', () => {
    expect(dayLabel(new Date(2025, 2, 9, 23, 59), now)).toBe('Yesterday');
  });
  it('crosses month boundaries for Yesterday', () => {
    expect(dayLabel(new Date(2025, 1, 28, 12), new Date(2025, 2, 1, 8))).toBe('Yesterday');
  });
  it('names older days, with the year only when it differs', () => {
    expect(dayLabel(new Date(2025, 2, 3, 12), now)).toBe('Monday, March 3');
    expect(dayLabel(new Date(2024, 11, 25, 12), now)).toBe('Wednesday, December 25, 2024');
  });
  it('says it in German', async () => {
    await activateLocale('de', ['room']);
    try {
      expect(dayLabel(new Date(2025, 2, 10, 0, 1), now)).toBe('Heute');
      expect(dayLabel(new Date(2025, 2, 9, 23, 59), now)).toBe('Gestern');
      expect(dayLabel(new Date(2025, 2, 3, 12), now)).toBe('Montag, 3. März');
      expect(dayLabel(new Date(2024, 11, 25, 12), now)).toBe('Mittwoch, 25. Dezember 2024');
    } finally {
      await activateLocale('en', ['room']);
    }
  });
  it('dayKey is the local calendar day', () => {
    expect(dayKey(new Date(2025, 0, 2, 23, 0))).toBe('2025-01-02');
  });
});

describe('unread badges', () => {
  it('shows the count up to 99 and 99+ above', () => {
    expect(formatBadge(1)).toBe('1');
    expect(formatBadge(99)).toBe('99');
    expect(formatBadge(100)).toBe('99+');
    expect(formatBadge(5000)).toBe('99+');
  });
  it('prefixes the tab title with (N) only when there is something unread', () => {
    expect(titleWithUnread('room · Ephemera', 0)).toBe('room · Ephemera');
    expect(titleWithUnread('room · Ephemera', 3)).toBe('(3) room · Ephemera');
    expect(titleWithUnread('room · Ephemera', 150)).toBe('(99+) room · Ephemera');
  });
});

describe('truncate: previews', () => {
  it('keeps short text and collapses whitespace', () => {
    expect(truncate('hello\n  world', 25)).toBe('hello world');
  });
  it('cuts at 25 characters', () => {
    const text = 'abcdefghijklmnopqrstuvwxyz0123';
    expect(truncate(text, 25)).toBe('abcdefghijklmnopqrstuvwxy...');
    expect(truncate('x'.repeat(25), 25)).toBe('x'.repeat(25));
  });
  it('does not split surrogate pairs', () => {
    expect(truncate('😀'.repeat(30), 25)).toBe(`${'😀'.repeat(25)}...`);
  });
});

describe('room display helpers', () => {
  it('online count is x/max, x/∞ when unlimited', () => {
    expect(formatCapacity(2, 5)).toBe('2/5');
    expect(formatCapacity(7, null)).toBe('7/∞');
  });
  it('initials are upper-cased first characters', () => {
    expect(initialOf('alice')).toBe('A');
    expect(initialOf('  ')).toBe('?');
    expect(initialOf('émile')).toBe('É');
  });
  it('role badge: Owner, Admin or Member', () => {
    expect(roleOf({ isOwner: true, isAdmin: true })).toBe('Owner');
    expect(roleOf({ isOwner: false, isAdmin: true })).toBe('Admin');
    expect(roleOf({ isOwner: false, isAdmin: false })).toBe('Member');
    expect(roleOf(null)).toBe('Member');
  });
  it('only owners and admins manage channels', () => {
    expect(canManageChannels({ isOwner: true, isAdmin: false })).toBe(true);
    expect(canManageChannels({ isOwner: false, isAdmin: true })).toBe(true);
    expect(canManageChannels({ isOwner: false, isAdmin: false })).toBe(false);
    expect(canManageChannels(null)).toBe(false);
  });
});
