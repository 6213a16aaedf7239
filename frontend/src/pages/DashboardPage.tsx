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
import { statusLabel } from '../lib/payments.ts';
import './accounts.css';

const unlimited = (n: number, unit = '') => (n === -1 ? 'Unlimited' : `${n}${unit}`);

export function DashboardPage() {
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
    document.title = 'Dashboard · Ephemera';
    void load();
  }, [load]);

  if (!token || !profile) return <LoadingScreen text="Loading your dashboard…" />;
  const { user, limits, rooms } = profile;

  const changeUsername = async (e: FormEvent) => {
    e.preventDefault();
    if (!newName.trim()) {
      setError('Please enter a new username');
      return;
    }
    const r = await accountApi.updateUsername(token, newName.trim());
    if (!r.ok) {
      setError(r.message || 'Failed to change username');
      return;
    }
    setNewName('');
    setError(null);
    void load();
  };
  const toggleRenewal = async () => {
    const r = await accountApi.autoRenewal(token, !user.autoRenewal);
    if (!r.ok) {
      setError('Failed to update auto-renewal settings.');
      return;
    }
    void load();
  };
  const exportData = async () => {
    const r = await accountApi.exportData(token);
    if (!r.ok) {
      setError('Export failed. Please try again.');
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
      setDeleteError('Please type DELETE to confirm');
      return;
    }
    const r = await accountApi.deleteAccount(token, confirmText);
    if (!r.ok) {
      setDeleteError(r.message || 'Failed to delete account');
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
            <h1 id="profile-title">Welcome, {user.username}</h1>
            <p className="account-lead">Your account, your plan and your rooms.</p>
          </div>
          {error && (
            <p className="account-error" role="alert">
              {error}
            </p>
          )}
          <dl className="account-facts" data-testid="profile">
            <dt>E-mail</dt>
            <dd>{user.email}</dd>
            <dt>Plan</dt>
            <dd data-testid="profile-tier">{user.subscriptionTier}</dd>
            <dt>Payment status</dt>
            <dd data-testid="dashboard-payment-status">{statusLabel(user.paymentStatus)}</dd>
            <dt>Expires</dt>
            <dd>{user.subscriptionExpiresAt ? new Date(user.subscriptionExpiresAt).toLocaleDateString() : 'Never'}</dd>
            <dt>Auto-renewal</dt>
            <dd>
              {user.autoRenewal ? 'On' : 'Off'}{' '}
              <button type="button" className="link-button" onClick={() => void toggleRenewal()}>
                {user.autoRenewal ? 'Turn off' : 'Turn on'}
              </button>
            </dd>
          </dl>
          <div className="account-actions">
            <a className="button button-primary" href="/upgrade">
              Upgrade
            </a>
            <a className="button button-ghost" href="/subscription" data-testid="manage-subscription">
              Subscription
            </a>
            {user.isSuperadmin && (
              <a className="button button-ghost" href={ADMIN_PAGE_PATH} data-testid="admin-button">
                Admin area
              </a>
            )}
          </div>
        </section>
        <section className="account-card" aria-labelledby="limits-title">
          <h2 id="limits-title">Your plan's limits</h2>
          <dl className="account-facts" data-testid="limits">
            <dt>Room lifetime</dt>
            <dd>{limits.roomExpiryHours === -1 ? 'Permanent' : `${limits.roomExpiryHours} hours`}</dd>
            <dt>Users per room</dt>
            <dd>{unlimited(limits.maxUsersPerRoom)}</dd>
            <dt>Themes</dt>
            <dd>{limits.themesAvailable.join(', ')}</dd>
          </dl>
        </section>
        <DashboardRooms token={token} username={user.username} rooms={rooms} reload={() => void load()} />
        <section className="account-card" aria-labelledby="settings-title">
          <h2 id="settings-title">Account</h2>
          <form className="account-inline-form" onSubmit={changeUsername} noValidate>
            <label>
              New username
              <input
                value={newName}
                maxLength={30}
                onChange={(e) => setNewName(e.target.value)}
                data-testid="new-username"
              />
            </label>
            <button className="button button-ghost">Change username</button>
          </form>
          <div className="account-actions">
            <button
              type="button"
              className="button button-ghost"
              onClick={() => void exportData()}
              data-testid="export-data"
            >
              Export my data
            </button>
            <button
              type="button"
              className="button button-ghost"
              onClick={() => void logout(false)}
              data-testid="logout"
            >
              Sign out
            </button>
            <button type="button" className="button button-ghost" onClick={() => void logout(true)}>
              Sign out everywhere
            </button>
          </div>
          <div className="account-danger">
            <div>
              <h3>Delete account</h3>
              <p className="account-lead">Your account, your rooms and everything in them, for good.</p>
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
              Delete account
            </button>
          </div>
        </section>
      </main>
      {deleting && (
        <Modal
          title="Delete your account"
          tone="danger"
          onClose={() => setDeleting(false)}
          testId="delete-account-modal"
          footer={
            <button type="button" className="button button-danger" onClick={() => void deleteAccount()}>
              Delete forever
            </button>
          }
        >
          <p>Your account, your rooms and everything in them are deleted. Type DELETE to confirm.</p>
          <input
            value={confirmText}
            onChange={(e) => setConfirmText(e.target.value)}
            aria-label="Type DELETE to confirm"
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
          Your account was deleted.
        </div>
      )}
      <SiteFooter />
    </div>
  );
}
