/**
 * Analytics tab: every figure of the analytics report (docs/product/admin.md ADM8): revenue metrics, by plan,
 * sources, the extension
 * breakdown with Reset Revenue, revenue by period, the trends as charts, the historical filter, website traffic,
 * payment issues, user activity and feature usage.
 */
import { useState } from 'react';
import { adminApi } from '../../lib/adminApi.ts';
import { useT } from '../../i18n/i18n.ts';
import { formatNumber } from '../../i18n/format.ts';
import type { TabProps } from './tabProps.ts';
import { FigureSection, Section, Unavailable } from './ui.tsx';
import { count, money, percent } from './format.ts';
import { AnalyticsCharts } from './AnalyticsCharts.tsx';
import { RevenueFilter } from './RevenueFilter.tsx';

export function AnalyticsTab({ data, reload, ask, toast }: TabProps) {
  const t = useT();
  const report = data.report;
  const [resetting, setResetting] = useState(false);

  const resetRevenue = async () => {
    if (!(await ask.confirm(t('admin.analytics.resetConfirm')))) return;
    setResetting(true);
    const r = await adminApi.resetRevenue();
    setResetting(false);
    if (r.ok) {
      toast.success(t('admin.analytics.resetDone', { count: r.data.deletedRecords ?? 0 }));
      void reload(['report', 'dashboard']);
    } else toast.error(r.status === 0 ? t('admin.analytics.resetError') : t('admin.analytics.resetFailed'));
  };

  if (!report)
    return (
      <>
        <Unavailable what={t('admin.analytics.report')} />
        <RevenueFilter />
      </>
    );
  const { revenue, timeBasedRevenue: tb, pageViewAnalytics: pv, usage } = report;
  const split = (s: { subscription: number; extension: number }) =>
    t('admin.analytics.split', { subscription: money(s.subscription), extension: money(s.extension) });

  return (
    <>
      <FigureSection
        title={t('admin.analytics.revenueMetrics')}
        figures={[
          {
            label: t('admin.analytics.monthlyRevenue'),
            value: money(revenue.monthlyRevenue),
            testId: 'sa-monthly-revenue',
          },
          {
            label: t('admin.analytics.annualRevenue'),
            value: money(revenue.yearlyRevenue),
            testId: 'sa-yearly-revenue',
          },
          {
            label: t('admin.analytics.growthRate'),
            value: percent(revenue.monthlyGrowthRate),
            testId: 'sa-growth-rate',
          },
        ]}
      />
      <FigureSection
        title={t('admin.analytics.revenueByPlan')}
        figures={[
          { label: t('admin.analytics.pro'), value: money(revenue.revenueByPlan.pro), testId: 'sa-revenue-pro' },
          {
            label: t('admin.analytics.business'),
            value: money(revenue.revenueByPlan.business),
            testId: 'sa-revenue-business',
          },
          {
            label: t('admin.analytics.averageLifetimeValue'),
            value: money(revenue.averageLifetimeValue),
            testId: 'sa-ltv',
          },
        ]}
      />
      <FigureSection
        title={t('admin.analytics.revenueSources')}
        figures={[
          {
            label: t('admin.analytics.subscriptions'),
            value: money(revenue.subscriptionRevenue),
            testId: 'sa-subscription-revenue',
          },
          {
            label: t('admin.analytics.extensions'),
            value: money(revenue.extensionRevenue),
            testId: 'sa-extension-revenue',
          },
          {
            label: t('admin.analytics.extensionPayments'),
            value: count(revenue.extensionPaymentCount),
            testId: 'sa-extension-payments',
          },
        ]}
      />
      <FigureSection
        title={t('admin.analytics.extensionRevenueBreakdown')}
        actions={
          <button
            type="button"
            className="button button-danger"
            onClick={() => void resetRevenue()}
            disabled={resetting}
            data-testid="sa-reset-revenue"
          >
            {t('admin.analytics.resetRevenue')}
          </button>
        }
        figures={[
          {
            label: t('admin.analytics.sevenDay', { price: money(2.99) }),
            value: money(revenue.extensionRevenueBreakdown.sevenDay),
            testId: 'sa-extension-7',
          },
          {
            label: t('admin.analytics.thirtyDay', { price: money(8.99) }),
            value: money(revenue.extensionRevenueBreakdown.thirtyDay),
            testId: 'sa-extension-30',
          },
        ]}
      />
      <FigureSection
        title={t('admin.analytics.revenueByTimePeriod')}
        figures={[
          {
            label: t('admin.analytics.today'),
            value: money(tb.today.total),
            hint: split(tb.today),
            testId: 'sa-revenue-today',
          },
          {
            label: t('admin.analytics.thisWeek'),
            value: money(tb.weekly.total),
            hint: split(tb.weekly),
            testId: 'sa-revenue-week',
          },
          {
            label: t('admin.analytics.thisMonth'),
            value: money(tb.monthly.total),
            hint: split(tb.monthly),
            testId: 'sa-revenue-month',
          },
          {
            label: t('admin.analytics.allTime'),
            value: money(tb.allTime.total),
            hint: t('admin.analytics.payments', { count: tb.allTime.paymentCount }),
            testId: 'sa-revenue-all-time',
          },
        ]}
      />
      <Section title={t('admin.analytics.trends')}>
        <AnalyticsCharts daily={report.daily ?? []} />
      </Section>
      <RevenueFilter />
      <FigureSection
        title={t('admin.analytics.websiteTraffic')}
        figures={[
          { label: t('admin.analytics.pageViewsToday'), value: count(pv.today.pageViews), testId: 'sa-pv-today' },
          {
            label: t('admin.analytics.uniqueVisitorsToday'),
            value: count(pv.today.uniqueVisitors),
            testId: 'sa-uv-today',
          },
          { label: t('admin.analytics.pageViewsThisWeek'), value: count(pv.weekly.pageViews), testId: 'sa-pv-week' },
          {
            label: t('admin.analytics.uniqueVisitorsThisWeek'),
            value: count(pv.weekly.uniqueVisitors),
            testId: 'sa-uv-week',
          },
          { label: t('admin.analytics.pageViewsThisMonth'), value: count(pv.monthly.pageViews), testId: 'sa-pv-month' },
        ]}
      />
      <FigureSection
        title={t('admin.analytics.paymentIssues')}
        figures={[
          {
            label: t('admin.analytics.failedPayments'),
            value: count(revenue.failedPayments),
            testId: 'sa-failed-payments',
          },
          { label: t('admin.analytics.refunds'), value: count(revenue.refunds), testId: 'sa-refunds' },
        ]}
      />
      <FigureSection
        title={t('admin.analytics.userActivity')}
        figures={[
          { label: t('admin.analytics.dailyActiveUsers'), value: count(usage.dailyActiveUsers), testId: 'sa-dau' },
          { label: t('admin.analytics.weeklyActiveUsers'), value: count(usage.weeklyActiveUsers), testId: 'sa-wau' },
          { label: t('admin.analytics.monthlyActiveUsers'), value: count(usage.monthlyActiveUsers), testId: 'sa-mau' },
          {
            label: t('admin.analytics.averageSession'),
            value: t('admin.analytics.minutes', {
              minutes: formatNumber(usage.averageSessionDuration ?? 0, {
                minimumFractionDigits: 1,
                maximumFractionDigits: 1,
              }),
            }),
            testId: 'sa-session',
          },
        ]}
      />
      <FigureSection
        title={t('admin.analytics.featureUsage')}
        figures={[
          {
            label: t('admin.analytics.roomsCreated'),
            value: count(usage.featureUsage.roomsCreated),
            testId: 'sa-rooms-created',
          },
          {
            label: t('admin.analytics.filesUploaded'),
            value: count(usage.featureUsage.filesUploaded),
            testId: 'sa-files-uploaded',
          },
          {
            label: t('admin.analytics.videoCalls'),
            value: count(usage.featureUsage.videoCalls),
            testId: 'sa-video-calls',
          },
          {
            label: t('admin.analytics.messages'),
            value: count(usage.featureUsage.messagesExchanged),
            testId: 'sa-messages',
          },
        ]}
      />
    </>
  );
}
