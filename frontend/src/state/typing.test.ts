import { beforeAll, describe, expect, it } from 'vitest';
import { activateLocale } from '../i18n/i18n.ts';
import { LIMITS } from '@ephemera/proto/client';
import { typingNames, typingText } from './typing.ts';
import { initialRoomState, roomReducer } from './roomState.ts';

describe('who is typing', () => {
  beforeAll(() => activateLocale('en', ['room']));

  const typing = {
    c1: { u1: { username: 'ann', at: 1000 }, me: { username: 'me', at: 1000 }, u2: { username: 'bo', at: 1500 } },
    c2: { u3: { username: 'cy', at: 1000 } },
  };
  it('names in a channel, not mine, in the order they started', () => {
    expect(typingNames(typing, 'c1', 'me', 2000)).toEqual(['ann', 'bo']);
    expect(typingNames(typing, 'c2', 'me', 2000)).toEqual(['cy']);
    expect(typingNames(typing, null, 'me', 2000)).toEqual([]);
  });
  it('names a typist the server did not name "Someone", in the active language', async () => {
    const nameless = { c1: { u1: { username: '', at: 1000 } } };
    expect(typingNames(nameless, 'c1', 'me', 2000)).toEqual(['Someone']);
    await activateLocale('de', ['room']);
    try {
      expect(typingNames(nameless, 'c1', 'me', 2000)).toEqual(['Jemand']);
    } finally {
      await activateLocale('en', ['room']);
    }
  });
  it('drops an entry not refreshed within typingExpireMs', () => {
    expect(typingNames(typing, 'c1', 'me', 1000 + LIMITS.typingExpireMs)).toEqual(['bo']);
  });
  it('the spec text: "{name} is typing..."', () => {
    expect(typingText([])).toBe('');
    expect(typingText(['ann'])).toBe('ann is typing...');
    expect(typingText(['ann', 'bo'])).toBe('ann and bo are typing...');
    expect(typingText(['ann', 'bo', 'cy'])).toBe('Several people are typing...');
  });
  it('says it in German', async () => {
    await activateLocale('de', ['room']);
    try {
      expect(typingText(['ann'])).toBe('ann schreibt …');
      expect(typingText(['ann', 'bo'])).toBe('ann und bo schreiben …');
      expect(typingText([], 1)).toBe('Jemand schreibt …');
    } finally {
      await activateLocale('en', ['room']);
    }
  });
  it('store: start, refresh, stop and expiry', () => {
    let s = roomReducer(initialRoomState(), {
      type: 'typingStarted',
      channelId: 'c1',
      userId: 'u1',
      username: 'ann',
      now: 0,
    });
    expect(typingNames(s.typing, 'c1', null, 10)).toEqual(['ann']);
    s = roomReducer(s, { type: 'typingStarted', channelId: 'c1', userId: 'u1', username: 'ann', now: 5000 });
    s = roomReducer(s, { type: 'typingExpired', now: LIMITS.typingExpireMs + 1 });
    expect(typingNames(s.typing, 'c1', null, LIMITS.typingExpireMs + 1)).toEqual(['ann']);
    s = roomReducer(s, { type: 'typingStopped', channelId: 'c1', userId: 'u1' });
    expect(typingNames(s.typing, 'c1', null, 5001)).toEqual([]);
  });
});
