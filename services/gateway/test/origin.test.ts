import { describe, it, expect } from 'vitest';
import { originAllowed } from '../src/origin.ts';

describe('handshake origin allowlist (docs/product/security.md S4)', () => {
  it('allows the same host, listed origins and non-browser clients', () => {
    expect(originAllowed({ origin: 'http://chat.example:8080', host: 'chat.example:8080' }, [])).toBe(true);
    expect(originAllowed({ origin: 'https://app.example', host: 'api.internal' }, ['https://app.example'])).toBe(true);
    expect(originAllowed({ host: 'chat.example' }, [])).toBe(true);
  });
  it('refuses other origins and garbage', () => {
    expect(originAllowed({ origin: 'https://evil.example', host: 'chat.example' }, [])).toBe(false);
    expect(originAllowed({ origin: 'null', host: 'chat.example' }, [])).toBe(false);
    expect(
      originAllowed({ origin: 'http://chat.example.evil.example', host: 'chat.example' }, ['https://chat.example']),
    ).toBe(false);
  });
});
