import { describe, expect, it } from 'vitest';
import { hasAccountSession } from './roomPrefs.ts';
import { ACCOUNT_KEY } from './account.ts';
import type { KeyValueStore } from './storage.ts';

const storeWith = (entries: Record<string, string>): KeyValueStore => {
  const m = new Map(Object.entries(entries));
  return {
    getItem: (k) => m.get(k) ?? null,
    setItem: (k, v) => {
      m.set(k, v);
    },
    removeItem: (k) => {
      m.delete(k);
    },
  } as KeyValueStore;
};

describe('hasAccountSession: the settings banner and the extension dialog ask whether an account is signed in', () => {
  it('is true only for the account record lib/account.ts saves (a token), not for a guest or a broken record', () => {
    expect(hasAccountSession(storeWith({}))).toBe(false);
    expect(hasAccountSession(storeWith({ [ACCOUNT_KEY]: 'not json' }))).toBe(false);
    expect(hasAccountSession(storeWith({ [ACCOUNT_KEY]: JSON.stringify({ user: {} }) }))).toBe(false);
    expect(hasAccountSession(storeWith({ authToken: 'x' }))).toBe(false);
    expect(
      hasAccountSession(storeWith({ [ACCOUNT_KEY]: JSON.stringify({ token: 'ses_abc', user: { email: 'a@b.c' } }) })),
    ).toBe(true);
  });
});
