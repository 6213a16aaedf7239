/**
 * What the payment pages say about each plan (docs/product/payments.md): the pricing
 * cards, the subscription page's "What's Included", the success page's lists, and the Usage This Month placeholder
 * figures. Prices come from proto's plan table; limits from the entitlement table.
 */
import { ENTITLEMENTS, PLAN_PRICES, type Tier } from '@ephemera/proto/client';

export const TIER_NAMES: Record<Tier, string> = {
  free: 'Free',
  pro: PLAN_PRICES.pro.name,
  business: PLAN_PRICES.business.name,
};

/** "$9/month" from cents (0 for free) */
export function monthlyPrice(amountCents: number): string {
  const dollars = amountCents / 100;
  return `$${Number.isInteger(dollars) ? dollars : dollars.toFixed(2)}/month`;
}
export const priceOfTier = (tier: Tier) => monthlyPrice(tier === 'free' ? 0 : PLAN_PRICES[tier].amountCents);

/** The pricing page's cards (docs/product/payments.md PAY1). */
export const PRICING_FEATURES: Record<Tier, string[]> = {
  free: [
    '1 room',
    'Up to 5 users per room',
    '24-hour rooms',
    '3 themes (Default, Dark, WhatsApp)',
    '10 MB file uploads',
  ],
  pro: [
    '25 users per room',
    '7-day rooms',
    '10 premium themes',
    'Video and voice calls',
    'Screen sharing',
    '100 MB file uploads',
  ],
  business: [
    'Permanent rooms',
    'Unlimited users',
    'All 11 themes plus custom',
    'Custom branding',
    '500 MB file uploads',
    'Priority support',
  ],
};

/** The subscription page's "What's Included" (docs/product/limits.md L1; pro rooms read "7-30 days flexible" there). */
export const INCLUDED: Record<Tier, string[]> = {
  free: [
    '1 room',
    'Up to 5 users per room',
    '24-hour rooms',
    '3 themes (Default, Dark, WhatsApp)',
    '10 MB file uploads',
  ],
  pro: [
    'Up to 10 rooms',
    'Up to 25 users per room',
    '7-30 days flexible room duration',
    '10 premium themes',
    'Video and voice calls',
    'Screen sharing',
    '100 MB file uploads',
  ],
  business: [
    'Unlimited rooms',
    'Unlimited users per room',
    'Permanent rooms',
    'All 11 themes plus custom',
    'Custom branding',
    '500 MB file uploads',
    'Priority support and SLA',
  ],
};

/** The success page's list for a new subscription (pro rooms read "7 days" there). */
export const SUCCESS_INCLUDED: Record<'pro' | 'business', string[]> = {
  pro: [
    'Up to 25 users per room',
    '7-day room duration',
    '10 premium themes',
    'Video and voice calls',
    'Screen sharing',
    '100 MB file uploads',
  ],
  business: PRICING_FEATURES.business,
};

/** The room extension success page's list. */
export const extensionIncluded = (days: number) => [
  `${days} more ${days === 1 ? 'day' : 'days'} of access`,
  'Chat history preserved',
  'Current participants stay in the room',
  'Permanent access via your dashboard',
];

/**
 * Usage This Month: static placeholder figures (rooms 3, storage 45 MB of the tier limit, video minutes
 * 127), not real data. The tier's limit shown is the one the product has: the largest file (entitlement table).
 */
export function usagePlaceholder(tier: Tier): { label: string; value: string; detail?: string }[] {
  return [
    { label: 'Rooms', value: '3' },
    {
      label: 'Storage',
      value: '45 MB',
      detail: `${TIER_NAMES[tier]} limit: ${ENTITLEMENTS[tier].fileSizeMb} MB per file`,
    },
    { label: 'Video minutes', value: '127' },
  ];
}

export const MONEY_BACK = '30-day money-back guarantee';
export const CANCEL_ANYTIME = 'Cancel anytime';
