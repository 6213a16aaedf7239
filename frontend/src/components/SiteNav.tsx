import { AppLink } from './AppLink.tsx';
import { LogoMark } from './Icons.tsx';

/** Top navigation. Accounts come later: until then it always offers Login / Sign Up. */
export function SiteNav() {
  return (
    <header className="site-nav">
      <AppLink href="/" className="brand" aria-label="Ephemera home">
        <LogoMark size={32} />
        <span>Ephemera</span>
      </AppLink>
      <nav aria-label="Main" className="site-nav-links">
        <AppLink href="/login" className="button button-ghost" data-testid="nav-login">Login / Sign Up</AppLink>
      </nav>
    </header>
  );
}
