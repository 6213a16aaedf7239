/** The plans dialog's cards say what planCopy.ts says, in every language (docs/i18n.md). */
import { describe, expect, it } from 'vitest';
import { CANCEL_ANYTIME, MONEY_BACK, PRICING_FEATURES } from '../../lib/planCopy.ts';
import en from '../../i18n/locales/en/roomside.json';
import { PLAN_FEATURE_KEYS } from './PlansModal.tsx';

describe('the plans dialog’s texts', () => {
  it('English is planCopy.ts’s text, feature by feature, in its order', () => {
    for (const tier of ['free', 'pro', 'business'] as const) {
      expect(PLAN_FEATURE_KEYS[tier].map((key) => (en as Record<string, string>)[key])).toEqual(PRICING_FEATURES[tier]);
    }
    expect(en['roomside.plans.moneyBack']).toBe(MONEY_BACK);
    expect(en['roomside.plans.cancelAnytime']).toBe(CANCEL_ANYTIME);
  });
});
