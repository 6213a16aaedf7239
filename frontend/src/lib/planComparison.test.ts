import { beforeAll, describe, expect, it } from 'vitest';
import { ENTITLEMENTS, type Entitlements, type Tier } from '@ephemera/proto/client';
import { formatDollars, formatDuration, planComparison, planPrice } from './planComparison.ts';
import { activateLocale } from '../i18n/i18n.ts';

const row = (id: string) => planComparison().find((r) => r.id === id)!.values;

describe('plan comparison (Features page, from the entitlement table)', () => {
  beforeAll(() => activateLocale('en', ['public']));

  it('prices: free $0, pro $9/month, business $19/month (docs/product/payments.md PAY1)', () => {
    expect(row('price')).toEqual({ free: '$0', pro: '$9/month', business: '$19/month' });
    expect(planPrice('pro')).toEqual({ amount: '$9', per: 'month' });
    expect(formatDollars(199)).toBe('$1.99');
  });

  it('states the entitlements (docs/product/limits.md L1) as the table holds them', () => {
    expect(row('rooms')).toEqual({ free: '1', pro: '10', business: 'Unlimited' });
    expect(row('users')).toEqual({ free: '5', pro: '25', business: 'Unlimited' });
    expect(row('lifetime')).toEqual({ free: '24 hours', pro: '7 days', business: 'Permanent' });
    expect(row('file-size')).toEqual({ free: '10 MB', pro: '100 MB', business: '500 MB' });
    expect(row('themes')).toEqual({ free: '3 themes', pro: '10 themes', business: '10 themes + custom' });
    expect(row('video')).toEqual({ free: false, pro: true, business: true });
    expect(row('screen')).toEqual({ free: false, pro: true, business: true });
    expect(row('branding')).toEqual({ free: false, pro: false, business: true });
  });

  it('follows the table: a changed entitlement changes the page', () => {
    const changed: { [T in Tier]: Entitlements } = {
      ...ENTITLEMENTS,
      pro: { ...ENTITLEMENTS.pro, usersPerRoom: 50, customBranding: true },
    };
    const rows = planComparison(changed);
    expect(rows.find((r) => r.id === 'users')!.values.pro).toBe('50');
    expect(rows.find((r) => r.id === 'branding')!.values.pro).toBe(true);
  });

  it('every row has a value for each plan, and unique ids', () => {
    const rows = planComparison();
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    for (const r of rows)
      for (const tier of ['free', 'pro', 'business'] as const) expect(r.values[tier], `${r.id} ${tier}`).not.toBe('');
  });

  it('durations read naturally', () => {
    expect(formatDuration(null, 'Permanent')).toBe('Permanent');
    expect(formatDuration(3_600_000, 'x')).toBe('1 hour');
    expect(formatDuration(86_400_000, 'x')).toBe('24 hours');
    expect(formatDuration(30 * 86_400_000, 'x')).toBe('30 days');
  });

  it('reads in German when German is active', async () => {
    await activateLocale('de', ['public']);
    expect(row('lifetime')).toEqual({ free: '24 Stunden', pro: '7 Tage', business: 'Dauerhaft' });
    expect(row('price').pro).toBe('$9/Monat');
    expect(row('themes').business).toBe('10 Designs + eigenes');
    await activateLocale('en', ['public']);
  });
});
