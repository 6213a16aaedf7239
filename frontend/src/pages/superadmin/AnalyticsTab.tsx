/**
 * Analytics tab: every figure of the analytics report (section 3): revenue metrics, by plan, sources, the extension
 * breakdown with Reset Revenue, revenue by period, the trends as charts, the historical filter, website traffic,
 * payment issues, user activity and feature usage.
 */
import { useState } from 'react';
import { ADMIN_TEXT, adminApi } from '../../lib/adminApi.ts';
import type { TabProps } from './tabProps.ts';
import { Cards, Section, StatCard, Unavailable } from './ui.tsx';
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

  if (!report) return <><Unavailable what="The analytics report" /><RevenueFilter /></>;
  const { revenue, timeBasedRevenue: tb, pageViewAnalytics: pv, usage } = report;
  const split = (s: { subscription: number; extension: number }) => `Subscriptions ${money(s.subscription)} · Extensions ${money(s.extension)}`;

  return (
    <>
      <Section title="Revenue Metrics">
        <Cards>
          <StatCard label="Monthly Revenue" value={money(revenue.monthlyRevenue)} testId="sa-monthly-revenue" />
          <StatCard label="Annual Revenue" value={money(revenue.yearlyRevenue)} testId="sa-yearly-revenue" />
          <StatCard label="Growth Rate" value={percent(revenue.monthlyGrowthRate)} testId="sa-growth-rate" />
        </Cards>
      </Section>
      <Section title="Revenue by Plan">
        <Cards>
          <StatCard label="Pro" value={money(revenue.revenueByPlan.pro)} testId="sa-revenue-pro" />
          <StatCard label="Business" value={money(revenue.revenueByPlan.business)} testId="sa-revenue-business" />
          <StatCard label="Average Lifetime Value" value={money(revenue.averageLifetimeValue)} testId="sa-ltv" />
        </Cards>
      </Section>
      <Section title="Revenue Sources">
        <Cards>
          <StatCard label="Subscriptions" value={money(revenue.subscriptionRevenue)} testId="sa-subscription-revenue" />
          <StatCard label="Extensions" value={money(revenue.extensionRevenue)} testId="sa-extension-revenue" />
          <StatCard label="Extension Payments" value={count(revenue.extensionPaymentCount)} testId="sa-extension-payments" />
        </Cards>
      </Section>
      <Section title="Extension Revenue Breakdown"
        actions={<button type="button" className="button button-danger" onClick={() => void resetRevenue()} disabled={resetting} data-testid="sa-reset-revenue">Reset Revenue</button>}>
        <Cards>
          <StatCard label="7-Day Extensions ($2.99)" value={money(revenue.extensionRevenueBreakdown.sevenDay)} testId="sa-extension-7" />
          <StatCard label="30-Day Extensions ($8.99)" value={money(revenue.extensionRevenueBreakdown.thirtyDay)} testId="sa-extension-30" />
        </Cards>
      </Section>
      <Section title="Revenue by Time Period">
        <Cards>
          <StatCard label="Today" value={money(tb.today.total)} hint={split(tb.today)} testId="sa-revenue-today" />
          <StatCard label="This Week" value={money(tb.weekly.total)} hint={split(tb.weekly)} testId="sa-revenue-week" />
          <StatCard label="This Month" value={money(tb.monthly.total)} hint={split(tb.monthly)} testId="sa-revenue-month" />
          <StatCard label="All Time" value={money(tb.allTime.total)} hint={`${count(tb.allTime.paymentCount)} payments`} testId="sa-revenue-all-time" />
        </Cards>
      </Section>
      <Section title="Trends">
        <AnalyticsCharts daily={report.daily ?? []} />
      </Section>
      <RevenueFilter />
      <Section title="Website Traffic">
        <Cards>
          <StatCard label="Page Views Today" value={count(pv.today.pageViews)} testId="sa-pv-today" />
          <StatCard label="Unique Visitors Today" value={count(pv.today.uniqueVisitors)} testId="sa-uv-today" />
          <StatCard label="Page Views This Week" value={count(pv.weekly.pageViews)} testId="sa-pv-week" />
          <StatCard label="Unique Visitors This Week" value={count(pv.weekly.uniqueVisitors)} testId="sa-uv-week" />
          <StatCard label="Page Views This Month" value={count(pv.monthly.pageViews)} testId="sa-pv-month" />
        </Cards>
      </Section>
      <Section title="Payment Issues">
        <Cards>
          <StatCard label="Failed Payments" value={count(revenue.failedPayments)} testId="sa-failed-payments" />
          <StatCard label="Refunds" value={count(revenue.refunds)} testId="sa-refunds" />
        </Cards>
      </Section>
      <Section title="User Activity">
        <Cards>
          <StatCard label="Daily Active Users" value={count(usage.dailyActiveUsers)} testId="sa-dau" />
          <StatCard label="Weekly Active Users" value={count(usage.weeklyActiveUsers)} testId="sa-wau" />
          <StatCard label="Monthly Active Users" value={count(usage.monthlyActiveUsers)} testId="sa-mau" />
          <StatCard label="Average Session" value={`${(usage.averageSessionDuration ?? 0).toFixed(1)} min`} testId="sa-session" />
        </Cards>
      </Section>
      <Section title="Feature Usage">
        <Cards>
          <StatCard label="Rooms Created" value={count(usage.featureUsage.roomsCreated)} testId="sa-rooms-created" />
          <StatCard label="Files Uploaded" value={count(usage.featureUsage.filesUploaded)} testId="sa-files-uploaded" />
          <StatCard label="Video Calls" value={count(usage.featureUsage.videoCalls)} testId="sa-video-calls" />
          <StatCard label="Messages" value={count(usage.featureUsage.messagesExchanged)} testId="sa-messages" />
        </Cards>
      </Section>
    </>
  );
}
