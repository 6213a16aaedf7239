/**
 * Which renewal reminder an account is due (services/billing/src/payments/reminders.ts), from its read-model row at a
 * time: the thresholds of docs/product/payments.md PAY6, pro without the 7-day reminder, nothing before the expiry
 * for a subscription
 * Stripe renews by itself, grace and expired whatever the setting, and the expired notice for an account that the
 * expiry sweep already returned to free. The sweep itself is exercised in notices.suite.ts (both modes).
 */
import { describe, it, expect } from 'vitest';
import { reminderDue } from '@ephemera/billing';

const DAY = 86_400_000;
const now = new Date('2026-03-10T12:00:00.000Z');
const at = (days: number) => new Date(now.getTime() + days * DAY);
type Row = Parameters<typeof reminderDue>[0];
const row = (over: Partial<Row>): Row => ({
  id: 'acc_x',
  email: 'x@example.test',
  username: 'x',
  tier: 'business',
  paymentStatus: 'active',
  subscriptionExpiresAt: at(10),
  autoRenewal: false,
  googleId: null,
  picture: null,
  createdAt: at(-100),
  lastSeq: 2,
  customerId: 'cus_x',
  subscriptionId: 'sub_x',
  cancelAtPeriodEnd: true,
  suspended: false,
  suspendedReason: null,
  upgradedByAdmin: false,
  trialEndsAt: null,
  ...over,
});
const stage = (over: Partial<Row>) => reminderDue(row(over), now)?.stage ?? null;

describe('renewal reminder stages', () => {
  it('a subscription ending without renewal: reminder at 7 days, warning at 3, urgent at 1, grace, then expired', () => {
    expect(stage({ subscriptionExpiresAt: at(7.5) })).toBeNull();
    expect(stage({ subscriptionExpiresAt: at(6.9) })).toBe('reminder');
    expect(reminderDue(row({ subscriptionExpiresAt: at(6.9) }), now)!.status.message).toBe(
      'Expires in 7 days. Consider renewing to avoid any interruption.',
    );
    expect(stage({ subscriptionExpiresAt: at(3) })).toBe('warning');
    expect(stage({ subscriptionExpiresAt: at(0.5) })).toBe('urgent');
    expect(stage({ subscriptionExpiresAt: at(-2) })).toBe('grace');
    expect(reminderDue(row({ subscriptionExpiresAt: at(-2) }), now)!.status.message).toBe(
      'Grace period: 5 day(s) left. Renew now to keep your data.',
    );
    expect(stage({ subscriptionExpiresAt: at(-9) })).toBe('expired');
  });

  it('pro has no 7-day reminder (the spec shows none); its 3 and 1-day stages remain', () => {
    expect(stage({ tier: 'pro', subscriptionExpiresAt: at(6) })).toBeNull();
    expect(stage({ tier: 'pro', subscriptionExpiresAt: at(2.5) })).toBe('warning');
    expect(stage({ tier: 'pro', subscriptionExpiresAt: at(1) })).toBe('urgent');
  });

  it("Stripe renews it by itself: nothing before the expiry, whatever the account's autoRenewal flag; grace and expired still", () => {
    for (const autoRenewal of [true, false]) {
      for (const days of [6, 3, 1])
        expect(stage({ cancelAtPeriodEnd: false, autoRenewal, subscriptionExpiresAt: at(days - 0.1) })).toBeNull();
      expect(stage({ cancelAtPeriodEnd: false, autoRenewal, subscriptionExpiresAt: at(-1) })).toBe('grace');
    }
    // a failed renewal (past due) or a cancelled subscription does not renew: reminded
    expect(stage({ cancelAtPeriodEnd: false, paymentStatus: 'past_due', subscriptionExpiresAt: at(2) })).toBe(
      'warning',
    );
    expect(stage({ cancelAtPeriodEnd: false, paymentStatus: 'cancelled', subscriptionExpiresAt: at(6) })).toBe(
      'reminder',
    );
    // paid without an expiry: active is fine, anything else is urgent
    expect(stage({ cancelAtPeriodEnd: false, subscriptionExpiresAt: null })).toBeNull();
    expect(stage({ paymentStatus: 'past_due', subscriptionExpiresAt: null })).toBe('urgent');
  });

  it("free: nothing, unless a subscription of it ended (the expired notice with the spec's text and button)", () => {
    expect(
      stage({ tier: 'free', paymentStatus: 'active', subscriptionId: null, subscriptionExpiresAt: null }),
    ).toBeNull();
    const lapsed = reminderDue(row({ tier: 'free', paymentStatus: 'cancelled', subscriptionExpiresAt: at(-8) }), now)!;
    expect(lapsed.stage).toBe('expired');
    expect(lapsed.status).toMatchObject({
      message: 'Your subscription has expired. Renew now to regain full access.',
      buttonLabel: 'Reactivate Subscription',
    });
  });
});
