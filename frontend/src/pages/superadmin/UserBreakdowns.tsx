/**
 * The Users tab's counts (docs/product/admin.md ADM4): accounts by tier and by payment status and their total, as the
 * server counts what the search finds, and new accounts and retention from the analytics report. A dash until known.
 */
import type { AdminUsersPage, AnalyticsReport } from '@ephemera/proto';
import { Cards, StatCard } from './ui.tsx';
import { count, percent } from './format.ts';
import { useT } from '../../i18n/i18n.ts';

interface Props {
  /** the server's counts of the search's accounts (null until the first page arrives) */
  totals: AdminUsersPage['totals'] | null;
  report: AnalyticsReport['users'] | undefined;
}

export function UserBreakdowns({ totals, report }: Props) {
  const t = useT();
  return (
    <div className="sa-breakdowns">
      <h3 className="sa-subhead">{t('admin.users.byTier')}</h3>
      <Cards testId="sa-users-by-tier">
        <StatCard
          label={t('admin.users.tier.free')}
          value={totals ? count(totals.byTier.free) : '—'}
          testId="sa-tier-free"
        />
        <StatCard
          label={t('admin.users.tier.pro')}
          value={totals ? count(totals.byTier.pro) : '—'}
          testId="sa-tier-pro"
        />
        <StatCard
          label={t('admin.users.tier.business')}
          value={totals ? count(totals.byTier.business) : '—'}
          testId="sa-tier-business"
        />
      </Cards>
      <h3 className="sa-subhead">{t('admin.users.byStatus')}</h3>
      <Cards testId="sa-users-by-status">
        <StatCard
          label={t('admin.users.status.active')}
          value={totals ? count(totals.byStatus.active) : '—'}
          testId="sa-status-active"
        />
        <StatCard
          label={t('admin.users.status.pastDue')}
          value={totals ? count(totals.byStatus.past_due) : '—'}
          testId="sa-status-past-due"
        />
        <StatCard
          label={t('admin.users.status.cancelled')}
          value={totals ? count(totals.byStatus.cancelled) : '—'}
          testId="sa-status-cancelled"
        />
      </Cards>
      <h3 className="sa-subhead">{t('admin.users.growth')}</h3>
      <Cards testId="sa-users-growth">
        <StatCard label={t('admin.users.total')} value={totals ? count(totals.total) : '—'} testId="sa-users-total" />
        <StatCard
          label={t('admin.users.new')}
          value={report ? count(report.newUsersLast30Days) : '—'}
          testId="sa-users-new"
        />
        <StatCard
          label={t('admin.users.retention')}
          value={report ? percent(report.retentionRate) : '—'}
          testId="sa-users-retention"
        />
      </Cards>
    </div>
  );
}
