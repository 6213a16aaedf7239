/**
 * Which subscription the dashboard's auto-renewal switch changes at the provider (services/billing/src/payments/
 * auto-renewal.ts; docs/product/payments.md PAY11): one the provider still bills (active or past due) on a paid
 * tier. A cancelled subscription cannot be resumed (that is a renewal), and an account without one, or back on free,
 * has nothing there to change.
 */
import { describe, it, expect } from 'vitest';
import { heldSubscriptionOf } from '@ephemera/billing';

describe('auto-renewal: the subscription the switch changes (docs/product/payments.md PAY11)', () => {
  it('an active or past-due paid subscription; nothing for a cancelled one, none, or a free account', () => {
    expect(heldSubscriptionOf({ tier: 'pro', paymentStatus: 'active', subscriptionId: 'sub_1' })).toBe('sub_1');
    expect(heldSubscriptionOf({ tier: 'business', paymentStatus: 'past_due', subscriptionId: 'sub_2' })).toBe('sub_2');
    expect(heldSubscriptionOf({ tier: 'pro', paymentStatus: 'cancelled', subscriptionId: 'sub_3' })).toBeNull();
    expect(heldSubscriptionOf({ tier: 'pro', paymentStatus: 'active', subscriptionId: null })).toBeNull(); // an admin trial
    expect(heldSubscriptionOf({ tier: 'free', paymentStatus: 'active', subscriptionId: 'sub_4' })).toBeNull();
  });
});
