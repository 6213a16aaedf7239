import { AppLink } from './AppLink.tsx';
import { LogoMark } from './Icons.tsx';

const LINKS: [string, string][] = [
  ['/upgrade', 'Pricing'],
  ['/features', 'Features'],
  ['/dashboard', 'Dashboard'],
  ['/about', 'About'],
  ['/contact', 'Contact'],
  ['/privacy', 'Privacy'],
  ['/terms', 'Terms'],
];

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <div className="site-footer-inner">
        <div className="brand brand-muted">
          <LogoMark size={24} />
          <span>Ephemera</span>
        </div>
        <nav aria-label="Footer" className="footer-links">
          {LINKS.map(([href, label]) => (
            <AppLink key={href} href={href}>
              {label}
            </AppLink>
          ))}
        </nav>
        <p className="footer-note">
          © {new Date().getFullYear()} Ephemera. Conversations that don't outstay their welcome.
        </p>
      </div>
    </footer>
  );
}
