import { AppLink } from './AppLink.tsx';
import { LogoMark } from './Icons.tsx';
import { LanguageSwitcher } from './LanguageSwitcher.tsx';
import { useT, type MessageId } from '../i18n/i18n.ts';

const LINKS: [string, MessageId][] = [
  ['/upgrade', 'common.footer.pricing'],
  ['/features', 'common.footer.features'],
  ['/dashboard', 'common.footer.dashboard'],
  ['/about', 'common.footer.about'],
  ['/contact', 'common.footer.contact'],
  ['/privacy', 'common.footer.privacy'],
  ['/terms', 'common.footer.terms'],
];

export function SiteFooter() {
  const t = useT();
  return (
    <footer className="site-footer">
      <div className="site-footer-inner">
        <div className="brand brand-muted">
          <LogoMark size={24} />
          <span>Ephemera</span>
        </div>
        <nav aria-label={t('common.footer.navLabel')} className="footer-links">
          {LINKS.map(([href, label]) => (
            <AppLink key={href} href={href}>
              {t(label)}
            </AppLink>
          ))}
        </nav>
        <LanguageSwitcher className="footer-language" />
        <p className="footer-note">{t('common.footer.note', { year: String(new Date().getFullYear()) })}</p>
      </div>
    </footer>
  );
}
