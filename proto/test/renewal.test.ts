/** docs/product/payments.md PAY5, PAY6: renewal status from tier, payment status and expiry. */
import { describe, it, expect } from 'vitest';
import { renewalStatus, CreateExtensionPaymentBodySchema, CreateCheckoutBodySchema } from '../src/index.ts';

const now = new Date('2026-03-01T12:00:00Z');
const inDays = (d: number) => new Date(now.getTime() + d * 86_400_000);

describe('renewal status', () => {
  it('free never needs renewal; paid without expiry: active when paid, urgent otherwise', () => {
    expect(renewalStatus({ tier: 'free', paymentStatus: 'past_due', expiresAt: inDays(-100) }, now)).toMatchObject({
      needsRenewal: false,
      renewalUrgency: 'none',
      status: 'active',
    });
    expect(renewalStatus({ tier: 'business', paymentStatus: 'active', expiresAt: null }, now).renewalUrgency).toBe(
      'none',
    );
    expect(renewalStatus({ tier: 'business', paymentStatus: 'past_due', expiresAt: null }, now)).toMatchObject({
      needsRenewal: true,
      renewalUrgency: 'urgent',
    });
  });

  it('thresholds 7 / 3 / 1 days (days rounded up); the 7-day reminder is not shown for pro', () => {
    const at = (tier: 'pro' | 'business', d: number) =>
      renewalStatus({ tier, paymentStatus: 'active', expiresAt: inDays(d) }, now);
    expect(at('business', 8).renewalUrgency).toBe('none');
    expect(at('business', 6.5)).toMatchObject({
      renewalUrgency: 'reminder',
      daysUntilExpiry: 7,
      message: 'Expires in 7 days. Consider renewing to avoid any interruption.',
    });
    expect(at('pro', 6.5).renewalUrgency).toBe('none');
    expect(at('pro', 2.5)).toMatchObject({
      renewalUrgency: 'warning',
      daysUntilExpiry: 3,
      message: 'Expires in 3 day(s). Renew soon to maintain access.',
    });
    expect(at('business', 0.5)).toMatchObject({
      renewalUrgency: 'urgent',
      daysUntilExpiry: 1,
      message: 'Expires in 1 day(s). Renew now to avoid interruption.',
      buttonLabel: 'Renew Subscription',
    });
  });

  it('grace: 7 days after expiry still active (urgent); then expired with the reactivate label', () => {
    const grace = renewalStatus({ tier: 'pro', paymentStatus: 'cancelled', expiresAt: inDays(-2.5) }, now);
    expect(grace).toMatchObject({
      status: 'active',
      isInGracePeriod: true,
      renewalUrgency: 'urgent',
      graceDaysLeft: 5,
      message: 'Grace period: 5 day(s) left. Renew now to keep your data.',
    });
    const lastDay = renewalStatus({ tier: 'pro', paymentStatus: 'cancelled', expiresAt: inDays(-7) }, now);
    expect(lastDay).toMatchObject({ isInGracePeriod: true, graceDaysLeft: 0 });
    const expired = renewalStatus({ tier: 'pro', paymentStatus: 'cancelled', expiresAt: inDays(-8.5) }, now);
    expect(expired).toMatchObject({
      status: 'expired',
      renewalUrgency: 'expired',
      isInGracePeriod: false,
      buttonLabel: 'Reactivate Subscription',
      message: 'Your subscription has expired. Renew now to regain full access.',
    });
  });
});

describe('payment bodies', () => {
  it('plans: pro or business, any case; extension days: 3, 7 (default), 14, 30 as text or number', () => {
    expect(CreateCheckoutBodySchema.parse({ plan: ' PRO ' }).plan).toBe('pro');
    expect(CreateCheckoutBodySchema.safeParse({ plan: 'free' }).error?.issues[0]?.message).toBe(
      'Please select a plan first',
    );
    expect(CreateExtensionPaymentBodySchema.parse({ workspaceId: 'w' }).extensionType).toBe(7);
    expect(CreateExtensionPaymentBodySchema.parse({ workspaceId: 'w', extensionType: '14' }).extensionType).toBe(14);
    expect(CreateExtensionPaymentBodySchema.parse({ workspaceId: 'w', extensionType: 30 }).extensionType).toBe(30);
    for (const bad of ['5', 'seven', -7, 7.5, null])
      expect(
        CreateExtensionPaymentBodySchema.safeParse({ workspaceId: 'w', extensionType: bad }).success,
        String(bad),
      ).toBe(false);
  });
});
