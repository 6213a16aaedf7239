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

type Daily = AnalyticsReport['daily'];
const HEIGHT = 220;
const day = (iso: string) => iso.slice(5); // MM-DD

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
  if (daily.length === 0)
    return (
      <p className="sa-muted" data-testid="sa-charts-empty">
        No daily figures yet.
      </p>
    );
  return (
    <div className="sa-charts" data-testid="sa-charts">
      <Chart title="Revenue per day (last 30 days)" testId="sa-chart-revenue">
        <AreaChart data={daily} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis dataKey="date" tickFormatter={day} fontSize={12} />
          <YAxis fontSize={12} tickFormatter={(v: number) => `$${v}`} width={56} />
          <Tooltip formatter={(v) => money(Number(v))} />
          <Area
            type="monotone"
            dataKey="revenue"
            name="Revenue"
            stroke="#2563eb"
            fill="#bfdbfe"
            isAnimationActive={false}
          />
        </AreaChart>
      </Chart>
      <Chart title="Page views per day (last 30 days)" testId="sa-chart-traffic">
        <BarChart data={daily} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis dataKey="date" tickFormatter={day} fontSize={12} />
          <YAxis fontSize={12} allowDecimals={false} width={40} />
          <Tooltip />
          <Bar dataKey="pageViews" name="Page views" fill="#7c3aed" isAnimationActive={false} />
        </BarChart>
      </Chart>
      <Chart title="Activity per day (last 30 days)" testId="sa-chart-activity">
        <LineChart data={daily} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis dataKey="date" tickFormatter={day} fontSize={12} />
          <YAxis fontSize={12} allowDecimals={false} width={40} />
          <Tooltip />
          <Legend />
          <Line
            type="monotone"
            dataKey="messages"
            name="Messages"
            stroke="#0f766e"
            dot={false}
            isAnimationActive={false}
          />
          <Line
            type="monotone"
            dataKey="activeUsers"
            name="Active users"
            stroke="#c2410c"
            dot={false}
            isAnimationActive={false}
          />
          <Line
            type="monotone"
            dataKey="roomsCreated"
            name="Rooms created"
            stroke="#1d4ed8"
            dot={false}
            isAnimationActive={false}
          />
        </LineChart>
      </Chart>
    </div>
  );
}
