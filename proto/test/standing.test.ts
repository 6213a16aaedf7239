/**
 * An account's standing by its subscription (docs/product/payments.md PAY12): active, grace (the 7 days after an
 * unpaid end: read only, no creating or extending), expired (after them, also once the expiry sweep put the account
 * back on free); the renewal status such an account is shown; the refusals with their texts.
 */
import { describe, it, expect } from 'vitest';
import {
  ERRORS,
  accountRenewal,
  accountStanding,
  assertMayCreateOrExtend,
  DomainError,
  type StandingInput,
} from '../src/index.ts';

const now = new Date('2026-03-10T12:00:00Z');
const inDays = (d: number) => new Date(now.getTime() + d * 86_400_000);
const paid = (over: Partial<StandingInput>): StandingInput => ({
  tier: 'pro',
  paymentStatus: 'active',
  expiresAt: inDays(20),
  subscribed: true,
  ...over,
});

describe('account standing (docs/product/payments.md PAY12)', () => {
  it('paid up: active; within 7 days after the end: grace; after them: expired', () => {
    expect(accountStanding(paid({}), now)).toBe('active');
    expect(accountStanding(paid({ paymentStatus: 'cancelled', expiresAt: inDays(0.5) }), now)).toBe('active'); // paid time left
    // days count as renewalStatus rounds them (PAY5): the day of the end still reads "0 days", grace from the next
    expect(accountStanding(paid({ paymentStatus: 'cancelled', expiresAt: inDays(-0.5) }), now)).toBe('active');
    expect(accountStanding(paid({ paymentStatus: 'cancelled', expiresAt: inDays(-1) }), now)).toBe('grace');
    expect(accountStanding(paid({ paymentStatus: 'cancelled', expiresAt: inDays(-7) }), now)).toBe('grace');
    expect(accountStanding(paid({ paymentStatus: 'cancelled', expiresAt: inDays(-8) }), now)).toBe('expired');
    expect(accountStanding(paid({ tier: 'business', paymentStatus: 'past_due', expiresAt: inDays(-3) }), now)).toBe(
      'grace',
    );
    expect(accountStanding(paid({ expiresAt: null }), now)).toBe('active'); // a plan without an end
    // the superadmin's trial over what an old subscription left: the trial's tier, active
    expect(accountStanding(paid({ paymentStatus: 'cancelled', expiresAt: inDays(-20), adminTrial: true }), now)).toBe(
      'active',
    );
  });

  it('back on free after the grace: expired until it subscribes again; a free account that never paid: active', () => {
    const lapsed = paid({ tier: 'free', paymentStatus: 'cancelled', expiresAt: inDays(-10) });
    expect(accountStanding(lapsed, now)).toBe('expired');
    expect(accountRenewal(lapsed, now)).toMatchObject({
      needsRenewal: true,
      renewalUrgency: 'expired',
      status: 'expired',
      daysUntilExpiry: -10,
      message: 'Your subscription has expired. Renew now to regain full access.',
      buttonLabel: 'Reactivate Subscription',
    });
    const neverPaid: StandingInput = { tier: 'free', paymentStatus: 'active', expiresAt: null, subscribed: false };
    expect(accountStanding(neverPaid, now)).toBe('active');
    expect(accountRenewal(neverPaid, now)).toMatchObject({ needsRenewal: false, renewalUrgency: 'none' });
    expect(accountStanding({ ...lapsed, subscribed: false }, now)).toBe('active');
    // on a paid tier the renewal status is renewalStatus's own
    expect(accountRenewal(paid({ paymentStatus: 'cancelled', expiresAt: inDays(-2) }), now)).toMatchObject({
      isInGracePeriod: true,
      graceDaysLeft: 5,
    });
  });

  it('creating and extending: allowed when active; refused in grace and expired, with their texts', () => {
    expect(() => assertMayCreateOrExtend('active')).not.toThrow();
    for (const [standing, code] of [
      ['grace', 'SUBSCRIPTION_IN_GRACE'],
      ['expired', 'SUBSCRIPTION_EXPIRED'],
    ] as const) {
      let err: unknown = null;
      try {
        assertMayCreateOrExtend(standing);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(DomainError);
      expect(err).toMatchObject({ code, message: ERRORS[code], status: 402 });
    }
  });
});
