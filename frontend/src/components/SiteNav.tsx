import type { ReactNode } from 'react';
import { AppLink } from './AppLink.tsx';
import { LogoMark } from './Icons.tsx';
import { readAccount } from '../lib/account.ts';
import { useT } from '../i18n/i18n.ts';

/**
 * Top navigation: the brand, a page's own links (children: the static pages' Pricing and Create Room), then
 * Dashboard when signed in, else Login / Sign Up (docs/product/rooms.md R3).
 */
export function SiteNav({ children }: { children?: ReactNode } = {}) {
  const t = useT();
  const signedIn = readAccount() !== null;
  return (
    <header className="site-nav">
      <AppLink href="/" className="brand" aria-label={t('common.nav.home')}>
        <LogoMark size={32} />
        <span>Ephemera</span>
      </AppLink>
      <nav aria-label={t('common.nav.label')} className="site-nav-links">
        {children}
        {signedIn ? (
          <AppLink href="/dashboard" className="button button-ghost" data-testid="nav-dashboard">
            {t('common.nav.dashboard')}
          </AppLink>
        ) : (
          <AppLink href="/login" className="button button-ghost" data-testid="nav-login">
            {t('common.nav.login')}
          </AppLink>
        )}
      </nav>
    </header>
  );
}
