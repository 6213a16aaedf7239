import { Component, lazy, Suspense, useEffect, type ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation, useNavigationType, useParams } from 'react-router';
import { Landing } from './pages/Landing.tsx';
import { CenteredScreen, LoadingScreen } from './components/StatusScreens.tsx';
import { resolveMatch, ROUTE_TABLE, type RouteId } from './lib/routes.ts';
import { reportPageView } from './lib/visitorCalls.ts';
import { ToastProvider } from './components/overlays/Toast.tsx';
import { MaintenanceBanner } from './components/overlays/MaintenanceBanner.tsx';
import { RemovedHost } from './components/overlays/RemovedHost.tsx';
import { useT } from './i18n/i18n.ts';

// Everything but the landing page loads on demand. The room page (session, socket, chat, menus) is its own chunk:
// the landing's initial JS stays small, and the build checks landing + room page against the budget too
// (bundle-budget.ts). Every other page is a chunk of its own too; PlaceholderPage is left for unknown paths (404).
const RoomPage = lazy(() => import('./pages/RoomPage.tsx').then((m) => ({ default: m.RoomPage })));
const PlaceholderPage = lazy(() => import('./pages/PlaceholderPage.tsx').then((m) => ({ default: m.PlaceholderPage })));
// Accounts: their own chunks, like the room page.
const LoginPage = lazy(() => import('./pages/LoginPage.tsx').then((m) => ({ default: m.LoginPage })));
const DashboardPage = lazy(() => import('./pages/DashboardPage.tsx').then((m) => ({ default: m.DashboardPage })));
// Payments: pricing, subscription and the payment return pages, each its own chunk.
const UpgradePage = lazy(() => import('./pages/UpgradePage.tsx').then((m) => ({ default: m.UpgradePage })));
const SubscriptionPage = lazy(() =>
  import('./pages/SubscriptionPage.tsx').then((m) => ({ default: m.SubscriptionPage })),
);
const PaymentSuccessPage = lazy(() =>
  import('./pages/PaymentSuccessPage.tsx').then((m) => ({ default: m.PaymentSuccessPage })),
);
const PaymentCancelledPage = lazy(() =>
  import('./pages/PaymentCancelledPage.tsx').then((m) => ({ default: m.PaymentCancelledPage })),
);
// The static pages (About, Privacy, Terms, Features, Contact): each its own chunk.
const AboutPage = lazy(() => import('./pages/AboutPage.tsx').then((m) => ({ default: m.AboutPage })));
const PrivacyPage = lazy(() => import('./pages/PrivacyPage.tsx').then((m) => ({ default: m.PrivacyPage })));
const TermsPage = lazy(() => import('./pages/TermsPage.tsx').then((m) => ({ default: m.TermsPage })));
const FeaturesPage = lazy(() => import('./pages/FeaturesPage.tsx').then((m) => ({ default: m.FeaturesPage })));
const ContactPage = lazy(() => import('./pages/ContactPage.tsx').then((m) => ({ default: m.ContactPage })));
// The superadmin dashboard, with its charts library: a chunk only its visitor loads.
const SuperadminPage = lazy(() =>
  import('./pages/superadmin/SuperadminPage.tsx').then((m) => ({ default: m.SuperadminPage })),
);

/** The element of one route of ROUTE_TABLE: react-router matched it; lib/routes.ts applies the app's rules. */
function RouteScreen({ id }: { id: RouteId }) {
  const params = useParams();
  const { pathname, search } = useLocation();
  const route = resolveMatch(id, params, pathname, search);

  switch (route.kind) {
    case 'landing':
      return <Landing />;
    case 'superadmin':
      return <SuperadminPage />;
    case 'room':
      return <RoomPage key={`room:${route.roomName.toLowerCase()}`} target={route} />;
    case 'workspace':
      return <RoomPage key={`ws:${route.workspaceId}`} target={route} />;
    case 'page':
      if (route.page === 'login') return <LoginPage />;
      if (route.page === 'dashboard') return <DashboardPage />;
      if (route.page === 'upgrade') return <UpgradePage />;
      if (route.page === 'subscription') return <SubscriptionPage />;
      if (route.page === 'payment/success') return <PaymentSuccessPage />;
      if (route.page === 'payment/cancelled') return <PaymentCancelledPage />;
      if (route.page === 'about') return <AboutPage />;
      if (route.page === 'privacy') return <PrivacyPage />;
      if (route.page === 'terms') return <TermsPage />;
      if (route.page === 'features') return <FeaturesPage />;
      if (route.page === 'contact') return <ContactPage />;
      return <PlaceholderPage page={route.page} />;
    case 'notFound':
      return <PlaceholderPage page={null} />;
    case 'redirect':
      return <Navigate to={route.to} replace />;
  }
}

/** A new page starts at the top (back and forward keep the browser's own scroll restoration). */
function ScrollToTop() {
  const { pathname } = useLocation();
  const type = useNavigationType();
  useEffect(() => {
    if (type !== 'POP') window.scrollTo(0, 0);
  }, [pathname, type]);
  return null;
}

/** docs/product/admin.md ADM14: every route change reports the page's path to analytics (fire-and-forget; never blocks the page). */
function PageViews() {
  const { pathname } = useLocation();
  useEffect(() => {
    reportPageView(pathname);
  }, [pathname]);
  return null;
}

function RouteError() {
  const t = useT();
  return (
    <CenteredScreen testId="route-error">
      <h1 className="overlay-title">{t('common.status.somethingWrong')}</h1>
      <p className="overlay-sub" role="alert">
        {t('common.status.pageFailed')}
      </p>
      <div className="button-row">
        <a className="button button-primary" href="/">
          {t('common.status.backHome')}
        </a>
      </div>
    </CenteredScreen>
  );
}

/** A page that throws (or a lazy chunk that fails to load) shows an error screen, not a blank page. */
class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? <RouteError /> : this.props.children;
  }
}

/**
 * The app: react-router (declarative mode, <BrowserRouter>) over the route table of lib/routes.ts. Declarative
 * mode keeps the data-router code (loaders, actions, fetchers) out of the initial JavaScript.
 */
export function App() {
  const t = useT();
  return (
    <BrowserRouter>
      <ScrollToTop />
      <PageViews />
      <ToastProvider>
        <MaintenanceBanner />
        <RemovedHost />
        <ErrorBoundary>
          <Suspense fallback={<LoadingScreen text={t('common.status.loading')} />}>
            <Routes>
              {ROUTE_TABLE.map((r) => (
                <Route key={r.id} path={r.path} caseSensitive={r.caseSensitive} element={<RouteScreen id={r.id} />} />
              ))}
            </Routes>
          </Suspense>
        </ErrorBoundary>
      </ToastProvider>
    </BrowserRouter>
  );
}
