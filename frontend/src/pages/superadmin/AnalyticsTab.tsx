/**
 * Analytics tab: every figure of the analytics report (docs/product/admin.md ADM8): revenue metrics, by plan,
 * sources, the extension
 * breakdown with Reset Revenue, revenue by period, the trends as charts, the historical filter, website traffic,
 * payment issues, user activity and feature usage.
 */
import { useState } from 'react';
import { ADMIN_TEXT, adminApi } from '../../lib/adminApi.ts';
import type { TabProps } from './tabProps.ts';
import { FigureSection, Section, Unavailable } from './ui.tsx';
import { count, money, percent } from './format.ts';
import { AnalyticsCharts } from './AnalyticsCharts.tsx';
import { RevenueFilter } from './RevenueFilter.tsx';

export function AnalyticsTab({ data, reload, ask, toast }: TabProps) {
  const report = data.report;
  const [resetting, setResetting] = useState(false);

  const resetRevenue = async () => {
    if (!(await ask.confirm(ADMIN_TEXT.resetRevenueConfirm))) return;
    setResetting(true);
    const r = await adminApi.resetRevenue();
    setResetting(false);
    if (r.ok) {
      toast.success(`Revenue reset successfully! Deleted ${r.data.deletedRecords ?? 0} payment records.`);
      void reload(['report', 'dashboard']);
    } else toast.error(r.status === 0 ? 'Error resetting revenue' : 'Failed to reset revenue');
  };

  if (!report)
    return (
      <>
        <Unavailable what="The analytics report" />
        <RevenueFilter />
      </>
    );
  const { revenue, timeBasedRevenue: tb, pageViewAnalytics: pv, usage } = report;
  const split = (s: { subscription: number; extension: number }) =>
    `Subscriptions ${money(s.subscription)} · Extensions ${money(s.extension)}`;

  return (
    <>
      <FigureSection
        title="Revenue Metrics"
        figures={[
          { label: 'Monthly Revenue', value: money(revenue.monthlyRevenue), testId: 'sa-monthly-revenue' },
          { label: 'Annual Revenue', value: money(revenue.yearlyRevenue), testId: 'sa-yearly-revenue' },
          { label: 'Growth Rate', value: percent(revenue.monthlyGrowthRate), testId: 'sa-growth-rate' },
        ]}
      />
      <FigureSection
        title="Revenue by Plan"
        figures={[
          { label: 'Pro', value: money(revenue.revenueByPlan.pro), testId: 'sa-revenue-pro' },
          { label: 'Business', value: money(revenue.revenueByPlan.business), testId: 'sa-revenue-business' },
          { label: 'Average Lifetime Value', value: money(revenue.averageLifetimeValue), testId: 'sa-ltv' },
        ]}
      />
      <FigureSection
        title="Revenue Sources"
        figures={[
          { label: 'Subscriptions', value: money(revenue.subscriptionRevenue), testId: 'sa-subscription-revenue' },
          { label: 'Extensions', value: money(revenue.extensionRevenue), testId: 'sa-extension-revenue' },
          { label: 'Extension Payments', value: count(revenue.extensionPaymentCount), testId: 'sa-extension-payments' },
        ]}
      />
      <FigureSection
        title="Extension Revenue Breakdown"
        actions={
          <button
            type="button"
            className="button button-danger"
            onClick={() => void resetRevenue()}
            disabled={resetting}
            data-testid="sa-reset-revenue"
          >
            Reset Revenue
          </button>
        }
        figures={[
          {
            label: '7-Day Extensions ($2.99)',
            value: money(revenue.extensionRevenueBreakdown.sevenDay),
            testId: 'sa-extension-7',
          },
          {
            label: '30-Day Extensions ($8.99)',
            value: money(revenue.extensionRevenueBreakdown.thirtyDay),
            testId: 'sa-extension-30',
          },
        ]}
      />
      <FigureSection
        title="Revenue by Time Period"
        figures={[
          { label: 'Today', value: money(tb.today.total), hint: split(tb.today), testId: 'sa-revenue-today' },
          { label: 'This Week', value: money(tb.weekly.total), hint: split(tb.weekly), testId: 'sa-revenue-week' },
          { label: 'This Month', value: money(tb.monthly.total), hint: split(tb.monthly), testId: 'sa-revenue-month' },
          {
            label: 'All Time',
            value: money(tb.allTime.total),
            hint: `${count(tb.allTime.paymentCount)} payments`,
            testId: 'sa-revenue-all-time',
          },
        ]}
      />
      <Section title="Trends">
        <AnalyticsCharts daily={report.daily ?? []} />
      </Section>
      <RevenueFilter />
      <FigureSection
        title="Website Traffic"
        figures={[
          { label: 'Page Views Today', value: count(pv.today.pageViews), testId: 'sa-pv-today' },
          { label: 'Unique Visitors Today', value: count(pv.today.uniqueVisitors), testId: 'sa-uv-today' },
          { label: 'Page Views This Week', value: count(pv.weekly.pageViews), testId: 'sa-pv-week' },
          { label: 'Unique Visitors This Week', value: count(pv.weekly.uniqueVisitors), testId: 'sa-uv-week' },
          { label: 'Page Views This Month', value: count(pv.monthly.pageViews), testId: 'sa-pv-month' },
        ]}
      />
      <FigureSection
        title="Payment Issues"
        figures={[
          { label: 'Failed Payments', value: count(revenue.failedPayments), testId: 'sa-failed-payments' },
          { label: 'Refunds', value: count(revenue.refunds), testId: 'sa-refunds' },
        ]}
      />
      <FigureSection
        title="User Activity"
        figures={[
          { label: 'Daily Active Users', value: count(usage.dailyActiveUsers), testId: 'sa-dau' },
          { label: 'Weekly Active Users', value: count(usage.weeklyActiveUsers), testId: 'sa-wau' },
          { label: 'Monthly Active Users', value: count(usage.monthlyActiveUsers), testId: 'sa-mau' },
          {
            label: 'Average Session',
            value: `${(usage.averageSessionDuration ?? 0).toFixed(1)} min`,
            testId: 'sa-session',
          },
        ]}
      />
      <FigureSection
        title="Feature Usage"
        figures={[
          { label: 'Rooms Created', value: count(usage.featureUsage.roomsCreated), testId: 'sa-rooms-created' },
          { label: 'Files Uploaded', value: count(usage.featureUsage.filesUploaded), testId: 'sa-files-uploaded' },
          { label: 'Video Calls', value: count(usage.featureUsage.videoCalls), testId: 'sa-video-calls' },
          { label: 'Messages', value: count(usage.featureUsage.messagesExchanged), testId: 'sa-messages' },
        ]}
      />
    </>
  );
}
