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
import { ADMIN_PAGE_PATH, watchAdminAnswers } from '../../lib/adminApi.ts';
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
import { t as translate, useCatalog, useT } from '../../i18n/i18n.ts';
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
  useCatalog('admin');
  const t = useT();
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
      if (to === '/dashboard') window.alert(translate('admin.unauthorized'));
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
    document.title = translate('admin.documentTitle');
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

  if (!granted) return <LoadingScreen text={t('admin.checkingAccess')} />;

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
        <h1>{t('admin.title')}</h1>
        <div className="sa-header-actions">
          <button
            type="button"
            className="button button-ghost"
            onClick={() => void reload()}
            disabled={loading}
            data-testid="sa-refresh"
          >
            {loading ? t('admin.refreshing') : t('admin.refresh')}
          </button>
          <button type="button" className="button button-ghost" onClick={() => void logout()} data-testid="sa-logout">
            {t('admin.logout')}
          </button>
        </div>
      </header>
      <nav className="sa-nav" aria-label={t('admin.sections')}>
        <div className="sa-tabs" role="tablist" aria-label={t('admin.sections')}>
          {TABS.map((each, i) => (
            <button
              key={each.id}
              id={`sa-tab-${each.id}`}
              type="button"
              role="tab"
              aria-selected={tab === each.id}
              aria-controls="sa-panel"
              tabIndex={tab === each.id ? 0 : -1}
              className={`sa-tab${tab === each.id ? ' active' : ''}`}
              onClick={() => setTab(each.id)}
              onKeyDown={(e) => onTabKey(e, i)}
              data-testid={`sa-tab-${each.id}`}
            >
              {t(each.label)}
            </button>
          ))}
        </div>
        <label className="sa-tab-select">
          <span className="sr-only">{t('admin.section')}</span>
          <select value={tab} onChange={(e) => setTab(e.target.value as TabId)} data-testid="sa-tab-select">
            {TABS.map((each) => (
              <option key={each.id} value={each.id}>
                {t(each.label)}
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
