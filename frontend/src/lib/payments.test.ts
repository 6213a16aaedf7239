import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { activateLocale } from '../i18n/i18n.ts';
import { PAYMENT_TEXT, paymentErrorText } from './paymentTexts.ts';
import { parsePlan, planDetails, statusLabel } from './paymentPlans.ts';
import {
  PENDING_UPGRADE_KEY,
  clearPendingPayments,
  pendingPaymentOf,
  readPendingUpgrade,
  savePendingUpgrade,
} from './pendingPayments.ts';
import { extensionReturnUrls, subscriptionReturnUrls } from './paymentsApi.ts';
import { confirmPayment, payPending, startCheckout, startExtensionPayment } from './payments.ts';
import { monthlyPrice, usagePlaceholder } from './planCopy.ts';
import { PENDING_EXTENSION_KEY, savePendingExtension } from './roomPrefs.ts';
import type { KeyValueStore } from './storage.ts';
import type { AccountRecord } from './account.ts';

class MemoryStore implements KeyValueStore {
  map = new Map<string, string>();
  getItem(k: string) {
    return this.map.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.map.set(k, v);
  }
  removeItem(k: string) {
    this.map.delete(k);
  }
}

interface Call {
  path: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}
/** fetch replaced by answers per path prefix (status + JSON body, or 'network' to throw) */
function stubFetch(answers: Record<string, [number, unknown] | 'network'>): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (path: string, init: RequestInit = {}) => {
    calls.push({
      path,
      method: init.method ?? 'GET',
      headers: init.headers as Record<string, string>,
      body: init.body ? JSON.parse(String(init.body)) : undefined,
    });
    const key = Object.keys(answers).find((k) => path.startsWith(k));
    const answer: [number, unknown] | 'network' = key ? answers[key]! : [404, { message: 'no such route in the test' }];
    if (answer === 'network') throw new TypeError('fetch failed');
    return new Response(JSON.stringify(answer[1]), {
      status: answer[0],
      headers: { 'content-type': 'application/json' },
    });
  });
  return calls;
}

const account: AccountRecord = {
  token: 'ses_token',
  user: {
    id: 'acc1',
    email: 'ann@example.test',
    username: 'ann',
    subscriptionTier: 'free',
    paymentStatus: 'active',
    subscriptionExpiresAt: null,
    autoRenewal: false,
    googleId: null,
    picture: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    isSuperadmin: false,
  },
};
const nav = () => {
  const urls: string[] = [];
  return {
    urls,
    assign: (u: string) => {
      urls.push(u);
    },
  };
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('plans and texts', () => {
  beforeAll(() => activateLocale('en', ['common', 'account']));
  it('accepts only pro or business, in any case', () => {
    expect(parsePlan('Pro')).toBe('pro');
    expect(parsePlan(' BUSINESS ')).toBe('business');
    for (const v of ['free', 'gold', '', 7, null, undefined, { plan: 'pro' }]) expect(parsePlan(v)).toBeNull();
  });
  it("the success page's plan lookup: pro $9.00, business $19.00; missing or unknown is pro at $9.00", () => {
    expect(planDetails('business')).toEqual({ plan: 'business', name: 'Business', amount: '$19.00' });
    expect(planDetails('pro')).toEqual({ plan: 'pro', name: 'Pro', amount: '$9.00' });
    for (const v of [undefined, null, '', 'enterprise', 42])
      expect(planDetails(v)).toEqual({ plan: 'pro', name: 'Pro', amount: '$9.00' });
  });
  it('status suffixes, monthly prices and the usage placeholder', () => {
    expect(['active', 'past_due', 'cancelled', 'trial', 'weird', null].map(statusLabel)).toEqual([
      'Active',
      'Payment Past Due',
      'Cancelled',
      'Trial',
      'Trial',
      'Trial',
    ]);
    expect([0, 900, 1900, 299].map(monthlyPrice)).toEqual(['$0/month', '$9/month', '$19/month', '$2.99/month']);
    expect(usagePlaceholder('pro')).toEqual([
      { label: 'Rooms', value: '3' },
      { label: 'Storage', value: '45 MB', detail: 'Pro limit: 100 MB per file' },
      { label: 'Video minutes', value: '127' },
    ]);
    expect(usagePlaceholder('free')[1]!.detail).toBe('Free limit: 10 MB per file');
    expect(paymentErrorText('Card declined')).toBe('Payment Error: Card declined');
  });
});

describe('pending choices and return addresses', () => {
  let store: MemoryStore;
  beforeEach(() => {
    store = new MemoryStore();
  });

  it('keeps pendingUpgrade {plan, returnUrl}; a malformed or unknown plan reads as none', () => {
    savePendingUpgrade({ plan: 'business', returnUrl: '/upgrade' }, store);
    expect(JSON.parse(store.getItem(PENDING_UPGRADE_KEY)!)).toEqual({ plan: 'business', returnUrl: '/upgrade' });
    expect(readPendingUpgrade(store)).toEqual({ plan: 'business', returnUrl: '/upgrade' });
    store.setItem(PENDING_UPGRADE_KEY, JSON.stringify({ plan: 'gold' }));
    expect(readPendingUpgrade(store)).toBeNull();
    store.setItem(PENDING_UPGRADE_KEY, '{not json');
    expect(readPendingUpgrade(store)).toBeNull();
  });
  it('a pending extension goes before a pending upgrade; clearing forgets both', () => {
    savePendingUpgrade({ plan: 'pro', returnUrl: '/upgrade' }, store);
    expect(pendingPaymentOf(store)).toEqual({ kind: 'upgrade', upgrade: { plan: 'pro', returnUrl: '/upgrade' } });
    savePendingExtension({ workspaceId: 'w1', roomName: 'team', days: 30, returnUrl: '/team' }, store);
    expect(pendingPaymentOf(store)).toMatchObject({ kind: 'extension', extension: { workspaceId: 'w1', days: 30 } });
    clearPendingPayments(store);
    expect(store.map.size).toBe(0);
    expect(pendingPaymentOf(store)).toBeNull();
  });
  it('return addresses are paths of this site; a foreign returnUrl falls back to the room', () => {
    expect(subscriptionReturnUrls('pro')).toEqual({
      successUrl: '/payment/success?plan=pro',
      cancelUrl: '/payment/cancelled',
    });
    const x = extensionReturnUrls({ workspaceId: 'w 1', roomName: 'Team Room', days: 30, returnUrl: '/Team%20Room' });
    const success = new URL(x.successUrl, 'http://site.test');
    expect(success.pathname).toBe('/payment/success');
    expect(Object.fromEntries(success.searchParams)).toEqual({
      type: 'room_extension',
      workspaceId: 'w 1',
      extensionType: '30',
      returnUrl: '/Team%20Room',
    });
    expect(x.cancelUrl).toBe('/Team%20Room');
    for (const bad of ['//evil.example/x', '/\\evil', 'https://evil.example', 'javascript:alert(1)']) {
      expect(extensionReturnUrls({ workspaceId: 'w1', roomName: 'team', days: 7, returnUrl: bad }).cancelUrl).toBe(
        '/team',
      );
    }
  });
});

describe('startCheckout', () => {
  it('without a plan: "Please select a plan first" and no call', async () => {
    const calls = stubFetch({});
    const n = nav();
    expect(await startCheckout(undefined, { account, nav: n })).toEqual({
      kind: 'error',
      message: 'Please select a plan first',
    });
    expect(await startCheckout('free', { account, nav: n })).toEqual({
      kind: 'error',
      message: PAYMENT_TEXT.selectPlan,
    });
    expect(calls).toHaveLength(0);
    expect(n.urls).toEqual([]);
  });
  it('signed out: the choice is kept and the user goes to /login?redirect=/upgrade&plan=...', async () => {
    const calls = stubFetch({});
    const store = new MemoryStore();
    const n = nav();
    expect(await startCheckout('Business', { account: null, nav: n, store })).toEqual({
      kind: 'login',
      url: '/login?redirect=/upgrade&plan=business',
    });
    expect(n.urls).toEqual(['/login?redirect=/upgrade&plan=business']);
    expect(readPendingUpgrade(store)).toEqual({ plan: 'business', returnUrl: '/upgrade' });
    expect(calls).toHaveLength(0);
  });
  it("signed in: a checkout session for the plan with this site's return paths, then the browser goes to its url", async () => {
    const calls = stubFetch({
      '/api/payments/create-checkout-session': [
        200,
        { success: true, url: 'https://checkout.stripe.com/c/pay/cs_1', sessionId: 'cs_1' },
      ],
    });
    const n = nav();
    expect(await startCheckout('pro', { account, nav: n })).toEqual({
      kind: 'redirect',
      url: 'https://checkout.stripe.com/c/pay/cs_1',
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      path: '/api/payments/create-checkout-session',
      method: 'POST',
      headers: { Authorization: 'Bearer ses_token' },
    });
    expect(calls[0]!.body).toEqual({
      plan: 'pro',
      email: 'ann@example.test',
      username: 'ann',
      isExistingUser: true,
      successUrl: '/payment/success?plan=pro',
      cancelUrl: '/payment/cancelled',
    });
    expect(n.urls).toEqual(['https://checkout.stripe.com/c/pay/cs_1']);
  });
  it("failures: the server's message, else the fallbacks; nothing is opened", async () => {
    const n = nav();
    stubFetch({
      '/api/payments/': [
        503,
        { code: 'PAYMENTS_NOT_CONFIGURED', message: 'Payments are not configured on this server' },
      ],
    });
    expect(await startCheckout('pro', { account, nav: n })).toEqual({
      kind: 'error',
      message: 'Payments are not configured on this server',
    });
    stubFetch({ '/api/payments/': [502, {}] }); // e.g. a proxy's error page: no text of the server's
    expect(await startCheckout('pro', { account, nav: n })).toEqual({
      kind: 'error',
      message: 'Failed to create payment session',
    });
    stubFetch({ '/api/payments/': 'network' });
    expect(await startCheckout('pro', { account, nav: n })).toEqual({
      kind: 'error',
      message: 'Failed to start payment process. Please try again.',
    });
    stubFetch({ '/api/payments/': [200, { success: true }] });
    expect(await startCheckout('pro', { account, nav: n })).toEqual({
      kind: 'error',
      message: 'Payment session creation failed',
    });
    expect(n.urls).toEqual([]);
  });
  it('a session the server no longer accepts (401): signed out, the plan kept, to the login page', async () => {
    stubFetch({ '/api/payments/': [401, { code: 'SESSION_INVALID', message: 'Please sign in again' }] });
    const store = new MemoryStore();
    const n = nav();
    expect(await startCheckout('pro', { account, nav: n, store })).toEqual({
      kind: 'login',
      url: '/login?redirect=/upgrade&plan=pro',
    });
    expect(readPendingUpgrade(store)?.plan).toBe('pro');
  });
});

describe('room extension payment', () => {
  it("creates the extension checkout (days as text) and goes there; a refusal gives the server's reason", async () => {
    const calls = stubFetch({
      '/api/payments/create-room-extension-payment': [
        200,
        { success: true, url: 'https://checkout.stripe.com/x', sessionId: 'cs_x' },
      ],
    });
    const n = nav();
    expect(await startExtensionPayment({ workspaceId: 'w1', roomName: 'team', days: 30 }, { account, nav: n })).toEqual(
      { kind: 'redirect', url: 'https://checkout.stripe.com/x' },
    );
    expect(calls[0]!.body).toMatchObject({
      workspaceId: 'w1',
      extensionType: '30',
      userEmail: 'ann@example.test',
      cancelUrl: '/team',
    });
    expect(String((calls[0]!.body as { successUrl: string }).successUrl)).toMatch(
      /^\/payment\/success\?type=room_extension&workspaceId=w1&extensionType=30&returnUrl=%2Fteam$/,
    );
    stubFetch({ '/api/payments/': [403, { code: 'NOT_ROOM_OWNER', message: 'Only the room owner can do that' }] });
    expect(await startExtensionPayment({ workspaceId: 'w1', roomName: 'team', days: 7 }, { account, nav: n })).toEqual({
      kind: 'error',
      message: 'Only the room owner can do that',
    });
    stubFetch({ '/api/payments/': [502, {}] });
    expect(await startExtensionPayment({ workspaceId: 'w1', roomName: 'team', days: 7 }, { account, nav: n })).toEqual({
      kind: 'error',
      message: 'Failed to create room extension payment',
    });
    expect(
      await startExtensionPayment({ workspaceId: 'w1', roomName: 'team', days: 7 }, { account: null, nav: n }),
    ).toEqual({ kind: 'error', message: 'No authentication token' });
    expect(n.urls).toEqual(['https://checkout.stripe.com/x']);
  });
  it('after sign-in a pending extension is paid for and both pending choices are forgotten', async () => {
    const calls = stubFetch({
      '/api/payments/create-room-extension-payment': [
        200,
        { success: true, url: 'https://checkout.stripe.com/y', sessionId: 'cs_y' },
      ],
    });
    const store = new MemoryStore();
    savePendingExtension({ workspaceId: 'w9', roomName: 'party', days: 7, returnUrl: '/party' }, store);
    savePendingUpgrade({ plan: 'pro', returnUrl: '/upgrade' }, store);
    const n = nav();
    expect(await payPending(pendingPaymentOf(store)!, account, { nav: n, store })).toEqual({
      kind: 'redirect',
      url: 'https://checkout.stripe.com/y',
    });
    expect(calls.map((c) => c.path)).toEqual(['/api/payments/create-room-extension-payment']);
    expect(store.getItem(PENDING_EXTENSION_KEY)).toBeNull();
    expect(store.getItem(PENDING_UPGRADE_KEY)).toBeNull();
  });
});

describe('confirmPayment (the success page)', () => {
  const paidUser = { id: 'u1', email: 'ann@example.test', username: 'ann', subscriptionTier: 'business' };
  const verified = (over: Record<string, unknown>) => ({
    success: true,
    type: 'subscription',
    plan: 'pro',
    amount: 9,
    email: 'ann@example.test',
    username: 'ann',
    subscriptionId: 'sub_1234567890abcdefghijklmnop',
    extensionDays: null,
    newExpiryDate: null,
    roomName: null,
    workspaceId: null,
    ...over,
  });

  it('no session id or no sign-in: verification failed, nothing is asked', async () => {
    const calls = stubFetch({});
    expect(await confirmPayment(new URLSearchParams('plan=business&amount=19'), 'ses_token')).toEqual({
      kind: 'failed',
      message: PAYMENT_TEXT.verificationFailed,
    });
    expect(await confirmPayment(new URLSearchParams('session_id=cs_1'), null)).toEqual({
      kind: 'failed',
      message: PAYMENT_TEXT.verificationFailed,
    });
    expect(await confirmPayment(new URLSearchParams('session_id=../../x'), 'ses_token')).toMatchObject({
      kind: 'failed',
    });
    expect(calls).toHaveLength(0);
  });
  it("the plan is the server's (verify-session), never the query string's", async () => {
    const calls = stubFetch({
      '/api/payments/verify-session/': [200, verified({ plan: 'business', amount: 19 })],
      '/api/auth/create-paid-account': [200, { success: true, user: paidUser, payment: verified({}) }],
      '/api/auth/upgrade-rooms': [200, { success: true, tier: 'business', changed: [] }],
    });
    const o = await confirmPayment(new URLSearchParams('plan=pro&amount=0.01&session_id=cs_test_1'), 'ses_token');
    expect(o).toEqual({
      kind: 'subscription',
      plan: 'business',
      name: 'Business',
      amount: '$19.00',
      email: 'ann@example.test',
      subscriptionId: 'sub_1234567890abcdefghijklmnop',
      user: paidUser,
      settleError: null,
    });
    expect(calls).toEqual([
      expect.objectContaining({
        path: '/api/payments/verify-session/cs_test_1',
        method: 'GET',
        headers: expect.objectContaining({ Authorization: 'Bearer ses_token' }),
      }),
      expect.objectContaining({ path: '/api/auth/create-paid-account', body: { paymentId: 'cs_test_1' } }),
      expect.objectContaining({ path: '/api/auth/upgrade-rooms', method: 'POST' }),
    ]);
  });
  it('paid but not applied: "Failed to create paid account" (rooms not asked), or "Failed to upgrade rooms"', async () => {
    const calls = stubFetch({
      '/api/payments/verify-session/': [200, verified({})],
      '/api/auth/create-paid-account': [502, {}],
    });
    expect(await confirmPayment(new URLSearchParams('session_id=cs_5'), 'ses_token')).toMatchObject({
      kind: 'subscription',
      user: null,
      settleError: 'Failed to create paid account',
    });
    expect(calls.map((c) => c.path)).not.toContain('/api/auth/upgrade-rooms');
    stubFetch({
      '/api/payments/verify-session/': [200, verified({})],
      '/api/auth/create-paid-account': [200, { success: true, user: paidUser, payment: verified({}) }],
      '/api/auth/upgrade-rooms': [500, {}],
    });
    expect(await confirmPayment(new URLSearchParams('session_id=cs_6'), 'ses_token')).toMatchObject({
      kind: 'subscription',
      user: paidUser,
      settleError: 'Failed to upgrade rooms',
    });
  });
  it('a verified subscription without a known plan reads as pro at $9.00', async () => {
    stubFetch({ '/api/payments/verify-session/': [200, verified({ plan: null })] });
    expect(await confirmPayment(new URLSearchParams('session_id=cs_2'), 'ses_token')).toMatchObject({
      kind: 'subscription',
      name: 'Pro',
      amount: '$9.00',
    });
  });
  it('an unpaid or foreign session (402): "Payment failed. Please try again."', async () => {
    stubFetch({
      '/api/payments/verify-session/': [402, { code: 'PAYMENT_NOT_VERIFIED', message: 'whatever the server says' }],
    });
    expect(await confirmPayment(new URLSearchParams('session_id=cs_3'), 'ses_token')).toEqual({
      kind: 'failed',
      message: 'Payment failed. Please try again.',
    });
  });
  it('a room extension is completed through the server; its answer gives the new expiry; back to the stored path', async () => {
    const calls = stubFetch({
      '/api/payments/verify-session/': [
        200,
        verified({
          type: 'room_extension',
          plan: null,
          amount: 8.99,
          subscriptionId: null,
          extensionDays: 30,
          newExpiryDate: '2026-02-01T00:00:00.000Z',
          roomName: 'team',
          workspaceId: 'w1',
        }),
      ],
      '/api/payments/complete-room-extension/': [
        200,
        {
          success: true,
          newExpiryDate: '2026-02-01T00:00:00.000Z',
          roomName: 'team',
          workspaceId: 'w1',
          extensionDays: 30,
        },
      ],
    });
    const o = await confirmPayment(
      new URLSearchParams(
        'type=room_extension&workspaceId=w1&extensionType=30&returnUrl=%2Fteam%3Fx%3D1&session_id=cs_ext',
      ),
      'ses_token',
    );
    expect(o).toEqual({
      kind: 'extension',
      days: 30,
      amount: '$8.99',
      newExpiryDate: '2026-02-01T00:00:00.000Z',
      roomName: 'team',
      backTo: '/team?x=1',
    });
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'GET /api/payments/verify-session/cs_ext',
      'POST /api/payments/complete-room-extension/cs_ext',
    ]);
    expect(calls[1]!.body).toEqual({ workspaceId: 'w1', userEmail: 'ann@example.test', extensionType: '30' });
    // a foreign return path is not followed: the room's own path
    const foreign = await confirmPayment(
      new URLSearchParams('returnUrl=%2F%2Fevil.example&session_id=cs_ext'),
      'ses_token',
    );
    expect(foreign).toMatchObject({ kind: 'extension', backTo: '/team' });
  });
  it('an extension the server will not complete: "Failed to complete room extension"', async () => {
    stubFetch({
      '/api/payments/verify-session/': [
        200,
        verified({
          type: 'room_extension',
          plan: null,
          amount: 2.99,
          extensionDays: 7,
          roomName: 'team',
          workspaceId: 'w1',
        }),
      ],
      '/api/payments/complete-room-extension/': [
        409,
        { code: 'EXTENSION_NOT_COMPLETED', message: 'Failed to complete room extension' },
      ],
    });
    expect(await confirmPayment(new URLSearchParams('session_id=cs_4'), 'ses_token')).toEqual({
      kind: 'failed',
      message: 'Failed to complete room extension',
    });
  });
});
