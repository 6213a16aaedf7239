/**
 * The frame of the static pages (About, Privacy, Terms, Features, Contact; docs/product/accounts.md A14):
 * the header with Pricing (/upgrade) and Create Room (/), the page's title and description for search engines and
 * shared links (lib/pageMeta.ts), a heading with its lead, the content, and a closing line back to / and /contact.
 */
import type { ReactNode } from 'react';
import { SiteNav } from '../components/SiteNav.tsx';
import { SiteFooter } from '../components/SiteFooter.tsx';
import { AppLink } from '../components/AppLink.tsx';
import { usePageMeta } from '../lib/pageMeta.ts';
import { useT } from '../i18n/i18n.ts';
import { Trans } from '../i18n/Trans.tsx';
import './static-pages.css';

export interface StaticPageProps {
  /** the tab's title (" · Ephemera" is added) */
  title: string;
  /** the meta description: one or two sentences a search result or a shared link shows */
  description: string;
  heading: string;
  lead: ReactNode;
  testId: string;
  children: ReactNode;
  /** the closing "Questions? Contact us" line (not on the Contact page itself) */
  contactLine?: boolean;
  /** wider content (the plan comparison) */
  wide?: boolean;
}

export function StaticPage({
  title,
  description,
  heading,
  lead,
  testId,
  children,
  contactLine = true,
  wide = false,
}: StaticPageProps) {
  const t = useT();
  usePageMeta(title, description);
  return (
    <div className="landing">
      <SiteNav>
        <AppLink href="/upgrade" className="nav-link" data-testid="nav-pricing">
          {t('public.static.pricing')}
        </AppLink>
        <AppLink href="/" className="button button-primary" data-testid="nav-create-room">
          {t('public.static.createRoom')}
        </AppLink>
      </SiteNav>
      <main className={`static-page${wide ? ' static-page-wide' : ''}`} data-testid={testId}>
        <header className="static-head">
          <h1>{heading}</h1>
          <p className="static-lead">{lead}</p>
        </header>
        {children}
        {contactLine && (
          <p className="static-closing">
            <Trans
              id="public.static.closing"
              components={{
                0: <AppLink href="/contact" className="text-link" />,
                1: <AppLink href="/" className="text-link" />,
              }}
            />
          </p>
        )}
      </main>
      <SiteFooter />
    </div>
  );
}

/** A titled part of a page, its heading linked for the screen reader's outline. */
export function StaticSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="static-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
    </section>
  );
}
