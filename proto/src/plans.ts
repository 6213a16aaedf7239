/**
 * Plans and prices without zod (docs/product/payments.md PAY1): shared by billing (payments.ts re-exports
 * them) and the browser bundle (the Features page's plan comparison, the pricing page). What each tier may do is the
 * entitlement table, tiers.ts.
 */
export const PAID_PLANS = ['pro', 'business'] as const;
export type PaidPlan = (typeof PAID_PLANS)[number];
/** docs/product/payments.md PAY1: pro $9/month, business $19/month (amounts in cents) */
export const PLAN_PRICES: { readonly [P in PaidPlan]: { name: string; amountCents: number; interval: 'month' } } = {
  pro: { name: 'Pro', amountCents: 900, interval: 'month' },
  business: { name: 'Business', amountCents: 1900, interval: 'month' },
};
/** docs/product/payments.md PAY8: room extension one-time prices by days, in cents; 7 days is the default */
export const EXTENSION_PRICES: { readonly [days: number]: number } = { 3: 199, 7: 299, 14: 499, 30: 899 };
export const EXTENSION_DAYS = [3, 7, 14, 30] as const;
export const DEFAULT_EXTENSION_DAYS = 7;
/** docs/product/payments.md PAY1: what the marketing copy promises with every paid plan */
export const PLAN_GUARANTEES = { moneyBackDays: 30, cancelAnytime: true } as const;
