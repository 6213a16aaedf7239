/**
 * The Analytics tab's trends (docs/product/admin.md ADM8: shown as charts too), drawn by recharts from the
 * report's `daily` rows (the last 30 days): revenue, traffic, and activity. recharts is only in the admin chunk.
 */
import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { ReactElement } from 'react';
import type { AnalyticsReport } from '@ephemera/proto';
import { money } from './format.ts';
import { useT } from '../../i18n/i18n.ts';
import { formatDate, formatNumber } from '../../i18n/format.ts';

type Daily = AnalyticsReport['daily'];
const HEIGHT = 220;
/** a day's tick: month and day in the language's order (12/7, 7.12.) */
const day = (iso: string) => formatDate(`${iso}T00:00:00`, { month: 'numeric', day: 'numeric' });

function Chart({ title, testId, children }: { title: string; testId: string; children: ReactElement }) {
  return (
    <figure className="sa-chart" data-testid={testId}>
      <figcaption>{title}</figcaption>
      <ResponsiveContainer width="100%" height={HEIGHT}>
        {children}
      </ResponsiveContainer>
    </figure>
  );
}

export function AnalyticsCharts({ daily }: { daily: Daily }) {
  const t = useT();
  if (daily.length === 0)
    return (
      <p className="sa-muted" data-testid="sa-charts-empty">
        {t('admin.charts.noDailyFiguresYet')}
      </p>
    );
  return (
    <div className="sa-charts" data-testid="sa-charts">
      <Chart title={t('admin.charts.revenuePerDayLast30Days')} testId="sa-chart-revenue">
        <AreaChart data={daily} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis dataKey="date" tickFormatter={day} fontSize={12} />
          <YAxis
            fontSize={12}
            tickFormatter={(v: number) =>
              formatNumber(v, { style: 'currency', currency: 'USD', maximumFractionDigits: 0 })
            }
            width={56}
          />
          <Tooltip formatter={(v) => money(Number(v))} />
          <Area
            type="monotone"
            dataKey="revenue"
            name={t('admin.charts.revenue')}
            stroke="#2563eb"
            fill="#bfdbfe"
            isAnimationActive={false}
          />
        </AreaChart>
      </Chart>
      <Chart title={t('admin.charts.pageViewsPerDayLast30Days')} testId="sa-chart-traffic">
        <BarChart data={daily} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis dataKey="date" tickFormatter={day} fontSize={12} />
          <YAxis fontSize={12} allowDecimals={false} width={40} />
          <Tooltip />
          <Bar dataKey="pageViews" name={t('admin.charts.pageViews')} fill="#7c3aed" isAnimationActive={false} />
        </BarChart>
      </Chart>
      <Chart title={t('admin.charts.activityPerDayLast30Days')} testId="sa-chart-activity">
        <LineChart data={daily} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis dataKey="date" tickFormatter={day} fontSize={12} />
          <YAxis fontSize={12} allowDecimals={false} width={40} />
          <Tooltip />
          <Legend />
          <Line
            type="monotone"
            dataKey="messages"
            name={t('admin.charts.messages')}
            stroke="#0f766e"
            dot={false}
            isAnimationActive={false}
          />
          <Line
            type="monotone"
            dataKey="activeUsers"
            name={t('admin.charts.activeUsers')}
            stroke="#c2410c"
            dot={false}
            isAnimationActive={false}
          />
          <Line
            type="monotone"
            dataKey="roomsCreated"
            name={t('admin.charts.roomsCreated')}
            stroke="#1d4ed8"
            dot={false}
            isAnimationActive={false}
          />
        </LineChart>
      </Chart>
    </div>
  );
}
