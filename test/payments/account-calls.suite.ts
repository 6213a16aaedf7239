/**
 * The account calls that need payments (docs/protocol.md "Accounts (billing)"): upgrade-rooms, renew-subscription,
 * create-paid-account,
 * against a running product and stripe-mock. Bodies never name the account nor set its tier: tiers come from the
 * provider's record (ProviderState plays "Stripe now says") or from the account's own row.
 */
import { describe, it, expect } from 'vitest';
import {
  API,
  AUTH_API,
  PAYMENTS_API,
  type PaidAccountAnswer,
  type RenewAnswer,
  type UpgradeRoomsAnswer,
} from '@ephemera/proto';
import { http, createRoom } from '../helpers/clients.ts';
import { bearer } from '../accounts/account-clients.ts';
import type { PaymentTarget } from './target.ts';
import { DAY, signUp, subscriptionPaid, subscriptionStatus } from './fixtures.ts';

export function accountCallsSuite(target: () => PaymentTarget) {
  const tierOf = async (t: PaymentTarget, workspaceId: string) =>
    (await http(t.url, API.info(workspaceId))).body.settings.tier as string;
  /** a guest's room (free), claimed by the account: claiming keeps the room's tier */
  const claimedRoom = async (t: PaymentTarget, token: string) => {
    const room = await createRoom(t.url);
    const claimed = await http(t.url, AUTH_API.claimOwnership(room.workspaceId), {
      body: { userToken: room.userToken },
      headers: bearer(token),
    });
    expect(claimed.status).toBe(200);
    return room.workspaceId;
  };
  const paidAccount = (t: PaymentTarget, token: string, body: unknown) =>
    http<PaidAccountAnswer & { code?: string; message?: string }>(t.url, AUTH_API.createPaidAccount, {
      body,
      headers: bearer(token),
    });

  describe('account calls (docs/protocol.md "Accounts (billing)")', () => {
    it("upgrade-rooms moves the account's rooms to its tier and leaves other accounts' rooms alone", async () => {
      const t = target();
      const payer = await signUp(t, 'upgrader');
      const other = await signUp(t, 'bystander');
      const ids = subscriptionPaid(t, payer.accountId, 'pro');
      expect((await paidAccount(t, payer.token, { paymentId: ids.session })).status).toBe(200);
      const mine = await claimedRoom(t, payer.token);
      const theirs = await claimedRoom(t, other.token);
      const guests = await createRoom(t.url);
      expect(await tierOf(t, mine)).toBe('free'); // claimed after the payment: still the guest's tier
      const up = await http<UpgradeRoomsAnswer>(t.url, AUTH_API.upgradeRooms, {
        body: { tier: 'business' },
        headers: bearer(payer.token),
      });
      expect(up.status).toBe(200);
      expect(up.headers.get('cache-control')).toContain('no-store');
      expect(up.body).toEqual({ success: true, tier: 'pro', changed: [mine] }); // the body's tier is ignored
      expect(await tierOf(t, mine)).toBe('pro');
      expect(await tierOf(t, theirs)).toBe('free');
      expect(await tierOf(t, guests.workspaceId)).toBe('free');
      // again: nothing left to change; a free account's call changes nothing of anyone's
      expect((await http(t.url, AUTH_API.upgradeRooms, { body: {}, headers: bearer(payer.token) })).body).toEqual({
        success: true,
        tier: 'pro',
        changed: [],
      });
      expect((await http(t.url, AUTH_API.upgradeRooms, { body: {}, headers: bearer(other.token) })).body).toEqual({
        success: true,
        tier: 'free',
        changed: [],
      });
      expect(await tierOf(t, mine)).toBe('pro');
    });

    it("upgrade-rooms after a cancelled subscription's grace (the expiry sweep's rule): free rooms and a free account", async () => {
      const t = target();
      const payer = await signUp(t, 'lapsed');
      const ids = subscriptionPaid(t, payer.accountId, 'business');
      expect((await paidAccount(t, payer.token, { paymentId: ids.session })).status).toBe(200);
      const room = await claimedRoom(t, payer.token);
      expect(
        (await http(t.url, AUTH_API.upgradeRooms, { body: {}, headers: bearer(payer.token) })).body.changed,
      ).toEqual([room]);
      // cancelled yesterday: paid time over, grace running; the tier stays
      t.state.setSubscription({
        id: ids.sub,
        status: 'canceled',
        customerId: ids.customer,
        accountId: payer.accountId,
        plan: 'business',
        currentPeriodEnd: new Date(Date.now() - DAY),
        cancelAtPeriodEnd: false,
      });
      await t.deliver(
        t.event('customer.subscription.deleted', { id: ids.sub, object: 'subscription', customer: ids.customer }),
      );
      expect(await subscriptionStatus(t, payer.token)).toMatchObject({
        subscriptionTier: 'business',
        paymentStatus: 'cancelled',
      });
      expect((await http(t.url, AUTH_API.upgradeRooms, { body: {}, headers: bearer(payer.token) })).body).toEqual({
        success: true,
        tier: 'business',
        changed: [],
      });
      t.advanceClock(7 * DAY); // grace over (the sweep is off in these tests)
      try {
        const up = await http(t.url, AUTH_API.upgradeRooms, { body: {}, headers: bearer(payer.token) });
        expect(up.body).toEqual({ success: true, tier: 'free', changed: [room] });
        expect(await tierOf(t, room)).toBe('free');
        expect((await subscriptionStatus(t, payer.token)).subscriptionTier).toBe('free');
      } finally {
        t.advanceClock(-7 * DAY);
      }
    });

    it('renew-subscription: a checkout for the chosen plan without setting any tier; a held subscription goes to the portal', async () => {
      const t = target();
      const { token, accountId } = await signUp(t, 'renewer');
      const made = await http<RenewAnswer>(t.url, AUTH_API.renewSubscription, {
        body: { tier: 'Business' },
        headers: bearer(token),
      });
      expect(made.status).toBe(200);
      expect(made.body).toMatchObject({
        success: true,
        kind: 'checkout',
        sessionId: expect.stringMatching(/^cs_/),
        url: expect.stringMatching(/^https:\/\/checkout\.stripe\.com\//),
      });
      expect(await subscriptionStatus(t, token)).toMatchObject({
        subscriptionTier: 'free',
        hasActiveSubscription: false,
      });
      for (const body of [{}, { tier: 'free' }, { tier: 'gold' }, { tier: 7 }]) {
        const res = await http(t.url, AUTH_API.renewSubscription, { body, headers: bearer(token) });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.message, JSON.stringify(body)).toBe('Please select a plan first');
      }
      const foreign = await http(t.url, AUTH_API.renewSubscription, {
        body: { tier: 'pro', successUrl: 'https://evil.example/x' },
        headers: bearer(token),
      });
      expect(foreign.status).toBe(400);
      // a subscription Stripe still holds (past due here): the billing portal
      const ids = subscriptionPaid(t, accountId, 'pro');
      expect((await paidAccount(t, token, { paymentId: ids.session })).status).toBe(200);
      t.state.setSubscription({
        id: ids.sub,
        status: 'past_due',
        customerId: ids.customer,
        accountId,
        plan: 'pro',
        currentPeriodEnd: new Date(Date.now() + DAY),
        cancelAtPeriodEnd: false,
      });
      const portal = await http<RenewAnswer>(t.url, AUTH_API.renewSubscription, {
        body: { tier: 'business' },
        headers: bearer(token),
      });
      expect(portal.body).toMatchObject({
        success: true,
        kind: 'portal',
        sessionId: null,
        url: expect.stringMatching(/^https:\/\//),
      });
      // Stripe no longer holds it (ended, webhook not here yet): a new checkout
      t.state.setSubscription({
        id: ids.sub,
        status: 'canceled',
        customerId: ids.customer,
        accountId,
        plan: 'pro',
        currentPeriodEnd: new Date(Date.now() + DAY),
        cancelAtPeriodEnd: false,
      });
      const again = await http<RenewAnswer>(t.url, AUTH_API.renewSubscription, {
        body: { tier: 'pro' },
        headers: bearer(token),
      });
      expect(again.body).toMatchObject({ success: true, kind: 'checkout' });
      expect((await subscriptionStatus(t, token)).subscriptionTier).toBe('pro'); // renewing changed nothing by itself
    });

    it("create-paid-account grants what the provider's record says to the signed-in account; forged tiers and identities are ignored", async () => {
      const t = target();
      const payer = await signUp(t, 'paidacct');
      const ids = subscriptionPaid(t, payer.accountId, 'pro');
      const res = await paidAccount(t, payer.token, {
        paymentId: ids.session,
        subscriptionTier: 'business',
        email: 'victim@example.test',
        username: 'victim',
        googleId: 'g-123',
        picture: 'https://evil.example/p.png',
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toContain('no-store');
      expect(res.body.user).toMatchObject({
        id: payer.accountId,
        email: payer.email,
        username: 'paidacct',
        subscriptionTier: 'pro',
        paymentStatus: 'active',
        googleId: null,
        picture: null,
      });
      expect(res.body.payment).toMatchObject({ type: 'subscription', plan: 'pro', subscriptionId: ids.sub });
      expect(await subscriptionStatus(t, payer.token)).toMatchObject({
        subscriptionTier: 'pro',
        hasActiveSubscription: true,
      });
      // the same payment again: the same answer, nothing more
      expect((await paidAccount(t, payer.token, { paymentId: ids.session })).body.user.subscriptionTier).toBe('pro');
    });

    it("create-paid-account refuses another account's payment, an unpaid one and a missing one, as verify-session does", async () => {
      const t = target();
      const owner = await signUp(t, 'payowner');
      const thief = await signUp(t, 'paythief');
      const ids = subscriptionPaid(t, owner.accountId, 'business');
      const stolen = await paidAccount(t, thief.token, {
        paymentId: ids.session,
        subscriptionTier: 'business',
        email: owner.email,
      });
      expect(stolen).toMatchObject({ status: 402, body: { code: 'PAYMENT_NOT_VERIFIED' } });
      expect(
        (await http(t.url, PAYMENTS_API.verifySession(ids.session), { headers: bearer(thief.token) })).status,
      ).toBe(402);
      expect((await subscriptionStatus(t, thief.token)).subscriptionTier).toBe('free');
      expect((await subscriptionStatus(t, owner.token)).subscriptionTier).toBe('free'); // nothing applied for anyone
      // a checkout made but not paid (stripe-mock's record: open, unpaid)
      const unpaid = await http<RenewAnswer>(t.url, AUTH_API.renewSubscription, {
        body: { tier: 'pro' },
        headers: bearer(thief.token),
      });
      const refused = await paidAccount(t, thief.token, { paymentId: unpaid.body.sessionId, subscriptionTier: 'pro' });
      expect(refused).toMatchObject({ status: 402, body: { code: 'PAYMENT_NOT_VERIFIED' } });
      for (const body of [{}, { paymentId: '' }, { paymentId: '../x' }, { subscriptionTier: 'business' }]) {
        expect((await paidAccount(t, thief.token, body)).status, JSON.stringify(body)).toBe(400);
      }
      expect((await subscriptionStatus(t, thief.token)).subscriptionTier).toBe('free');
      // no session: nobody is created or found from the body
      const anonymous = await http(t.url, AUTH_API.createPaidAccount, {
        body: { paymentId: ids.session, email: owner.email },
      });
      expect(anonymous).toMatchObject({ status: 401, body: { code: 'NO_AUTH_TOKEN' } });
    });
  });
}
