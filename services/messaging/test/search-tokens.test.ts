import { describe, it, expect } from 'vitest';
import { RoomKey } from '@ephemera/platform';
import { normalizedWords, searchTokens, wordToken, SEARCH_PURPOSE } from '../src/search/tokens.ts';

describe('search tokens', () => {
  it('normalizes case, width and diacritics, and segments words', () => {
    expect(normalizedWords('Café CAFE ｃａｆé, naïve—résumé! 东京タワー')).toEqual([
      'cafe',
      'naive',
      'resume',
      ...normalizedWords('东京タワー'),
    ]);
    expect(normalizedWords('  ...  ')).toEqual([]);
  });

  it("equal words give equal tokens under one room's key and different tokens under another room's key", () => {
    const a = RoomKey.generate('room-a');
    const b = RoomKey.generate('room-b');
    expect(searchTokens(a, 'Hello')).toEqual(searchTokens(a, 'hello!'));
    expect(searchTokens(a, 'hello')).not.toEqual(searchTokens(b, 'hello'));
    // the tokens are keyed by the room key's search subkey, not by the key itself
    expect(searchTokens(a, 'hello')).toEqual([wordToken(a.subkey(SEARCH_PURPOSE), 'hello')]);
  });
});
