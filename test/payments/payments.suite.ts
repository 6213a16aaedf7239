/**
 * Payments (docs/product/payments.md) against a running product (embedded or distributed) and a real stripe-mock:
 * checkout
 * and portal sessions made through the Stripe SDK, signed webhooks (bad, stale, duplicated, out of order), what they
 * change (the subscription answer, the rooms' tier live, paid extensions), and who may call what.
 */
import { describe, it, expect } from 'vitest';
import {
  API,
  AUTH_API,
  ERRORS,
  HTTP_AUTHZ,
  PAYMENTS_API,
  S,
  type CheckoutAnswer,
  type ProfileAnswer,
  type WorkspaceUpdate,
} from '@ephemera/proto';
import { http, next, socketJoin, uniqueName, createRoom } from '../helpers/clients.ts';
import { bearer } from '../accounts/account-clients.ts';
import { WEBHOOK_SECRET, type PaymentTarget } from './target.ts';
import { DAY, checkoutCompleted, rid, signUp, subscriptionPaid, subscriptionStatus } from './fixtures.ts';

export function paymentsSuite(target: () => PaymentTarget) {
  // an address in the path names nobody: the answer is the session's account
  const status = (t: PaymentTarget, token: string) => subscriptionStatus(t, token, 'someone-else@example.test');
  const dashboardRoom = async (t: PaymentTarget, token: string) => {
    const created = await http(t.url, API.create(), {
      body: { name: uniqueName('paid'), username: 'owner', hasPassword: false },
      headers: bearer(token),
    });
    expect(created.status).toBe(201);
    return created.body as { workspaceId: string; userToken: string; workspace: { id: string; name: string } };
  };
  const roomOf = async (t: PaymentTarget, token: string, workspaceId: string) =>
    (await http<ProfileAnswer>(t.url, AUTH_API.profile, { headers: bearer(token) })).body.rooms.find(
      (r) => r.workspaceId === workspaceId,
    )!;
  /** "Stripe" now says: the checkout finished and the subscription is active (until periodEnd). */

  describe('checkout against stripe-mock', () => {
    it("makes a subscription checkout session for the session's account; bad plans and foreign return addresses are refused", async () => {
      const t = target();
      const { token } = await signUp(t);
      const made = await http<CheckoutAnswer>(t.url, PAYMENTS_API.createCheckoutSession, {
        body: { plan: 'Business', email: 'victim@example.test', successUrl: '/payment/success?plan=business' },
        headers: bearer(token),
      });
      expect(made.status).toBe(200);
      expect(made.body).toMatchObject({
        success: true,
        sessionId: expect.stringMatching(/^cs_/),
        url: expect.stringMatching(/^https:\/\/checkout\.stripe\.com\//),
      });
      expect(made.headers.get('cache-control')).toContain('no-store');
      const none = await http(t.url, PAYMENTS_API.createCheckoutSession, { body: {}, headers: bearer(token) });
      expect(none.status).toBe(400);
      expect(none.body).toMatchObject({ code: 'PLAN_REQUIRED', message: 'Please select a plan first' });
      for (const body of [
        { plan: 'free' },
        { plan: 'gold' },
        { plan: 7 },
        { plan: 'pro', successUrl: 'https://evil.example/steal' },
        { plan: 'pro', cancelUrl: '//evil.example/x' },
        'x',
      ]) {
        const res = await http(t.url, PAYMENTS_API.createCheckoutSession, { body, headers: bearer(token) });
        expect(res.status, JSON.stringify(body)).toBe(400);
      }
    });

    it("return links are on the configured site only: a request's Origin or Host never widens them", async () => {
      const t = target();
      const { token } = await signUp(t);
      const plan = { plan: 'pro' };
      const ok = await http(t.url, PAYMENTS_API.createCheckoutSession, {
        body: { ...plan, successUrl: `${t.siteUrl}/payment/success` },
        headers: bearer(token),
      });
      expect(ok.status).toBe(200);
      const forged = { ...bearer(token), origin: 'https://evil.example', 'x-forwarded-host': 'evil.example' };
      for (const body of [
        { ...plan, successUrl: 'https://evil.example/steal' },
        { ...plan, cancelUrl: 'https://evil.example/x' },
      ]) {
        const res = await http(t.url, PAYMENTS_API.createCheckoutSession, { body, headers: forged });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.message).toBe('Return addresses must be on this site');
      }
    });

    it("the billing portal needs a provider customer (after a subscription), then answers the provider's page", async () => {
      const t = target();
      const { token, accountId } = await signUp(t);
      const before = await http(t.url, PAYMENTS_API.createPortalSession, {
        body: { returnUrl: '/subscription' },
        headers: bearer(token),
      });
      expect(before.status).toBe(409);
      expect(before.body.message).toBe(ERRORS.NO_BILLING_ACCOUNT);
      const ids = subscriptionPaid(t, accountId, 'pro');
      expect((await t.deliver(checkoutCompleted(t, ids.session))).status).toBe(200);
      const portal = await http(t.url, PAYMENTS_API.createPortalSession, {
        body: { returnUrl: '/subscription' },
        headers: bearer(token),
      });
      expect(portal.status).toBe(200);
      expect(portal.body.url).toMatch(/^https:\/\//);
    });
  });

  describe('webhooks', () => {
    it('a signed checkout-completed upgrades the account and its open room live (socket and room info)', async () => {
      const t = target();
      const { token, accountId } = await signUp(t);
      const room = await dashboardRoom(t, token);
      expect((await http(t.url, API.info(room.workspaceId))).body.settings.tier).toBe('free');
      const { socket } = await socketJoin(t.url, room.workspaceId, 'owner', room.userToken);
      try {
        const live = next<WorkspaceUpdate>(socket, S.workspaceUpdated, (w) => w.tier === 'pro');
        const ids = subscriptionPaid(t, accountId, 'pro');
        const res = await t.deliver(
          checkoutCompleted(t, ids.session, { subscription: ids.sub, customer: ids.customer }),
        );
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ received: true, duplicate: false, outcome: 'account.subscription-activated' });
        expect((await live).settings).toMatchObject({ tier: 'pro', canUseVideoCalls: true });
      } finally {
        socket.disconnect();
      }
      expect((await http(t.url, API.info(room.workspaceId))).body.settings.tier).toBe('pro');
      expect(await status(t, token)).toMatchObject({
        subscriptionTier: 'pro',
        paymentStatus: 'active',
        hasActiveSubscription: true,
        cancelAtPeriodEnd: false,
        amountCents: 900,
        renewal: { renewalUrgency: 'none', needsRenewal: false },
      });
      expect((await roomOf(t, token, room.workspaceId)).tier).toBe('pro');
    });

    it('a bad signature, an altered body, a missing header or a stale timestamp: 400 and nothing changes', async () => {
      const t = target();
      const { token, accountId } = await signUp(t);
      const ids = subscriptionPaid(t, accountId, 'business');
      const body = checkoutCompleted(t, ids.session);
      const refusals = [
        await t.deliver(body, { secret: 'whsec_not_ours' }),
        await t.deliver(body.replace('"livemode":false', '"livemode":true '), { header: await signedHeader(t, body) }),
        await t.deliver(body, { header: null }),
        await t.deliver(body, { header: 't=1,v1=deadbeef' }),
        await t.deliver(body, { timestamp: Math.floor(Date.now() / 1000) - 600 }), // Stripe's tolerance: 5 minutes
      ];
      for (const r of refusals) expect(r).toMatchObject({ status: 400, body: { code: 'WEBHOOK_SIGNATURE_INVALID' } });
      expect(t.state.reads.get(ids.session)).toBeUndefined(); // refused before anything was read
      expect(await status(t, token)).toMatchObject({ subscriptionTier: 'free', hasActiveSubscription: false });
      // the same body, signed properly, is accepted (the refusals above were the signature's, not the body's)
      expect((await t.deliver(body)).status).toBe(200);
      expect((await status(t, token)).subscriptionTier).toBe('business');
    });

    it('five concurrent deliveries of one extension event extend the room once', async () => {
      const t = target();
      const { token, accountId } = await signUp(t);
      const room = await dashboardRoom(t, token);
      const before = Date.parse((await roomOf(t, token, room.workspaceId)).expiresAt!);
      const session = rid('cs');
      t.state.setSession({
        id: session,
        mode: 'payment',
        complete: true,
        paid: true,
        accountId,
        kind: 'room_extension',
        plan: null,
        roomId: room.workspaceId,
        extensionDays: 7,
        subscriptionId: null,
        customerId: null,
        amountTotalCents: 299,
      });
      const body = checkoutCompleted(t, session);
      const answers = await Promise.all(Array.from({ length: 5 }, () => t.deliver(body)));
      for (const a of answers) expect(a.status).toBe(200);
      expect(answers.filter((a) => a.body.duplicate === false)).toHaveLength(1);
      expect(answers.filter((a) => a.body.duplicate === true)).toHaveLength(4);
      const after = Date.parse((await roomOf(t, token, room.workspaceId)).expiresAt!);
      expect(after - before).toBe(7 * DAY);
      // the success page completing the same order afterwards changes nothing either
      const completed = await http(t.url, PAYMENTS_API.completeRoomExtension(session), {
        body: { extensionType: '30' },
        headers: bearer(token),
      });
      expect(completed.body).toMatchObject({
        success: true,
        extensionDays: 7,
        workspaceId: room.workspaceId,
        newExpiryDate: new Date(after).toISOString(),
      });
      expect(Date.parse((await roomOf(t, token, room.workspaceId)).expiresAt!)).toBe(after);
    });

    it("out of order: the provider's current state decides, not the order events arrive in", async () => {
      const t = target();
      const { token, accountId } = await signUp(t);
      const sub = rid('sub');
      const customer = rid('cus');
      const periodEnd = new Date(Date.now() + 30 * DAY);
      const subState = (s: 'active' | 'past_due') =>
        t.state.setSubscription({
          id: sub,
          status: s,
          customerId: customer,
          accountId,
          plan: 'pro',
          currentPeriodEnd: periodEnd,
          cancelAtPeriodEnd: false,
        });
      const invoice = (type: string, created: number) =>
        t.event(
          type,
          {
            id: rid('in'),
            object: 'invoice',
            customer,
            parent: { type: 'subscription_details', subscription_details: { subscription: sub } },
          },
          { created },
        );
      const t0 = Math.floor(Date.now() / 1000) - 100;
      subState('active');
      // invoice.paid arrives before checkout.session.completed: the subscription's own record names the account
      expect((await t.deliver(invoice('invoice.paid', t0 + 20))).body.outcome).toBe('account.subscription-activated');
      // an older payment failure arrives late: Stripe says active now, so active it stays
      expect((await t.deliver(invoice('invoice.payment_failed', t0 + 10))).status).toBe(200);
      expect(await status(t, token)).toMatchObject({ subscriptionTier: 'pro', paymentStatus: 'active' });
      // the checkout's completion, last: nothing to change
      const session = rid('cs');
      t.state.setSession({
        id: session,
        mode: 'subscription',
        complete: true,
        paid: true,
        accountId,
        kind: 'subscription',
        plan: 'pro',
        roomId: null,
        extensionDays: null,
        subscriptionId: sub,
        customerId: customer,
        amountTotalCents: 900,
      });
      expect((await t.deliver(checkoutCompleted(t, session, { created: t0 }))).body.outcome).toMatch(/^unchanged/);
      // now a renewal fails; then an old invoice.paid arrives: past due stays
      subState('past_due');
      expect((await t.deliver(invoice('invoice.payment_failed', t0 + 40))).body.outcome).toBe(
        'account.subscription-past-due',
      );
      expect((await t.deliver(invoice('invoice.paid', t0 + 30))).status).toBe(200);
      expect(await status(t, token)).toMatchObject({
        subscriptionTier: 'pro',
        paymentStatus: 'past_due',
        hasActiveSubscription: true,
      });
    });

    it('invoice.payment_failed: past due in the subscription answer; the tier stays; deleted with no paid time left: free again, rooms too', async () => {
      const t = target();
      const { token, accountId } = await signUp(t);
      const room = await dashboardRoom(t, token);
      const ids = subscriptionPaid(t, accountId, 'business');
      await t.deliver(checkoutCompleted(t, ids.session));
      expect((await roomOf(t, token, room.workspaceId)).tier).toBe('business');
      t.state.setSubscription({
        id: ids.sub,
        status: 'past_due',
        customerId: ids.customer,
        accountId,
        plan: 'business',
        currentPeriodEnd: new Date(Date.now() + DAY),
        cancelAtPeriodEnd: false,
      });
      const failed = await t.deliver(
        t.event('invoice.payment_failed', {
          id: rid('in'),
          object: 'invoice',
          customer: ids.customer,
          subscription: ids.sub,
        }),
      );
      expect(failed.status).toBe(200);
      const pastDue = await status(t, token);
      expect(pastDue).toMatchObject({
        subscriptionTier: 'business',
        paymentStatus: 'past_due',
        renewal: { renewalUrgency: 'urgent', needsRenewal: true },
      });
      expect((await roomOf(t, token, room.workspaceId)).tier).toBe('business');
      t.state.setSubscription({
        id: ids.sub,
        status: 'canceled',
        customerId: ids.customer,
        accountId,
        plan: 'business',
        currentPeriodEnd: new Date(Date.now() - 10 * DAY),
        cancelAtPeriodEnd: false,
      });
      await t.deliver(
        t.event('customer.subscription.deleted', { id: ids.sub, object: 'subscription', customer: ids.customer }),
      );
      expect(await status(t, token)).toMatchObject({
        subscriptionTier: 'free',
        paymentStatus: 'cancelled',
        hasActiveSubscription: false,
      });
      expect((await http(t.url, API.info(room.workspaceId))).body.settings.tier).toBe('free');
    });
  });

  describe('room extensions', () => {
    it("an extension checkout for the account's free room; the verified payment extends it; verify reads it back from the provider", async () => {
      const t = target();
      const { token, accountId } = await signUp(t);
      const room = await dashboardRoom(t, token);
      const made = await http<CheckoutAnswer>(t.url, PAYMENTS_API.createRoomExtensionPayment, {
        body: { workspaceId: room.workspaceId, extensionType: '30', userEmail: 'victim@example.test' },
        headers: bearer(token),
      });
      expect(made.status).toBe(200);
      expect(made.body.url).toMatch(/^https:\/\/checkout\.stripe\.com\//);
      const bad = await http(t.url, PAYMENTS_API.createRoomExtensionPayment, {
        body: { workspaceId: room.workspaceId, extensionType: '5' },
        headers: bearer(token),
      });
      expect(bad.status).toBe(400);
      // not paid yet (stripe-mock's own record of any session: open, unpaid): nothing is extended
      const unpaid = await http(t.url, PAYMENTS_API.completeRoomExtension(made.body.sessionId), {
        body: {},
        headers: bearer(token),
      });
      expect(unpaid).toMatchObject({ status: 402, body: { code: 'PAYMENT_NOT_VERIFIED' } });
      const before = Date.parse((await roomOf(t, token, room.workspaceId)).expiresAt!);
      const session = rid('cs');
      t.state.setSession({
        id: session,
        mode: 'payment',
        complete: true,
        paid: true,
        accountId,
        kind: 'room_extension',
        plan: null,
        roomId: room.workspaceId,
        extensionDays: 30,
        subscriptionId: null,
        customerId: null,
        amountTotalCents: 899,
      });
      expect((await t.deliver(checkoutCompleted(t, session))).body.outcome).toBe(`extended ${room.workspaceId}`);
      const after = Date.parse((await roomOf(t, token, room.workspaceId)).expiresAt!);
      expect(after - before).toBe(30 * DAY);
      const verified = await http(t.url, PAYMENTS_API.verifySession(session), { headers: bearer(token) });
      expect(verified.body).toMatchObject({
        success: true,
        type: 'room_extension',
        extensionDays: 30,
        amount: 8.99,
        roomName: room.workspace.name,
        newExpiryDate: new Date(after).toISOString(),
      });
      expect((await http(t.url, API.info(room.workspaceId))).body.settings.tier).toBe('free'); // extended, still free
    });
  });

  describe('who may call what', () => {
    it('every payment route refuses anonymous and revoked callers; subscription/update refuses everyone', async () => {
      const t = target();
      const revoked = await signUp(t, 'revoked');
      await http(t.url, AUTH_API.logout, { body: {}, headers: bearer(revoked.token) });
      const routes = [
        'createCheckoutSession',
        'createRoomExtensionPayment',
        'completeRoomExtension',
        'subscriptionStatus',
        'createPortalSession',
        'verifyPayment',
      ] as const;
      for (const id of routes) expect(HTTP_AUTHZ[id].allow).not.toContain('anonymous');
      const calls: [string, string][] = [
        ['POST', PAYMENTS_API.createCheckoutSession],
        ['POST', PAYMENTS_API.createRoomExtensionPayment],
        ['POST', PAYMENTS_API.completeRoomExtension('cs_x')],
        ['GET', PAYMENTS_API.subscriptionStatus()],
        ['GET', PAYMENTS_API.subscriptionStatus('a@example.test')],
        ['POST', PAYMENTS_API.createPortalSession],
        ['GET', PAYMENTS_API.verifySession('cs_x')],
      ];
      const guest = await createRoom(t.url); // a room member's token is no account session
      for (const [method, path] of calls) {
        const body = method === 'GET' ? undefined : { plan: 'pro', workspaceId: 'x' };
        expect((await http(t.url, path, { method, body })).body.code, `${path} anonymous`).toBe('NO_AUTH_TOKEN');
        expect(
          (await http(t.url, path, { method, body, headers: bearer(revoked.token) })).body.code,
          `${path} revoked`,
        ).toBe('SESSION_INVALID');
        expect(
          (await http(t.url, path, { method, body, headers: bearer(guest.userToken) })).status,
          `${path} room member`,
        ).toBe(401);
      }
      expect(HTTP_AUTHZ.subscriptionUpdate.allow).toEqual([]);
      const signedIn = await signUp(t);
      for (const headers of [{}, bearer(signedIn.token), bearer(revoked.token)]) {
        const res = await http(t.url, PAYMENTS_API.subscriptionUpdate, {
          body: { email: signedIn.email, subscriptionTier: 'business', paymentStatus: 'active' },
          headers,
        });
        expect(res).toMatchObject({ status: 403, body: { code: 'SUBSCRIPTION_UPDATE_REFUSED' } });
      }
      expect((await status(t, signedIn.token)).subscriptionTier).toBe('free');
    });

    it("an account cannot pay to extend a room it does not own, nor verify or complete another account's payment", async () => {
      const t = target();
      const owner = await signUp(t, 'owner');
      const other = await signUp(t, 'other');
      const room = await dashboardRoom(t, owner.token);
      const foreign = await http(t.url, PAYMENTS_API.createRoomExtensionPayment, {
        body: { workspaceId: room.workspaceId },
        headers: bearer(other.token),
      });
      expect(foreign).toMatchObject({ status: 403, body: { code: 'NOT_ROOM_OWNER' } });
      const ids = subscriptionPaid(t, owner.accountId, 'pro');
      const stolen = await http(t.url, PAYMENTS_API.verifySession(ids.session), { headers: bearer(other.token) });
      expect(stolen).toMatchObject({ status: 402, body: { code: 'PAYMENT_NOT_VERIFIED' } });
      expect((await status(t, other.token)).subscriptionTier).toBe('free');
      expect((await status(t, owner.token)).subscriptionTier).toBe('free'); // nothing was applied for anyone
      // the owner's own success page verifies it (from the provider's record), before any webhook
      const mine = await http(t.url, PAYMENTS_API.verifySession(ids.session), { headers: bearer(owner.token) });
      expect(mine.body).toMatchObject({
        success: true,
        type: 'subscription',
        plan: 'pro',
        amount: 9,
        subscriptionId: ids.sub,
      });
      expect((await status(t, owner.token)).subscriptionTier).toBe('pro');
    });
  });
}

async function signedHeader(_t: PaymentTarget, body: string): Promise<string> {
  const { default: Stripe } = await import('stripe');
  return new Stripe('sk_test_signer').webhooks.generateTestHeaderString({ payload: body, secret: WEBHOOK_SECRET });
}
