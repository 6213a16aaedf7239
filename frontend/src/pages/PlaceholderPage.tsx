import { useEffect } from 'react';
import { SiteNav } from '../components/SiteNav.tsx';
import { SiteFooter } from '../components/SiteFooter.tsx';
import { AppLink } from '../components/AppLink.tsx';

const TITLES: Record<string, string> = {
  login: 'Login / Sign Up',
  upgrade: 'Pricing',
  dashboard: 'Dashboard',
  features: 'Features',
  about: 'About',
  privacy: 'Privacy',
  terms: 'Terms',
  contact: 'Contact',
  subscription: 'Subscription',
  'payment/success': 'Payment',
  'payment/cancelled': 'Payment Cancelled',
};

/** Pages of other slices (accounts, pricing, static pages) until they are built; also the 404 page. */
export function PlaceholderPage({ page }: { page: string | null }) {
  const title = page ? (TITLES[page] ?? 'Coming soon') : 'Page not found';
  useEffect(() => {
    document.title = `${title} · Ephemera`;
  }, [title]);
  return (
    <div className="landing">
      <SiteNav />
      <main className="placeholder" data-testid={page ? 'placeholder-page' : 'not-found-page'}>
        <h1>{title}</h1>
        <p>{page ? 'This page is coming soon.' : "We couldn't find that page."}</p>
        <AppLink href="/" className="button button-primary">
          Create a room
        </AppLink>
      </main>
      <SiteFooter />
    </div>
  );
}
