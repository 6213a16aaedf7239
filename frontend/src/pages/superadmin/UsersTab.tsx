/**
 * Users tab: search by email or username, export, breakdowns by tier, status and growth, and the first 50 users with
 * the Admin Trial badge and the actions admin upgrade, suspend (or unsuspend) and delete. Delete and suspend ask a
 * reason; an empty one abandons the action (docs/product/admin.md ADM4). The superadmin's own account is not listed.
 */
import { useMemo, useState } from 'react';
import type { AdminUser } from '@ephemera/proto';
import { ADMIN_LIMITS, adminApi, type AdminResult } from '../../lib/adminApi.ts';
import { readAccount } from '../../lib/account.ts';
import type { TabProps } from './tabProps.ts';
import { Badge, Cards, Section, StatCard, Unavailable } from './ui.tsx';
import { count, dateOf, percent, reasonOf } from './format.ts';
import { exportData } from './exports.ts';
import { AdminUpgradeDialog } from './AdminUpgradeDialog.tsx';

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The texts: User {action} completed successfully; Failed to {action} user; {action} failed. */
export function userActionToast(toast: TabProps['toast'], action: string, r: AdminResult<unknown>): boolean {
  if (r.ok) toast.success(`User ${action} completed successfully`);
  else if (r.status === 0) toast.error(`${capital(action)} failed`);
  else toast.error(`Failed to ${action} user`);
  return r.ok;
}

function breakdown(users: AdminUser[]) {
  const byTier = { free: 0, pro: 0, business: 0 };
  const byStatus = { active: 0, past_due: 0, cancelled: 0 };
  for (const u of users) { byTier[u.subscriptionTier] += 1; byStatus[u.paymentStatus] += 1; }
  return { byTier, byStatus, total: users.length };
}

export function UsersTab({ data, reload, ask, toast }: TabProps) {
  const [query, setQuery] = useState('');
  const [upgrading, setUpgrading] = useState<string | null>(null);
  const self = readAccount()?.user.email.toLowerCase();
  const users = useMemo(() => (data.users ?? []).filter((u) => u.email.toLowerCase() !== self), [data.users, self]);
  const q = query.trim().toLowerCase();
  const shown = users.filter((u) => !q || u.email.toLowerCase().includes(q) || (u.username ?? '').toLowerCase().includes(q)).slice(0, ADMIN_LIMITS.tableRows);
  const report = data.report?.users;
  const counted = breakdown(users);
  const byTier = report?.byTier ?? counted.byTier;
  const byStatus = report?.byStatus ?? counted.byStatus;
  const after = () => void reload(['users', 'dashboard', 'report', 'cleanup']);

  const remove = async (u: AdminUser) => {
    const reason = reasonOf(await ask.prompt(`Reason for deleting ${u.email}:`));
    if (!reason) return;
    if (userActionToast(toast, 'delete', await adminApi.deleteUser(u.email, reason))) after();
  };
  const suspend = async (u: AdminUser) => {
    if (u.suspended) {
      if (userActionToast(toast, 'unsuspend', await adminApi.suspendUser(u.email, false, ''))) after();
      return;
    }
    const reason = reasonOf(await ask.prompt(`Reason for suspending ${u.email}:`));
    if (!reason) return;
    if (userActionToast(toast, 'suspend', await adminApi.suspendUser(u.email, true, reason))) after();
  };
  const upgrade = async (tier: 'pro' | 'business') => {
    const email = upgrading;
    setUpgrading(null);
    if (email && userActionToast(toast, 'upgrade', await adminApi.adminUpgrade(email, tier))) after();
  };

  return (
    <>
      <Section title="Users" testId="sa-users"
        actions={<button type="button" className="button button-ghost" onClick={() => void exportData('users', toast)}>Export</button>}>
        <label className="sa-search">
          <span className="sa-sr-only">Search users by email or username</span>
          <input type="search" className="sa-input" placeholder="Search by email or username" value={query} onChange={(e) => setQuery(e.target.value)} data-testid="sa-user-search" />
        </label>
        <div className="sa-breakdowns">
          <h3 className="sa-subhead">By tier</h3>
          <Cards testId="sa-users-by-tier">
            <StatCard label="Free" value={count(byTier.free)} testId="sa-tier-free" />
            <StatCard label="Pro" value={count(byTier.pro)} testId="sa-tier-pro" />
            <StatCard label="Business" value={count(byTier.business)} testId="sa-tier-business" />
          </Cards>
          <h3 className="sa-subhead">By status</h3>
          <Cards testId="sa-users-by-status">
            <StatCard label="Active" value={count(byStatus.active)} testId="sa-status-active" />
            <StatCard label="Past Due" value={count(byStatus.past_due)} testId="sa-status-past-due" />
            <StatCard label="Cancelled" value={count(byStatus.cancelled)} testId="sa-status-cancelled" />
          </Cards>
          <h3 className="sa-subhead">Growth</h3>
          <Cards testId="sa-users-growth">
            <StatCard label="Total Users" value={count(report?.total ?? counted.total)} testId="sa-users-total" />
            <StatCard label="New (30 days)" value={report ? count(report.newUsersLast30Days) : '—'} testId="sa-users-new" />
            <StatCard label="Retention" value={report ? percent(report.retentionRate) : '—'} testId="sa-users-retention" />
          </Cards>
        </div>
      </Section>
      {data.users ? (
        <div className="sa-table-wrap">
          <table className="sa-table" data-testid="sa-users-table">
            <caption className="sa-sr-only">Users (first {ADMIN_LIMITS.tableRows})</caption>
            <thead><tr><th scope="col">Email</th><th scope="col">Username</th><th scope="col">Tier</th><th scope="col">Payment</th><th scope="col">Created</th><th scope="col">Actions</th></tr></thead>
            <tbody>
              {shown.map((u) => (
                <tr key={u.email} data-testid="sa-user-row" data-email={u.email}>
                  <td className="sa-wrap">{u.email}</td>
                  <td>{u.username || <span className="sa-muted">No username</span>}</td>
                  <td>
                    <Badge tone={u.subscriptionTier === 'free' ? 'neutral' : u.subscriptionTier} testId="sa-user-tier">{u.subscriptionTier}</Badge>
                    {u.upgradedByAdmin && <> <Badge tone="info" testId="sa-admin-trial">Admin Trial</Badge></>}
                  </td>
                  <td>
                    {u.paymentStatus}
                    {u.suspended && <> <Badge tone="bad" testId="sa-suspended" title={u.suspendedReason ?? undefined}>Suspended</Badge></>}
                  </td>
                  <td>{dateOf(u.createdAt)}</td>
                  <td className="sa-row-actions">
                    <button type="button" className="button button-ghost button-sm" onClick={() => setUpgrading(u.email)} aria-label={`Upgrade ${u.email}`} data-testid="sa-user-upgrade">Upgrade</button>
                    <button type="button" className="button button-ghost button-sm" onClick={() => void suspend(u)} aria-label={`${u.suspended ? 'Unsuspend' : 'Suspend'} ${u.email}`} data-testid="sa-user-suspend">{u.suspended ? 'Unsuspend' : 'Suspend'}</button>
                    <button type="button" className="button button-danger button-sm" onClick={() => void remove(u)} aria-label={`Delete ${u.email}`} data-testid="sa-user-delete">Delete</button>
                  </td>
                </tr>
              ))}
              {shown.length === 0 && <tr><td colSpan={6} className="sa-muted">No users found.</td></tr>}
            </tbody>
          </table>
        </div>
      ) : <Unavailable what="Users" />}
      {upgrading && <AdminUpgradeDialog email={upgrading} onChoose={(t) => void upgrade(t)} onClose={() => setUpgrading(null)} />}
    </>
  );
}
