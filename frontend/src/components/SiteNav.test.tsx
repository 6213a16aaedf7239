import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import type { AccountUser } from '@ephemera/proto';
import { SiteNav } from './SiteNav.tsx';
import { clearAccount, saveAccount } from '../lib/account.ts';
import { activateLocale } from '../i18n/i18n.ts';

/** the browser's storage as a map: the account record goes in and out through lib/account.ts */
const stored = new Map<string, string>();
const render = () =>
  renderToStaticMarkup(
    <MemoryRouter>
      <SiteNav />
    </MemoryRouter>,
  );
/** the header's account link: test id, target and text */
const accountLinks = (html: string) =>
  [...html.matchAll(/<a [^>]*data-testid="(nav-[a-z]+)" href="([^"]+)"[^>]*>([^<]*)<\/a>/g)].map(
    ([, id, href, text]) => ({ id, href, text }),
  );

describe('site header (docs/product/rooms.md R3)', () => {
  beforeAll(() => activateLocale('en', ['common']));
  beforeEach(() => {
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => stored.get(k) ?? null,
      setItem: (k: string, v: string) => {
        stored.set(k, v);
      },
      removeItem: (k: string) => {
        stored.delete(k);
      },
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    stored.clear();
  });

  it('signed out: Login / Sign Up to /login, no Dashboard', () => {
    const html = render();
    expect(accountLinks(html)).toEqual([{ id: 'nav-login', href: '/login', text: 'Login / Sign Up' }]);
    expect(html).not.toContain('Dashboard');
  });

  it('signed in: Dashboard to /dashboard instead of Login / Sign Up; signed out again, Login / Sign Up', () => {
    const user: AccountUser = {
      id: 'u1',
      email: 'a@example.test',
      username: 'alice',
      subscriptionTier: 'free',
      paymentStatus: 'active',
      subscriptionExpiresAt: null,
      autoRenewal: false,
      googleId: null,
      picture: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      isSuperadmin: false,
    };
    saveAccount({ token: 'session-token', user });
    const html = render();
    expect(accountLinks(html)).toEqual([{ id: 'nav-dashboard', href: '/dashboard', text: 'Dashboard' }]);
    expect(html).not.toContain('Login / Sign Up');
    clearAccount();
    expect(accountLinks(render())).toEqual([{ id: 'nav-login', href: '/login', text: 'Login / Sign Up' }]);
  });
});
