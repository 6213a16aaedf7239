import { describe, expect, it } from 'vitest';
import { sameOriginPath } from './redirects.ts';
import { safeRedirect } from './account.ts';
import { safePath } from './paymentsApi.ts';

const ORIGIN = 'https://chat.example.com';

describe('redirect targets are parsed as URLs and must stay on this origin', () => {
  it('keeps paths of this site, with their query and fragment', () => {
    expect(sameOriginPath('/dashboard', ORIGIN)).toBe('/dashboard');
    expect(sameOriginPath('/upgrade?plan=pro#top', ORIGIN)).toBe('/upgrade?plan=pro#top');
    expect(sameOriginPath('/Team%20Room', ORIGIN)).toBe('/Team%20Room');
  });

  it('refuses other hosts however they are spelled, control characters and non-paths', () => {
    for (const bad of [
      '//evil.com',
      '/\\evil.com',
      '/\t/evil.com',
      '/\n/evil.com',
      '/\r//evil.com',
      '\t//evil.com',
      '/\u0000/x',
      '/x\u007f',
      '/a\u0085b',
      'https://evil.com/',
      'javascript:alert(1)',
      'evil.com',
      '',
      '/\\/evil.com',
      '///evil.com',
    ]) {
      expect(sameOriginPath(bad, ORIGIN), JSON.stringify(bad)).toBeNull();
    }
  });

  it('every page that redirects uses the rule: the login redirect and the payment return addresses', () => {
    for (const bad of ['/\t/evil.com', '//evil.com', '/\\evil.com', '/x\u0000']) {
      expect(safeRedirect(bad), JSON.stringify(bad)).toBe('/dashboard');
      expect(safePath(bad), JSON.stringify(bad)).toBeNull();
    }
    expect(safeRedirect('/upgrade?plan=pro')).toBe('/upgrade?plan=pro');
    expect(safePath('/team')).toBe('/team');
  });
});
