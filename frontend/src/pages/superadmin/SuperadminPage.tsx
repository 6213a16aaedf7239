/**
 * The superadmin dashboard (docs/product/admin.md ADM3-ADM12), at ADMIN_PAGE_PATH.
 * Access (docs/product/admin.md ADM1): not signed in, or the profile check fails -> /login; signed in but not the
 * superadmin (or any
 * admin call answers 403 SUPERADMIN_REQUIRED) -> the alert Unauthorized: Superadmin access required, then /dashboard.
 * The server checks the session on every call regardless. Header: Refresh and Logout. Tabs Dashboard, Users, Rooms,
 * Analytics, System, Feedback, Settings; below 768 px the tab list is a dropdown.
 */
import { useCallback, useEffect, useRef, useState, type JSX, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { accountApi, clearAccount, readAccount } from '../../lib/account.ts';
import { ADMIN_PAGE_PATH, ADMIN_TEXT, watchAdminAnswers } from '../../lib/adminApi.ts';
import { useToast } from '../../components/overlays/Toast.tsx';
import { LoadingScreen } from '../../components/StatusScreens.tsx';
import { useAsk } from './AskDialog.tsx';
import { useAdminData } from './useAdminData.ts';
import { TABS, type TabId, type TabProps } from './tabProps.ts';
import { DashboardTab } from './DashboardTab.tsx';
import { UsersTab } from './UsersTab.tsx';
import { RoomsTab } from './RoomsTab.tsx';
import { AnalyticsTab } from './AnalyticsTab.tsx';
import { SystemTab } from './SystemTab.tsx';
import { FeedbackTab } from './FeedbackTab.tsx';
import { SettingsTab } from './SettingsTab.tsx';
import './superadmin.css';

const PANELS: Record<TabId, (p: TabProps) => JSX.Element> = {
  dashboard: DashboardTab,
  users: UsersTab,
  rooms: RoomsTab,
  analytics: AnalyticsTab,
  system: SystemTab,
  feedback: FeedbackTab,
  settings: SettingsTab,
};

export function SuperadminPage() {
  const navigate = useNavigate();
  const toast = useToast();
  const [ask, askElement] = useAsk();
  const { data, loading, reload } = useAdminData();
  const [granted, setGranted] = useState(false);
  const [tab, setTab] = useState<TabId>('dashboard');
  const left = useRef(false);

  /** Leave once (several calls may be refused together). */
  const leave = useCallback(
    (to: '/login' | '/dashboard') => {
      if (left.current) return;
      left.current = true;
      if (to === '/dashboard') window.alert(ADMIN_TEXT.unauthorized);
      void navigate(to === '/login' ? `/login?redirect=${encodeURIComponent(ADMIN_PAGE_PATH)}` : to, { replace: true });
    },
    [navigate],
  );

  useEffect(
    () =>
      watchAdminAnswers((a) => {
        if (a.status === 403 && a.code === 'SUPERADMIN_REQUIRED') leave('/dashboard');
        else if (a.status === 401) leave('/login');
      }),
    [leave],
  );

  useEffect(() => {
    document.title = 'Admin Dashboard · Ephemera';
    const account = readAccount();
    if (!account) {
      leave('/login');
      return;
    }
    let live = true;
    void accountApi.profile(account.token).then((r) => {
      if (!live) return;
      if (!r.ok) {
        leave('/login');
        return;
      }
      if (!r.data.user.isSuperadmin) {
        leave('/dashboard');
        return;
      }
      setGranted(true);
      void reload();
    });
    return () => {
      live = false;
    };
  }, [leave, reload]);

  if (!granted) return <LoadingScreen text="Checking access…" />;

  const logout = async () => {
    const account = readAccount();
    if (account) await accountApi.logout(account.token);
    clearAccount();
    left.current = true;
    void navigate('/login', { replace: true });
  };
  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!step && e.key !== 'Home' && e.key !== 'End') return;
    e.preventDefault();
    const next = e.key === 'Home' ? 0 : e.key === 'End' ? TABS.length - 1 : (index + step + TABS.length) % TABS.length;
    setTab(TABS[next]!.id);
    document.getElementById(`sa-tab-${TABS[next]!.id}`)?.focus();
  };
  const Panel = PANELS[tab];

  return (
    <div className="sa-page" data-testid="superadmin-page">
      <header className="sa-header">
        <h1>Admin Dashboard</h1>
        <div className="sa-header-actions">
          <button
            type="button"
            className="button button-ghost"
            onClick={() => void reload()}
            disabled={loading}
            data-testid="sa-refresh"
          >
            {loading ? 'Refreshing…' : 'Refresh'}
          </button>
          <button type="button" className="button button-ghost" onClick={() => void logout()} data-testid="sa-logout">
            Logout
          </button>
        </div>
      </header>
      <nav className="sa-nav" aria-label="Admin sections">
        <div className="sa-tabs" role="tablist" aria-label="Admin sections">
          {TABS.map((t, i) => (
            <button
              key={t.id}
              id={`sa-tab-${t.id}`}
              type="button"
              role="tab"
              aria-selected={tab === t.id}
              aria-controls="sa-panel"
              tabIndex={tab === t.id ? 0 : -1}
              className={`sa-tab${tab === t.id ? ' active' : ''}`}
              onClick={() => setTab(t.id)}
              onKeyDown={(e) => onTabKey(e, i)}
              data-testid={`sa-tab-${t.id}`}
            >
              {t.label}
            </button>
          ))}
        </div>
        <label className="sa-tab-select">
          <span className="sr-only">Admin section</span>
          <select value={tab} onChange={(e) => setTab(e.target.value as TabId)} data-testid="sa-tab-select">
            {TABS.map((t) => (
              <option key={t.id} value={t.id}>
                {t.label}
              </option>
            ))}
          </select>
        </label>
      </nav>
      <main
        id="sa-panel"
        className="sa-panel"
        role="tabpanel"
        aria-labelledby={`sa-tab-${tab}`}
        data-testid={`sa-panel-${tab}`}
      >
        <Panel data={data} reload={reload} ask={ask} toast={toast} />
      </main>
      {askElement}
    </div>
  );
}
