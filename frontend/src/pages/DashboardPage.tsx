/**
 * /dashboard (docs/product/accounts.md A7): profile, limits, rooms (DashboardRooms.tsx),
 * change username, auto-renewal, export, sign-out (here or everywhere), delete account, and the admin-area button for
 * the superadmin account only (the server checks the session again there). Not signed in, or the profile fails to
 * load: signed out and sent to /.
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { DELETE_CONFIRMATION } from '@ephemera/proto/client';
import type { ProfileAnswer } from '@ephemera/proto';
import { SiteNav } from '../components/SiteNav.tsx';
import { SiteFooter } from '../components/SiteFooter.tsx';
import { Modal } from '../components/Modal.tsx';
import { LoadingScreen } from '../components/StatusScreens.tsx';
import { accountApi, clearAccount, readAccount, saveAccount } from '../lib/account.ts';
import { ADMIN_PAGE_PATH } from '@ephemera/proto/client';
import { DashboardRooms } from './DashboardRooms.tsx';
import { DashboardRenewal } from './DashboardRenewal.tsx';
import { statusLabel } from '../lib/paymentPlans.ts';
import { t as translate, useCatalog, useT } from '../i18n/i18n.ts';
import { formatDate, formatNumber } from '../i18n/format.ts';
import { errorText } from '../i18n/errorText.ts';
import './accounts.css';

const unlimited = (n: number) => (n === -1 ? translate('account.dashboard.unlimited') : formatNumber(n));

export function DashboardPage() {
  useCatalog('account');
  const t = useT();
  const navigate = useNavigate();
  const account = readAccount();
  const token = account?.token ?? null;
  const [profile, setProfile] = useState<ProfileAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [newName, setNewName] = useState('');
  const [deleting, setDeleting] = useState(false);
  const [confirmText, setConfirmText] = useState('');
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [deleted, setDeleted] = useState(false);

  const signOut = useCallback(() => {
    clearAccount();
    void navigate('/', { replace: true });
  }, [navigate]);
  const load = useCallback(async () => {
    if (!token) {
      signOut();
      return;
    }
    const r = await accountApi.profile(token);
    if (!r.ok) {
      signOut();
      return;
    } // a load failure also logs the user out (spec)
    setProfile(r.data);
    saveAccount({ token, user: r.data.user });
  }, [token, signOut]);
  useEffect(() => {
    document.title = translate('account.dashboard.documentTitle');
    void load();
  }, [load]);

  if (!token || !profile) return <LoadingScreen text={t('account.dashboard.loading')} />;
  const { user, limits, rooms } = profile;

  const changeUsername = async (e: FormEvent) => {
    e.preventDefault();
    if (!newName.trim()) {
      setError(t('account.dashboard.usernameRequired'));
      return;
    }
    const r = await accountApi.updateUsername(token, newName.trim());
    if (!r.ok) {
      setError(r.message ? errorText(null, r.message) : t('account.dashboard.usernameFailed'));
      return;
    }
    setNewName('');
    setError(null);
    void load();
  };
  const toggleRenewal = async () => {
    const r = await accountApi.autoRenewal(token, !user.autoRenewal);
    if (!r.ok) {
      setError(t('account.dashboard.autoRenewalFailed'));
      return;
    }
    void load();
  };
  const exportData = async () => {
    const r = await accountApi.exportData(token);
    if (!r.ok) {
      setError(t('account.dashboard.exportFailed'));
      return;
    }
    const name =
      /filename="([^"]+)"/.exec(r.response.headers.get('content-disposition') ?? '')?.[1] ??
      `ephemera-${user.username}-${new Date().toISOString().slice(0, 10)}.json`;
    const url = URL.createObjectURL(new Blob([JSON.stringify(r.data, null, 2)], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  const deleteAccount = async () => {
    if (confirmText !== DELETE_CONFIRMATION) {
      setDeleteError(t('account.dashboard.deleteConfirmRequired'));
      return;
    }
    const r = await accountApi.deleteAccount(token, confirmText);
    if (!r.ok) {
      setDeleteError(r.message ? errorText(null, r.message) : t('account.dashboard.deleteFailed'));
      return;
    }
    setDeleting(false);
    setDeleted(true);
    setTimeout(signOut, 2000);
  };
  const logout = async (everywhere: boolean) => {
    await (everywhere ? accountApi.logoutAll(token) : accountApi.logout(token));
    signOut();
  };

  return (
    <div className="landing">
      <SiteNav />
      <main className="account-page" data-testid="dashboard-page">
        <DashboardRenewal token={token} email={user.email} />
        <section className="account-card" aria-labelledby="profile-title">
          <div className="account-card-head">
            <h1 id="profile-title">{t('account.dashboard.welcome', { username: user.username })}</h1>
            <p className="account-lead">{t('account.dashboard.lead')}</p>
          </div>
          {error && (
            <p className="account-error" role="alert">
              {error}
            </p>
          )}
          <dl className="account-facts" data-testid="profile">
            <dt>{t('account.dashboard.email')}</dt>
            <dd>{user.email}</dd>
            <dt>{t('account.dashboard.plan')}</dt>
            <dd data-testid="profile-tier">{user.subscriptionTier}</dd>
            <dt>{t('account.dashboard.paymentStatus')}</dt>
            <dd data-testid="dashboard-payment-status">{statusLabel(user.paymentStatus)}</dd>
            <dt>{t('account.dashboard.expires')}</dt>
            <dd>
              {user.subscriptionExpiresAt ? formatDate(user.subscriptionExpiresAt, {}) : t('account.dashboard.never')}
            </dd>
            <dt>{t('account.dashboard.autoRenewal')}</dt>
            <dd>
              {user.autoRenewal ? t('account.dashboard.on') : t('account.dashboard.off')}{' '}
              <button type="button" className="link-button" onClick={() => void toggleRenewal()}>
                {user.autoRenewal ? t('account.dashboard.turnOff') : t('account.dashboard.turnOn')}
              </button>
            </dd>
          </dl>
          <div className="account-actions">
            <a className="button button-primary" href="/upgrade">
              {t('account.dashboard.upgrade')}
            </a>
            <a className="button button-ghost" href="/subscription" data-testid="manage-subscription">
              {t('account.dashboard.subscription')}
            </a>
            {user.isSuperadmin && (
              <a className="button button-ghost" href={ADMIN_PAGE_PATH} data-testid="admin-button">
                {t('account.dashboard.adminArea')}
              </a>
            )}
          </div>
        </section>
        <section className="account-card" aria-labelledby="limits-title">
          <h2 id="limits-title">{t('account.dashboard.limits')}</h2>
          <dl className="account-facts" data-testid="limits">
            <dt>{t('account.dashboard.roomLifetime')}</dt>
            <dd>
              {limits.roomExpiryHours === -1
                ? t('account.dashboard.permanent')
                : t('account.dashboard.hours', { count: limits.roomExpiryHours })}
            </dd>
            <dt>{t('account.dashboard.usersPerRoom')}</dt>
            <dd>{unlimited(limits.maxUsersPerRoom)}</dd>
            <dt>{t('account.dashboard.themes')}</dt>
            <dd>{limits.themesAvailable.join(', ')}</dd>
          </dl>
        </section>
        <DashboardRooms token={token} username={user.username} rooms={rooms} reload={() => void load()} />
        <section className="account-card" aria-labelledby="settings-title">
          <h2 id="settings-title">{t('account.dashboard.account')}</h2>
          <form className="account-inline-form" onSubmit={changeUsername} noValidate>
            <label>
              {t('account.dashboard.newUsername')}
              <input
                value={newName}
                maxLength={30}
                onChange={(e) => setNewName(e.target.value)}
                data-testid="new-username"
              />
            </label>
            <button className="button button-ghost">{t('account.dashboard.changeUsername')}</button>
          </form>
          <div className="account-actions">
            <button
              type="button"
              className="button button-ghost"
              onClick={() => void exportData()}
              data-testid="export-data"
            >
              {t('account.dashboard.exportData')}
            </button>
            <button
              type="button"
              className="button button-ghost"
              onClick={() => void logout(false)}
              data-testid="logout"
            >
              {t('account.dashboard.signOut')}
            </button>
            <button type="button" className="button button-ghost" onClick={() => void logout(true)}>
              {t('account.dashboard.signOutEverywhere')}
            </button>
          </div>
          <div className="account-danger">
            <div>
              <h3>{t('account.dashboard.deleteAccount')}</h3>
              <p className="account-lead">{t('account.dashboard.deleteLead')}</p>
            </div>
            <button
              type="button"
              className="button button-danger"
              onClick={() => {
                setDeleting(true);
                setConfirmText('');
                setDeleteError(null);
              }}
              data-testid="delete-account"
            >
              {t('account.dashboard.deleteAccount')}
            </button>
          </div>
        </section>
      </main>
      {deleting && (
        <Modal
          title={t('account.dashboard.deleteTitle')}
          tone="danger"
          onClose={() => setDeleting(false)}
          testId="delete-account-modal"
          footer={
            <button type="button" className="button button-danger" onClick={() => void deleteAccount()}>
              {t('account.dashboard.deleteForever')}
            </button>
          }
        >
          <p>{t('account.dashboard.deleteText')}</p>
          <input
            value={confirmText}
            onChange={(e) => setConfirmText(e.target.value)}
            aria-label={t('account.dashboard.deleteConfirmLabel')}
            data-testid="delete-confirm"
          />
          {deleteError && (
            <p className="account-error" role="alert">
              {deleteError}
            </p>
          )}
        </Modal>
      )}
      {deleted && (
        <div className="success-overlay" role="status">
          {t('account.dashboard.deleted')}
        </div>
      )}
      <SiteFooter />
    </div>
  );
}
