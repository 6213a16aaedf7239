import { beforeAll, describe, expect, it } from 'vitest';
import { activateLocale } from '../i18n/i18n.ts';
import { buildMessageItems, type GroupableMessage } from './grouping.ts';

const at = (d: Date) => d.toISOString();
const msg = (key: string, authorId: string, time: Date, type = 'text'): GroupableMessage => ({
  key,
  authorId,
  timestamp: at(time),
  type,
});
const headers = (items: ReturnType<typeof buildMessageItems>) =>
  items.map((i) => (i.kind === 'day' ? `day:${i.label}` : `${i.key}:${i.showHeader ? 'H' : '-'}`));

describe('buildMessageItems: grouping by author within 2 minutes, for at most 5 minutes', () => {
  beforeAll(() => activateLocale('en', ['room']));

  const now = new Date(2025, 2, 10, 18, 0);
  const t = (h: number, m: number, s = 0) => new Date(2025, 2, 10, h, m, s);

  it('hides the repeated author header within 2 minutes', () => {
    const items = buildMessageItems(
      [msg('a', 'u1', t(10, 0)), msg('b', 'u1', t(10, 1)), msg('c', 'u1', t(10, 3, 1))],
      now,
    );
    expect(headers(items)).toEqual(['day:Today', 'a:H', 'b:-', 'c:H']);
  });
  it('exactly 2 minutes still groups', () => {
    const items = buildMessageItems([msg('a', 'u1', t(10, 0)), msg('b', 'u1', t(10, 2))], now);
    expect(headers(items)).toEqual(['day:Today', 'a:H', 'b:-']);
  });
  it('a different author starts a new group', () => {
    const items = buildMessageItems(
      [msg('a', 'u1', t(10, 0)), msg('b', 'u2', t(10, 0, 10)), msg('c', 'u1', t(10, 0, 20))],
      now,
    );
    expect(headers(items)).toEqual(['day:Today', 'a:H', 'b:H', 'c:H']);
  });
  it('system messages never group', () => {
    const items = buildMessageItems(
      [msg('a', 'u1', t(10, 0)), msg('s', 'u1', t(10, 0, 5), 'system'), msg('b', 'u1', t(10, 0, 10))],
      now,
    );
    expect(headers(items)).toEqual(['day:Today', 'a:H', 's:H', 'b:H']);
  });
  it('inserts day separators and restarts groups on a new day', () => {
    const items = buildMessageItems(
      [
        msg('a', 'u1', new Date(2025, 2, 8, 23, 59)),
        msg('b', 'u1', new Date(2025, 2, 9, 0, 0)),
        msg('c', 'u1', t(9, 0)),
      ],
      now,
    );
    expect(headers(items)).toEqual(['day:Saturday, March 8', 'a:H', 'day:Yesterday', 'b:H', 'day:Today', 'c:H']);
  });
  it('a group spans at most 5 minutes from its first message: a steady stream shows its header again', () => {
    // every message within 2 minutes of the one before; the run began at 10:00
    const items = buildMessageItems(
      [
        msg('a', 'u1', t(10, 0)),
        msg('b', 'u1', t(10, 2)),
        msg('c', 'u1', t(10, 4)),
        msg('d', 'u1', t(10, 5)),
        msg('e', 'u1', t(10, 6)),
        msg('f', 'u1', t(10, 8)),
        msg('g', 'u1', t(10, 10)),
        msg('h', 'u1', t(10, 11, 1)),
      ],
      now,
    );
    // d: exactly 5 minutes after a still groups; e starts a new group at 10:06, h is 5 min 1 s after it
    expect(headers(items)).toEqual(['day:Today', 'a:H', 'b:-', 'c:-', 'd:-', 'e:H', 'f:-', 'g:-', 'h:H']);
  });
  it('another author or a system message ends the 5-minute span too: the next group counts from its own start', () => {
    const items = buildMessageItems(
      [
        msg('a', 'u1', t(10, 0)),
        msg('b', 'u1', t(10, 2)),
        msg('x', 'u2', t(10, 3)),
        msg('c', 'u1', t(10, 4)),
        msg('d', 'u1', t(10, 6)),
        msg('e', 'u1', t(10, 8)),
        msg('f', 'u1', t(10, 9, 1)),
      ],
      now,
    );
    expect(headers(items)).toEqual(['day:Today', 'a:H', 'b:-', 'x:H', 'c:H', 'd:-', 'e:-', 'f:H']);
  });
  it('an empty list has no items', () => {
    expect(buildMessageItems([], now)).toEqual([]);
  });
});
