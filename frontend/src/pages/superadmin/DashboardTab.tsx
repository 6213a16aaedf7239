/** Dashboard tab: the five cards, System Health, Quick Actions (exports, database cleanup). */
import { useState } from 'react';
import { ADMIN_TEXT, adminApi } from '../../lib/adminApi.ts';
import type { TabProps } from './tabProps.ts';
import { Cards, Section, StatCard, Unavailable } from './ui.tsx';
import { count, money, percent } from './format.ts';
import { exportData } from './exports.ts';

export function DashboardTab({ data, reload, ask, toast }: TabProps) {
  const d = data.dashboard;
  const [cleaning, setCleaning] = useState(false);

  const databaseCleanup = async () => {
    if (!(await ask.confirm(ADMIN_TEXT.cleanupConfirm))) return;
    setCleaning(true);
    const r = await adminApi.databaseCleanup();
    setCleaning(false);
    if (r.ok) {
      toast.success('Cleanup completed');
      void reload(['dashboard', 'rooms', 'storage']);
    } else toast.error('Cleanup failed');
  };

  return (
    <>
      <Section title="Overview" testId="sa-overview">
        {d ? (
          <Cards>
            <StatCard label="Active Users" value={count(d.activeUsers)} testId="sa-active-users" />
            <StatCard label="Active Rooms" value={count(d.activeRooms)} testId="sa-active-rooms" />
            <StatCard label="Conversion Rate" value={percent(d.conversionRate)} testId="sa-conversion-rate" />
            <StatCard label="Today's Revenue" value={money(d.todayRevenue)} testId="sa-today-revenue" />
            <StatCard label="Page Views Today" value={count(d.pageViewsToday)} testId="sa-page-views-today" />
          </Cards>
        ) : (
          <Unavailable what="Dashboard analytics" />
        )}
      </Section>
      <Section title="System Health" testId="sa-health">
        <Cards>
          <StatCard label="Server Status" value="Healthy" tone="good" testId="sa-server-status" />
          <StatCard label="Uptime" value={d ? percent(d.uptime, 2) : '—'} testId="sa-uptime" />
          <StatCard label="Error Rate" value={d ? percent(d.errorRate, 2) : '—'} testId="sa-error-rate" />
        </Cards>
      </Section>
      <Section title="Quick Actions">
        <div className="sa-actions">
          <button
            type="button"
            className="button button-ghost"
            onClick={() => void exportData('users', toast)}
            data-testid="sa-export-users"
          >
            Export Users (CSV)
          </button>
          <button
            type="button"
            className="button button-ghost"
            onClick={() => void exportData('analytics', toast)}
            data-testid="sa-export-analytics"
          >
            Export Analytics (JSON)
          </button>
          <button
            type="button"
            className="button button-danger"
            onClick={() => void databaseCleanup()}
            disabled={cleaning}
            data-testid="sa-database-cleanup"
          >
            {cleaning ? 'Cleaning…' : 'Database Cleanup'}
          </button>
        </div>
      </Section>
    </>
  );
}
