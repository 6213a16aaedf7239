import type { ReactNode } from 'react';
import { AppLink } from './AppLink.tsx';
import { LogoMark } from './Icons.tsx';

/** Top navigation: the brand, a page's own links (children: the static pages' Pricing and Create Room), Login / Sign Up. */
export function SiteNav({ children }: { children?: ReactNode } = {}) {
  return (
    <header className="site-nav">
      <AppLink href="/" className="brand" aria-label="Ephemera home">
        <LogoMark size={32} />
        <span>Ephemera</span>
      </AppLink>
      <nav aria-label="Main" className="site-nav-links">
        {children}
        <AppLink href="/login" className="button button-ghost" data-testid="nav-login">Login / Sign Up</AppLink>
      </nav>
    </header>
  );
}
