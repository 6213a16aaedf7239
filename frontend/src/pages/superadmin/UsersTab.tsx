/**
 * Users tab: search by a part of the e-mail or username (at least 3 characters) and filter by tier and payment
 * status, over every account: the server searches, counts and pages (usePagedList.ts); the breakdowns by tier and
 * status and the total are the server's counts of what the search finds, new accounts and retention the report's
 * (UserBreakdowns.tsx). Pages of 50 (UsersTable.tsx) with the Admin Trial badge and the actions admin upgrade,
 * suspend (or unsuspend) and delete, carried out here. Delete
 * and suspend ask a reason; an empty one abandons the action (docs/product/admin.md ADM4). The superadmin's own
 * account is not listed (the server leaves it out).
 */
import { useCallback, useState } from 'react';
import type { AdminUser } from '@ephemera/proto';
import { ADMIN_FILTERS, ADMIN_LIMITS, adminApi, type AdminResult, type ListQuery } from '../../lib/adminApi.ts';
import type { TabProps } from './tabProps.ts';
import { Section, Unavailable } from './ui.tsx';
import { reasonOf } from './format.ts';
import { exportData } from './exports.ts';
import { AdminUpgradeDialog } from './AdminUpgradeDialog.tsx';
import { Pager } from './Pager.tsx';
import { UserBreakdowns } from './UserBreakdowns.tsx';
import { UsersTable } from './UsersTable.tsx';
import { useDebounced, usePagedList, usePageOf } from './usePagedList.ts';
import { useT, type MessageId } from '../../i18n/i18n.ts';

const TIER_LABEL: Record<(typeof ADMIN_FILTERS.tier)[number], MessageId> = {
  free: 'admin.users.tier.free',
  pro: 'admin.users.tier.pro',
  business: 'admin.users.tier.business',
};
const STATUS_LABEL: Record<(typeof ADMIN_FILTERS.paymentStatus)[number], MessageId> = {
  active: 'admin.users.status.active',
  past_due: 'admin.users.status.pastDue',
  cancelled: 'admin.users.status.cancelled',
};
type UserAction = 'delete' | 'suspend' | 'unsuspend' | 'upgrade';

/** The texts (an ICU select on the action): User {action} completed successfully; Failed to {action} user; {Action} failed. */
function userActionToast(
  t: ReturnType<typeof useT>,
  toast: TabProps['toast'],
  action: UserAction,
  r: AdminResult<unknown>,
): boolean {
  if (r.ok) toast.success(t('admin.users.actionDone', { action }));
  else if (r.status === 0) toast.error(t('admin.users.actionOffline', { action }));
  else toast.error(t('admin.users.actionFailed', { action }));
  return r.ok;
}

/** what the server is asked to search: nothing until the text has the server's minimum (sealed values: runs of 3) */
const userSearchOf = (text: string) => {
  const trimmed = text.trim();
  return Array.from(trimmed).length >= ADMIN_LIMITS.accountSearchMin ? trimmed : '';
};

export function UsersTab({ data, reload, ask, toast }: TabProps) {
  const t = useT();
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
    const reason = reasonOf(await ask.prompt(t('admin.users.deleteReason', { email: u.email })));
    if (!reason) return;
    if (userActionToast(t, toast, 'delete', await adminApi.deleteUser(u.email, reason))) after();
  };
  const suspend = async (u: AdminUser) => {
    if (u.suspended) {
      if (userActionToast(t, toast, 'unsuspend', await adminApi.suspendUser(u.email, false, ''))) after();
      return;
    }
    const reason = reasonOf(await ask.prompt(t('admin.users.suspendReason', { email: u.email })));
    if (!reason) return;
    if (userActionToast(t, toast, 'suspend', await adminApi.suspendUser(u.email, true, reason))) after();
  };
  const upgrade = async (tier: 'pro' | 'business') => {
    const email = upgrading;
    setUpgrading(null);
    if (email && userActionToast(t, toast, 'upgrade', await adminApi.adminUpgrade(email, tier))) after();
  };

  return (
    <>
      <Section
        title={t('admin.users.title')}
        testId="sa-users"
        actions={
          <button type="button" className="button button-ghost" onClick={() => void exportData('users', toast)}>
            {t('admin.users.export')}
          </button>
        }
      >
        <label className="sa-search">
          <span className="sa-sr-only">{t('admin.users.searchLabel')}</span>
          <input
            type="search"
            className="sa-input"
            placeholder={t('admin.users.searchPlaceholder')}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            data-testid="sa-user-search"
          />
        </label>
        {short && (
          <p className="sa-muted" role="status" data-testid="sa-user-search-hint">
            {t('admin.users.searchHint', { count: ADMIN_LIMITS.accountSearchMin })}
          </p>
        )}
        <div className="sa-filters">
          <label>
            <span className="sa-sr-only">{t('admin.users.tier')}</span>
            <select
              className="sa-input"
              value={tier}
              onChange={(e) => setTier(e.target.value)}
              data-testid="sa-user-tier-filter"
            >
              <option value="">{t('admin.users.allTiers')}</option>
              {ADMIN_FILTERS.tier.map((each) => (
                <option key={each} value={each}>
                  {t(TIER_LABEL[each])}
                </option>
              ))}
            </select>
          </label>
          <label>
            <span className="sa-sr-only">{t('admin.users.paymentStatus')}</span>
            <select
              className="sa-input"
              value={status}
              onChange={(e) => setStatus(e.target.value)}
              data-testid="sa-user-status-filter"
            >
              <option value="">{t('admin.users.allStatuses')}</option>
              {ADMIN_FILTERS.paymentStatus.map((p) => (
                <option key={p} value={p}>
                  {t(STATUS_LABEL[p])}
                </option>
              ))}
            </select>
          </label>
        </div>
        <UserBreakdowns totals={answer?.totals ?? null} report={report} />
      </Section>
      {answer ? (
        <div className="sa-table-wrap">
          <UsersTable
            users={shown}
            page={answer.page}
            loading={list.loading}
            onUpgrade={(u) => setUpgrading(u.email)}
            onSuspend={(u) => void suspend(u)}
            onDelete={(u) => void remove(u)}
          />
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
        <Unavailable what={t('admin.users.title')} />
      )}
      {answer && list.failed && (
        <p className="sa-unavailable" role="status">
          {list.failed}
        </p>
      )}
      {upgrading && (
        <AdminUpgradeDialog
          email={upgrading}
          onChoose={(chosen) => void upgrade(chosen)}
          onClose={() => setUpgrading(null)}
        />
      )}
    </>
  );
}
