/** What the pages and dialogs say about each plan (docs/product/payments.md PAY1, limits.md L1; docs/i18n.md). */
import { afterAll, describe, expect, it } from 'vitest';
import { activateLocale } from '../i18n/i18n.ts';
import {
  cancelAnytime,
  extensionIncluded,
  includedFeatures,
  monthlyPrice,
  moneyBack,
  priceOfTierAlone,
  pricingFeatures,
  successFeatures,
  tierName,
} from './planCopy.ts';

describe('plan copy', () => {
  afterAll(() => activateLocale('en', ['common']));

  it('says in English what the spec says, list by list', async () => {
    await activateLocale('en', ['common']);
    expect(pricingFeatures('free')).toEqual([
      '1 room',
      'Up to 5 users per room',
      '24-hour rooms',
      '3 themes (Default, Dark, WhatsApp)',
      '10 MB file uploads',
    ]);
    expect(pricingFeatures('business')).toEqual([
      'Permanent rooms',
      'Unlimited users',
      'All 11 themes plus custom',
      'Custom branding',
      '500 MB file uploads',
      'Priority support',
    ]);
    expect(includedFeatures('pro')).toEqual([
      'Up to 10 rooms',
      'Up to 25 users per room',
      '7-30 days flexible room duration',
      '10 premium themes',
      'Video and voice calls',
      'Screen sharing',
      '100 MB file uploads',
    ]);
    expect(successFeatures('pro')[1]).toBe('7-day room duration');
    expect(extensionIncluded(1)[0]).toBe('1 more day of access');
    expect(extensionIncluded(30)[0]).toBe('30 more days of access');
    expect([tierName('free'), tierName('pro'), priceOfTierAlone('pro'), monthlyPrice(299)]).toEqual([
      'Free',
      'Pro',
      '$9',
      '$2.99/month',
    ]);
    expect([moneyBack(), cancelAnytime()]).toEqual(['30-day money-back guarantee', 'Cancel anytime']);
  });

  it('says it in German with the active language’s money, the paid plans’ names unchanged', async () => {
    await activateLocale('de', ['common']);
    expect(pricingFeatures('free')[0]).toBe('1 Raum');
    expect(includedFeatures('business')[0]).toBe('Unbegrenzt viele Räume');
    expect(extensionIncluded(1)[0]).toBe('Zugang für 1 weiteren Tag');
    expect(tierName('free')).toBe('Kostenlos');
    expect(tierName('business')).toBe('Business');
    expect(monthlyPrice(299).replace(/\s/g, ' ')).toBe('2,99 $/Monat');
    expect(cancelAnytime()).toBe('Jederzeit kündbar');
  });
});
