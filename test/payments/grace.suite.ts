/**
 * The grace period and after it (docs/product/payments.md PAY12) against a running product (embedded or distributed):
 * billing decides the account's standing from its subscription, the room service asks billing for it when the
 * account creates a room from the dashboard (the session's account) and when a room of the account is extended (its
 * owner's standing). In grace the rooms stay readable and the data exportable; creating and extending are refused
 * with a clear text and change nothing. After the grace the account reads expired, not as a free account that never
 * paid, and stays refused until it subscribes again.
 */
import { describe, it, expect } from 'vitest';
import { API, AUTH_API, ERRORS, PAYMENTS_API, type ProfileAnswer } from '@ephemera/proto';
import { http, uniqueName } from '../helpers/clients.ts';
import { bearer } from '../accounts/account-clients.ts';
import type { PaymentTarget } from './target.ts';
import { DAY, checkoutCompleted, signUp, subscriptionPaid, subscriptionStatus } from './fixtures.ts';

export function graceSuite(target: () => PaymentTarget) {
  const createRoom = (t: PaymentTarget, token: string) =>
    http(t.url, API.create(), {
      body: { name: uniqueName('grace'), username: 'owner', hasPassword: false },
      headers: bearer(token),
    });
  /** a pro subscriber with one dashboard room, whose subscription the provider then ended `daysAgo` days ago */
  const endedSubscriber = async (t: PaymentTarget, daysAgo: number) => {
    const account = await signUp(t, 'grace');
    const ids = subscriptionPaid(t, account.accountId, 'pro', new Date(Date.now() + 20 * DAY));
    expect((await t.deliver(checkoutCompleted(t, ids.session))).status).toBe(200);
    const room = await createRoom(t, account.token);
    expect(room.status, JSON.stringify(room.body)).toBe(201);
    const ended = new Date(Date.now() - daysAgo * DAY);
    t.state.setSubscription({
      id: ids.sub,
      status: 'canceled',
      customerId: ids.customer,
      accountId: account.accountId,
      plan: 'pro',
      currentPeriodEnd: ended,
      cancelAtPeriodEnd: false,
    });
    await t.deliver(
      t.event('customer.subscription.deleted', {
        id: ids.sub,
        object: 'subscription',
        customer: ids.customer,
        status: 'canceled',
      }),
    );
    return {
      ...account,
      ids,
      room: room.body as { workspaceId: string; userToken: string; workspace: { name: string } },
    };
  };
  const roomsOf = async (t: PaymentTarget, token: string) =>
    (await http<ProfileAnswer>(t.url, AUTH_API.profile, { headers: bearer(token) })).body.rooms;
  const extend = (t: PaymentTarget, room: { workspaceId: string; userToken: string }) =>
    http(t.url, API.extendRoom(), {
      body: { workspaceId: room.workspaceId, extensionDays: 7 },
      headers: bearer(room.userToken),
    });

  describe('grace period (docs/product/payments.md PAY12)', () => {
    it('in grace the rooms stay readable and the data exportable; creating or extending a room is refused and changes nothing', async () => {
      const t = target();
      const a = await endedSubscriber(t, 2);
      const status = await subscriptionStatus(t, a.token);
      expect(status).toMatchObject({
        subscriptionTier: 'pro',
        paymentStatus: 'cancelled',
        renewal: { isInGracePeriod: true, graceDaysLeft: 5 },
      });
      const before = await roomsOf(t, a.token);
      expect(before).toEqual([expect.objectContaining({ workspaceId: a.room.workspaceId, tier: 'pro' })]);
      // read access: the room answers, its owner's token still opens it, the export works
      expect((await http(t.url, API.info(a.room.workspaceId))).status).toBe(200);
      expect((await http(t.url, AUTH_API.exportData, { headers: bearer(a.token) })).status).toBe(200);

      const created = await createRoom(t, a.token);
      expect(created.status).toBe(402);
      expect(created.body).toMatchObject({ code: 'SUBSCRIPTION_IN_GRACE', message: ERRORS.SUBSCRIPTION_IN_GRACE });
      const extended = await extend(t, a.room);
      expect(extended.status).toBe(402);
      expect(extended.body).toMatchObject({ code: 'SUBSCRIPTION_IN_GRACE', message: ERRORS.SUBSCRIPTION_IN_GRACE });
      const paid = await http(t.url, PAYMENTS_API.createRoomExtensionPayment, {
        body: { workspaceId: a.room.workspaceId, extensionType: '7' },
        headers: bearer(a.token),
      });
      expect(paid.status).toBe(402);
      expect(paid.body.code).toBe('SUBSCRIPTION_IN_GRACE');
      expect(await roomsOf(t, a.token)).toEqual(before); // no room more, the same expiry
    });

    it('after the grace the account reads expired (Reactivate Subscription), not free and fine; creating stays refused until it subscribes again', async () => {
      const t = target();
      const a = await endedSubscriber(t, 10);
      const status = await subscriptionStatus(t, a.token);
      expect(status).toMatchObject({
        subscriptionTier: 'free',
        paymentStatus: 'cancelled',
        hasActiveSubscription: false,
        renewal: {
          needsRenewal: true,
          renewalUrgency: 'expired',
          status: 'expired',
          buttonLabel: 'Reactivate Subscription',
          message: 'Your subscription has expired. Renew now to regain full access.',
        },
      });
      const created = await createRoom(t, a.token);
      expect(created.status).toBe(402);
      expect(created.body).toMatchObject({ code: 'SUBSCRIPTION_EXPIRED', message: ERRORS.SUBSCRIPTION_EXPIRED });

      // a new subscription: full access again
      const again = subscriptionPaid(t, a.accountId, 'pro', new Date(Date.now() + 30 * DAY));
      expect((await t.deliver(checkoutCompleted(t, again.session))).status).toBe(200);
      expect((await subscriptionStatus(t, a.token)).renewal.renewalUrgency).toBe('none');
      expect((await createRoom(t, a.token)).status).toBe(201);
    });
  });
}
