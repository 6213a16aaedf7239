/**
 * Users tab: search by a part of the e-mail or username (at least 3 characters) and filter by tier and payment
 * status, over every account: the server searches, counts and pages (usePagedList.ts); the breakdowns by tier and
 * status and the total are the server's counts of what the search finds, new accounts and retention the report's.
 * Pages of 50 with the Admin Trial badge and the actions admin upgrade, suspend (or unsuspend) and delete. Delete
 * and suspend ask a reason; an empty one abandons the action (docs/product/admin.md ADM4). The superadmin's own
 * account is not listed (the server leaves it out).
 */
import { useCallback, useState } from 'react';
import type { AdminUser } from '@ephemera/proto';
import { ADMIN_FILTERS, ADMIN_LIMITS, adminApi, type AdminResult, type ListQuery } from '../../lib/adminApi.ts';
import type { TabProps } from './tabProps.ts';
import { Badge, Cards, Section, StatCard, Unavailable } from './ui.tsx';
import { count, dateOf, percent, reasonOf } from './format.ts';
import { exportData } from './exports.ts';
import { AdminUpgradeDialog } from './AdminUpgradeDialog.tsx';
import { Pager } from './Pager.tsx';
import { useDebounced, usePagedList, usePageOf } from './usePagedList.ts';

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const STATUS_LABEL = { active: 'Active', past_due: 'Past Due', cancelled: 'Cancelled' } as const;

/** The texts: User {action} completed successfully; Failed to {action} user; {action} failed. */
export function userActionToast(toast: TabProps['toast'], action: string, r: AdminResult<unknown>): boolean {
  if (r.ok) toast.success(`User ${action} completed successfully`);
  else if (r.status === 0) toast.error(`${capital(action)} failed`);
  else toast.error(`Failed to ${action} user`);
  return r.ok;
}

/** what the server is asked to search: nothing until the text has the server's minimum (sealed values: runs of 3) */
const userSearchOf = (text: string) => {
  const trimmed = text.trim();
  return Array.from(trimmed).length >= ADMIN_LIMITS.accountSearchMin ? trimmed : '';
};

export function UsersTab({ data, reload, ask, toast }: TabProps) {
  const [query, setQuery] = useState('');
  const [tier, setTier] = useState('');
  const [status, setStatus] = useState('');
  const [upgrading, setUpgrading] = useState<string | null>(null);
  const search = useDebounced(userSearchOf(query));
  const [page, setPage] = usePageOf(`${search}|${tier}|${status}`);
  const load = useCallback((q: ListQuery) => adminApi.users(q), []);
  const list = usePagedList(load, { search, tier, status, page }, data.users);
  const answer = list.answer;
  const shown = answer?.users ?? [];
  const report = data.report?.users;
  const short = query.trim() !== '' && userSearchOf(query) === '';
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
      <Section
        title="Users"
        testId="sa-users"
        actions={
          <button type="button" className="button button-ghost" onClick={() => void exportData('users', toast)}>
            Export
          </button>
        }
      >
        <label className="sa-search">
          <span className="sa-sr-only">Search users by email or username</span>
          <input
            type="search"
            className="sa-input"
            placeholder="Search by email or username"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            data-testid="sa-user-search"
          />
        </label>
        {short && (
          <p className="sa-muted" role="status" data-testid="sa-user-search-hint">
            Type at least {ADMIN_LIMITS.accountSearchMin} characters to search.
          </p>
        )}
        <div className="sa-filters">
          <label>
            <span className="sa-sr-only">Tier</span>
            <select
              className="sa-input"
              value={tier}
              onChange={(e) => setTier(e.target.value)}
              data-testid="sa-user-tier-filter"
            >
              <option value="">All tiers</option>
              {ADMIN_FILTERS.tier.map((t) => (
                <option key={t} value={t}>
                  {capital(t)}
                </option>
              ))}
            </select>
          </label>
          <label>
            <span className="sa-sr-only">Payment status</span>
            <select
              className="sa-input"
              value={status}
              onChange={(e) => setStatus(e.target.value)}
              data-testid="sa-user-status-filter"
            >
              <option value="">All statuses</option>
              {ADMIN_FILTERS.paymentStatus.map((p) => (
                <option key={p} value={p}>
                  {STATUS_LABEL[p]}
                </option>
              ))}
            </select>
          </label>
        </div>
        <div className="sa-breakdowns">
          <h3 className="sa-subhead">By tier</h3>
          <Cards testId="sa-users-by-tier">
            <StatCard label="Free" value={answer ? count(answer.totals.byTier.free) : '—'} testId="sa-tier-free" />
            <StatCard label="Pro" value={answer ? count(answer.totals.byTier.pro) : '—'} testId="sa-tier-pro" />
            <StatCard
              label="Business"
              value={answer ? count(answer.totals.byTier.business) : '—'}
              testId="sa-tier-business"
            />
          </Cards>
          <h3 className="sa-subhead">By status</h3>
          <Cards testId="sa-users-by-status">
            <StatCard
              label="Active"
              value={answer ? count(answer.totals.byStatus.active) : '—'}
              testId="sa-status-active"
            />
            <StatCard
              label="Past Due"
              value={answer ? count(answer.totals.byStatus.past_due) : '—'}
              testId="sa-status-past-due"
            />
            <StatCard
              label="Cancelled"
              value={answer ? count(answer.totals.byStatus.cancelled) : '—'}
              testId="sa-status-cancelled"
            />
          </Cards>
          <h3 className="sa-subhead">Growth</h3>
          <Cards testId="sa-users-growth">
            <StatCard label="Total Users" value={answer ? count(answer.totals.total) : '—'} testId="sa-users-total" />
            <StatCard
              label="New (30 days)"
              value={report ? count(report.newUsersLast30Days) : '—'}
              testId="sa-users-new"
            />
            <StatCard
              label="Retention"
              value={report ? percent(report.retentionRate) : '—'}
              testId="sa-users-retention"
            />
          </Cards>
        </div>
      </Section>
      {answer ? (
        <div className="sa-table-wrap">
          <table className="sa-table" data-testid="sa-users-table" aria-busy={list.loading}>
            <caption className="sa-sr-only">Users, page {answer.page}</caption>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Username</th>
                <th scope="col">Tier</th>
                <th scope="col">Payment</th>
                <th scope="col">Created</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((u) => (
                <tr key={u.email} data-testid="sa-user-row" data-email={u.email}>
                  <td className="sa-wrap">{u.email}</td>
                  <td>{u.username || <span className="sa-muted">No username</span>}</td>
                  <td>
                    <Badge tone={u.subscriptionTier === 'free' ? 'neutral' : u.subscriptionTier} testId="sa-user-tier">
                      {u.subscriptionTier}
                    </Badge>
                    {u.upgradedByAdmin && (
                      <>
                        {' '}
                        <Badge tone="info" testId="sa-admin-trial">
                          Admin Trial
                        </Badge>
                      </>
                    )}
                  </td>
                  <td>
                    {u.paymentStatus}
                    {u.suspended && (
                      <>
                        {' '}
                        <Badge tone="bad" testId="sa-suspended" title={u.suspendedReason ?? undefined}>
                          Suspended
                        </Badge>
                      </>
                    )}
                  </td>
                  <td>{dateOf(u.createdAt)}</td>
                  <td className="sa-row-actions">
                    <button
                      type="button"
                      className="button button-ghost button-sm"
                      onClick={() => setUpgrading(u.email)}
                      aria-label={`Upgrade ${u.email}`}
                      data-testid="sa-user-upgrade"
                    >
                      Upgrade
                    </button>
                    <button
                      type="button"
                      className="button button-ghost button-sm"
                      onClick={() => void suspend(u)}
                      aria-label={`${u.suspended ? 'Unsuspend' : 'Suspend'} ${u.email}`}
                      data-testid="sa-user-suspend"
                    >
                      {u.suspended ? 'Unsuspend' : 'Suspend'}
                    </button>
                    <button
                      type="button"
                      className="button button-danger button-sm"
                      onClick={() => void remove(u)}
                      aria-label={`Delete ${u.email}`}
                      data-testid="sa-user-delete"
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
              {shown.length === 0 && (
                <tr>
                  <td colSpan={6} className="sa-muted">
                    No users found.
                  </td>
                </tr>
              )}
            </tbody>
          </table>
          <Pager
            page={answer.page}
            pageSize={answer.pageSize}
            total={answer.total}
            what="users"
            onPage={setPage}
            testId="sa-users-pager"
          />
        </div>
      ) : list.loading ? null : (
        <Unavailable what="Users" />
      )}
      {answer && list.failed && (
        <p className="sa-unavailable" role="status">
          {list.failed}
        </p>
      )}
      {upgrading && (
        <AdminUpgradeDialog email={upgrading} onChoose={(t) => void upgrade(t)} onClose={() => setUpgrading(null)} />
      )}
    </>
  );
}
