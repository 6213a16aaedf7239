import { describe, it, expect } from 'vitest';
import { randomBytes } from 'node:crypto';
import { normalizedWords, searchTokens, wordToken } from '../src/search/tokens.ts';
import { roomSearchKeys } from '../src/search/keys.ts';

describe('search tokens', () => {
  it('normalizes case, width and diacritics, and segments words', () => {
    expect(normalizedWords('Café CAFE ｃａｆé, naïve—résumé! 东京タワー')).toEqual(['cafe', 'naive', 'resume', ...normalizedWords('东京タワー')]);
    expect(normalizedWords('  ...  ')).toEqual([]);
  });

  it('equal words give equal tokens under one key and different tokens under another room\'s key', () => {
    const keys = roomSearchKeys(randomBytes(32));
    const a = keys('room-a');
    expect(searchTokens(a, 'Hello')).toEqual(searchTokens(a, 'hello!'));
    expect(wordToken(a, 'hello')).not.toEqual(wordToken(keys('room-b'), 'hello'));
    expect(keys('room-a').equals(a)).toBe(true);
  });
});
