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
/** docs/product/payments.md PAY1: what the marketing copy promises with every paid plan */
export const PLAN_GUARANTEES = { moneyBackDays: 30, cancelAnytime: true } as const;
