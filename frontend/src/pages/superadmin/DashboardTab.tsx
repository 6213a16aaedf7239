/** Dashboard tab: the five cards, System Health, Quick Actions (exports, database cleanup). */
import { useState } from 'react';
import { adminApi } from '../../lib/adminApi.ts';
import { useT } from '../../i18n/i18n.ts';
import type { TabProps } from './tabProps.ts';
import { Cards, Section, StatCard, Unavailable } from './ui.tsx';
import { count, money, percent } from './format.ts';
import { exportData } from './exports.ts';

export function DashboardTab({ data, reload, ask, toast }: TabProps) {
  const t = useT();
  const d = data.dashboard;
  const [cleaning, setCleaning] = useState(false);

  const databaseCleanup = async () => {
    if (!(await ask.confirm(t('admin.dashboard.cleanupConfirm')))) return;
    setCleaning(true);
    const r = await adminApi.databaseCleanup();
    setCleaning(false);
    if (r.ok) {
      toast.success(t('admin.dashboard.cleanupDone'));
      void reload(['dashboard', 'rooms', 'storage']);
    } else toast.error(t('admin.dashboard.cleanupFailed'));
  };

  return (
    <>
      <Section title={t('admin.dashboard.overview')} testId="sa-overview">
        {d ? (
          <Cards>
            <StatCard label={t('admin.dashboard.activeUsers')} value={count(d.activeUsers)} testId="sa-active-users" />
            <StatCard label={t('admin.dashboard.activeRooms')} value={count(d.activeRooms)} testId="sa-active-rooms" />
            <StatCard
              label={t('admin.dashboard.conversionRate')}
              value={percent(d.conversionRate)}
              testId="sa-conversion-rate"
            />
            <StatCard
              label={t('admin.dashboard.todayRevenue')}
              value={money(d.todayRevenue)}
              testId="sa-today-revenue"
            />
            <StatCard
              label={t('admin.dashboard.pageViewsToday')}
              value={count(d.pageViewsToday)}
              testId="sa-page-views-today"
            />
          </Cards>
        ) : (
          <Unavailable what={t('admin.dashboard.analytics')} />
        )}
      </Section>
      <Section title={t('admin.dashboard.health')} testId="sa-health">
        <Cards>
          <StatCard
            label={t('admin.dashboard.serverStatus')}
            value={t('admin.dashboard.healthy')}
            tone="good"
            testId="sa-server-status"
          />
          <StatCard label={t('admin.dashboard.uptime')} value={d ? percent(d.uptime, 2) : '—'} testId="sa-uptime" />
          <StatCard
            label={t('admin.dashboard.errorRate')}
            value={d ? percent(d.errorRate, 2) : '—'}
            testId="sa-error-rate"
          />
        </Cards>
      </Section>
      <Section title={t('admin.dashboard.quickActions')}>
        <div className="sa-actions">
          <button
            type="button"
            className="button button-ghost"
            onClick={() => void exportData('users', toast)}
            data-testid="sa-export-users"
          >
            {t('admin.dashboard.exportUsers')}
          </button>
          <button
            type="button"
            className="button button-ghost"
            onClick={() => void exportData('analytics', toast)}
            data-testid="sa-export-analytics"
          >
            {t('admin.dashboard.exportAnalytics')}
          </button>
          <button
            type="button"
            className="button button-danger"
            onClick={() => void databaseCleanup()}
            disabled={cleaning}
            data-testid="sa-database-cleanup"
          >
            {cleaning ? t('admin.dashboard.cleaning') : t('admin.dashboard.cleanup')}
          </button>
        </div>
      </Section>
    </>
  );
}
