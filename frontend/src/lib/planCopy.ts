/**
 * What the payment pages and the room's plan dialogs say about each plan (docs/product/payments.md): the pricing
 * cards, the subscription page's "What's Included", the success page's lists, and the Usage This Month placeholder
 * figures, in the active language from the `common` catalog (loaded on every page, docs/i18n.md). Prices come from
 * proto's plan table; limits from the entitlement table.
 */
import { ENTITLEMENTS, PLAN_PRICES, type Tier } from '@ephemera/proto/client';
import { t, type MessageId } from '../i18n/i18n.ts';
import { formatNumber } from '../i18n/format.ts';

/** A plan's name: the paid plans' names are the same in every language (docs/i18n.md). */
export const tierName = (tier: Tier): string => (tier === 'free' ? t('common.plan.free') : PLAN_PRICES[tier].name);

/** "$9" from cents: whole dollars without cents, in the active language's way of writing money. */
export function planPrice(amountCents: number): string {
  const dollars = amountCents / 100;
  const digits = Number.isInteger(dollars) ? 0 : 2;
  return formatNumber(dollars, {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}
const centsOfTier = (tier: Tier) => (tier === 'free' ? 0 : PLAN_PRICES[tier].amountCents);
export const priceOfTierAlone = (tier: Tier) => planPrice(centsOfTier(tier));

/** "$9/month" from cents (0 for free) */
export const monthlyPrice = (amountCents: number): string =>
  t('common.plan.perMonth', { price: planPrice(amountCents) });
export const priceOfTier = (tier: Tier) => monthlyPrice(centsOfTier(tier));

/** The pricing page's cards and the room's plans dialog (docs/product/payments.md PAY1). */
const PRICING_KEYS: Record<Tier, MessageId[]> = {
  free: [
    'common.plan.free.rooms',
    'common.plan.free.users',
    'common.plan.free.lifetime',
    'common.plan.free.themes',
    'common.plan.free.files',
  ],
  pro: [
    'common.plan.pro.users',
    'common.plan.pro.lifetime',
    'common.plan.pro.themes',
    'common.plan.pro.calls',
    'common.plan.pro.screen',
    'common.plan.pro.files',
  ],
  business: [
    'common.plan.business.lifetime',
    'common.plan.business.users',
    'common.plan.business.themes',
    'common.plan.business.branding',
    'common.plan.business.files',
    'common.plan.business.support',
  ],
};

/** The subscription page's "What's Included" (docs/product/limits.md L1; pro rooms read "7-30 days flexible" there). */
const INCLUDED_KEYS: Record<Tier, MessageId[]> = {
  free: PRICING_KEYS.free,
  pro: [
    'common.plan.included.pro.rooms',
    'common.plan.included.pro.users',
    'common.plan.included.pro.lifetime',
    'common.plan.pro.themes',
    'common.plan.pro.calls',
    'common.plan.pro.screen',
    'common.plan.pro.files',
  ],
  business: [
    'common.plan.included.business.rooms',
    'common.plan.included.business.users',
    'common.plan.business.lifetime',
    'common.plan.business.themes',
    'common.plan.business.branding',
    'common.plan.business.files',
    'common.plan.included.business.support',
  ],
};

/** The success page's list for a new subscription (pro rooms read "7 days" there). */
const SUCCESS_KEYS: Record<'pro' | 'business', MessageId[]> = {
  pro: [
    'common.plan.included.pro.users',
    'common.plan.success.pro.lifetime',
    'common.plan.pro.themes',
    'common.plan.pro.calls',
    'common.plan.pro.screen',
    'common.plan.pro.files',
  ],
  business: PRICING_KEYS.business,
};

export const pricingFeatures = (tier: Tier): string[] => PRICING_KEYS[tier].map((key) => t(key));
export const includedFeatures = (tier: Tier): string[] => INCLUDED_KEYS[tier].map((key) => t(key));
export const successFeatures = (plan: 'pro' | 'business'): string[] => SUCCESS_KEYS[plan].map((key) => t(key));

/** The room extension success page's list. */
export const extensionIncluded = (days: number) => [
  t('common.plan.extension.days', { days }),
  t('common.plan.extension.history'),
  t('common.plan.extension.participants'),
  t('common.plan.extension.dashboard'),
];

/**
 * Usage This Month: static placeholder figures (rooms 3, storage 45 MB of the tier limit, video minutes
 * 127), not real data. The tier's limit shown is the one the product has: the largest file (entitlement table).
 */
export function usagePlaceholder(tier: Tier): { label: string; value: string; detail?: string }[] {
  return [
    { label: t('common.plan.usage.rooms'), value: formatNumber(3) },
    {
      label: t('common.plan.usage.storage'),
      value: `${formatNumber(45)} MB`,
      detail: t('common.plan.usage.limit', { plan: tierName(tier), size: formatNumber(ENTITLEMENTS[tier].fileSizeMb) }),
    },
    { label: t('common.plan.usage.video'), value: formatNumber(127) },
  ];
}

export const moneyBack = () => t('common.plan.moneyBack');
export const cancelAnytime = () => t('common.plan.cancelAnytime');
