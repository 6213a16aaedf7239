import { useEffect } from 'react';
import { SiteNav } from '../components/SiteNav.tsx';
import { SiteFooter } from '../components/SiteFooter.tsx';
import { AppLink } from '../components/AppLink.tsx';
import { useT, type MessageId } from '../i18n/i18n.ts';

const TITLES: Record<string, MessageId> = {
  login: 'common.nav.login',
  upgrade: 'common.footer.pricing',
  dashboard: 'common.footer.dashboard',
  features: 'common.footer.features',
  about: 'common.footer.about',
  privacy: 'common.footer.privacy',
  terms: 'common.footer.terms',
  contact: 'common.footer.contact',
};

/** Pages of other slices (accounts, pricing, static pages) until they are built; also the 404 page. */
export function PlaceholderPage({ page }: { page: string | null }) {
  const t = useT();
  const title = page ? t(TITLES[page] ?? 'public.placeholder.comingSoonTitle') : t('public.placeholder.notFoundTitle');
  useEffect(() => {
    document.title = `${title} · Ephemera`;
  }, [title]);
  return (
    <div className="landing">
      <SiteNav />
      <main className="placeholder" data-testid={page ? 'placeholder-page' : 'not-found-page'}>
        <h1>{title}</h1>
        <p>{page ? t('public.placeholder.comingSoon') : t('public.placeholder.notFound')}</p>
        <AppLink href="/" className="button button-primary">
          {t('public.about.cta.create')}
        </AppLink>
      </main>
      <SiteFooter />
    </div>
  );
}
