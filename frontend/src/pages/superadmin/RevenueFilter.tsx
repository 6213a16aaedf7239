/**
 * The historical revenue filter (Analytics tab): a quick period (the calendar month 1 to 6 months ago) or custom
 * start and end dates with Apply Filter (disabled until both are chosen) and Clear. Results: total, subscriptions,
 * extensions, average per day, payment count, period days, and the daily breakdown; "No revenue data found for the
 * selected period." when there was none. A failed call silently clears the results.
 */
import { useState } from 'react';
import type { CustomRevenue } from '@ephemera/proto';
import { ADMIN_LIMITS, adminApi } from '../../lib/adminApi.ts';
import { Cards, Section, StatCard } from './ui.tsx';
import { count, dateOf, money, monthsAgo } from './format.ts';
import { useT } from '../../i18n/i18n.ts';

export function RevenueFilter() {
  const t = useT();
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [result, setResult] = useState<CustomRevenue | null>(null);
  const [busy, setBusy] = useState(false);
  const quick = Array.from({ length: ADMIN_LIMITS.quickRevenueMonths }, (_, i) => monthsAgo(i + 1));

  const run = async (startDate: string, endDate: string) => {
    setBusy(true);
    const r = await adminApi.customRevenue(startDate, endDate);
    setBusy(false);
    setResult(r.ok ? r.data : null);
  };
  const clear = () => {
    setStart('');
    setEnd('');
    setResult(null);
  };
  const days = result?.dailyBreakdown.filter((d) => d.paymentCount > 0 || d.total > 0) ?? [];

  return (
    <Section title={t('admin.revenue.historicalRevenue')} testId="sa-revenue-filter">
      <div className="sa-quick-periods" role="group" aria-label={t('admin.revenue.quickPeriods')}>
        {quick.map((p, i) => (
          <button
            key={p.startDate}
            type="button"
            className="button button-ghost button-sm"
            disabled={busy}
            onClick={() => {
              setStart(p.startDate);
              setEnd(p.endDate);
              void run(p.startDate, p.endDate);
            }}
            data-testid={`sa-quick-${i + 1}`}
          >
            {p.label}
          </button>
        ))}
      </div>
      <div className="sa-date-range">
        <label>
          {t('admin.revenue.startDate')}
          <input
            type="date"
            className="sa-input"
            value={start}
            onChange={(e) => setStart(e.target.value)}
            data-testid="sa-revenue-start"
          />
        </label>
        <label>
          {t('admin.revenue.endDate')}
          <input
            type="date"
            className="sa-input"
            value={end}
            onChange={(e) => setEnd(e.target.value)}
            data-testid="sa-revenue-end"
          />
        </label>
        <button
          type="button"
          className="button button-primary"
          disabled={!start || !end || busy}
          onClick={() => void run(start, end)}
          data-testid="sa-revenue-apply"
        >
          {t('admin.revenue.applyFilter')}
        </button>
        <button type="button" className="button button-ghost" onClick={clear} data-testid="sa-revenue-clear">
          {t('admin.revenue.clear')}
        </button>
      </div>
      {result && (
        <div data-testid="sa-revenue-results">
          {result.summary.paymentCount === 0 && result.summary.total === 0 ? (
            <p className="sa-muted" data-testid="sa-revenue-none">
              {t('admin.revenue.noRevenueDataFoundForTheSelectedPeriod')}
            </p>
          ) : (
            <>
              <Cards>
                <StatCard
                  label={t('admin.revenue.total')}
                  value={money(result.summary.total)}
                  testId="sa-revenue-total"
                />
                <StatCard
                  label={t('admin.revenue.subscriptions')}
                  value={money(result.summary.subscription)}
                  testId="sa-revenue-subscriptions"
                />
                <StatCard
                  label={t('admin.revenue.extensions')}
                  value={money(result.summary.extension)}
                  testId="sa-revenue-extensions"
                />
                <StatCard
                  label={t('admin.revenue.averagePerDay')}
                  value={money(result.summary.averagePerDay)}
                  testId="sa-revenue-average"
                />
                <StatCard
                  label={t('admin.revenue.payments')}
                  value={count(result.summary.paymentCount)}
                  testId="sa-revenue-payments"
                />
                <StatCard
                  label={t('admin.revenue.period')}
                  value={t('admin.revenue.days', { count: result.period.days })}
                  testId="sa-revenue-days"
                />
              </Cards>
              <div className="sa-table-wrap">
                <table className="sa-table" data-testid="sa-revenue-daily">
                  <caption className="sa-sr-only">{t('admin.revenue.dailyBreakdown')}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t('admin.revenue.date')}</th>
                      <th scope="col">{t('admin.revenue.total')}</th>
                      <th scope="col">{t('admin.revenue.subscriptions')}</th>
                      <th scope="col">{t('admin.revenue.extensions')}</th>
                      <th scope="col">{t('admin.revenue.payments')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {days.map((d) => (
                      <tr key={d.date}>
                        <td>{dateOf(`${d.date}T00:00:00`)}</td>
                        <td>{money(d.total)}</td>
                        <td>{money(d.subscription)}</td>
                        <td>{money(d.extension)}</td>
                        <td>{count(d.paymentCount)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          )}
        </div>
      )}
    </Section>
  );
}
