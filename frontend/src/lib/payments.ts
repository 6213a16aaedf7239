/**
 * The payment calls of the browser (docs/product/payments.md; docs/protocol.md
 * "Payments (billing)"): Stripe Checkout for the plans and room extensions, the billing portal, the subscription status and the
 * success page's verification. Every call is the signed-in account's (bearer token, lib/account.ts); the server reads
 * what was paid back from Stripe, so nothing here believes a query string's plan or amount.
 * Also the pending choices kept while a guest signs in first: pendingUpgrade {plan, returnUrl} (here) and
 * pendingExtension (lib/roomPrefs.ts).
 */
import { AUTH_API, PAID_PLANS, PAYMENTS_API, PLAN_PRICES, type PaidPlan } from '@ephemera/proto/client';
import type {
  AccountUser,
  CheckoutAnswer,
  CompleteExtensionAnswer,
  PaidAccountAnswer,
  PaymentVerificationAnswer,
  PortalAnswer,
  RenewAnswer,
  SubscriptionStatusAnswer,
  UpgradeRoomsAnswer,
} from '@ephemera/proto';
import { accountCall, clearAccount, readAccount, type AccountRecord, type AccountResult } from './account.ts';
import { PENDING_EXTENSION_KEY, readPendingExtension, type PendingExtension } from './roomPrefs.ts';
import { roomPath } from './routes.ts';
import type { KeyValueStore } from './storage.ts';
import { sameOriginPath } from './redirects.ts';
import { UI_TEXT } from './texts.ts';
import { t as translate } from '../i18n/i18n.ts';

/**
 * The payment flows' texts (docs/product/payments.md), in English: the pages show them in the active language through
 * i18n/errorText.ts (the room's dialogs show some of them too).
 */
export const PAYMENT_TEXT = {
  selectPlan: 'Please select a plan first',
  startFailed: 'Failed to start payment process. Please try again.',
  sessionMissing: 'Payment session creation failed',
  extendFailed: 'Failed to extend room. Please try again.',
  extensionFallback: 'Failed to create room extension payment',
  completeFailed: 'Failed to complete room extension',
  subscriptionFailed: 'Failed to fetch subscription data',
  portalFallback: 'Failed to create billing portal session',
  verificationFailed: "We couldn't verify your payment. Please contact support if you believe this is an error.",
  noToken: 'No authentication token',
  renewalFailed: 'Renewal failed',
} as const;

export const paymentErrorText = (message: string) => `Payment Error: ${message}`;

/** A plan value accepted only if pro or business, in any case (docs/product/accounts.md A5). */
export function parsePlan(value: unknown): PaidPlan | null {
  if (typeof value !== 'string') return null;
  const v = value.trim().toLowerCase();
  return (PAID_PLANS as readonly string[]).includes(v) ? (v as PaidPlan) : null;
}

export const formatDollars = (dollars: number) => `$${dollars.toFixed(2)}`;

/** The success page's plan lookup: pro $9.00, business $19.00; a missing or unknown plan is pro at $9.00. */
export function planDetails(plan: unknown): { plan: PaidPlan; name: string; amount: string } {
  const p = parsePlan(plan) ?? 'pro';
  return { plan: p, name: PLAN_PRICES[p].name, amount: formatDollars(PLAN_PRICES[p].amountCents / 100) };
}

// ---- pendingUpgrade {plan, returnUrl}: a guest's plan choice, kept while they sign in ----
export const PENDING_UPGRADE_KEY = 'pendingUpgrade';
export interface PendingUpgrade {
  plan: PaidPlan;
  returnUrl: string;
}

function defaultStore(): KeyValueStore | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

export function savePendingUpgrade(p: PendingUpgrade, store = defaultStore()): void {
  try {
    store?.setItem(PENDING_UPGRADE_KEY, JSON.stringify(p));
  } catch {
    /* storage disabled */
  }
}
export function readPendingUpgrade(store = defaultStore()): PendingUpgrade | null {
  try {
    const raw = store?.getItem(PENDING_UPGRADE_KEY);
    const v = raw ? (JSON.parse(raw) as Partial<PendingUpgrade>) : null;
    const plan = parsePlan(v?.plan);
    return plan ? { plan, returnUrl: typeof v?.returnUrl === 'string' ? v.returnUrl : '/upgrade' } : null;
  } catch {
    return null;
  }
}
export function clearPendingPayments(store = defaultStore()): void {
  try {
    store?.removeItem(PENDING_UPGRADE_KEY);
    store?.removeItem(PENDING_EXTENSION_KEY);
  } catch {
    /* ignore */
  }
}

export type PendingPayment =
  { kind: 'upgrade'; upgrade: PendingUpgrade } | { kind: 'extension'; extension: PendingExtension };
/** What a guest chose before signing in (docs/product/accounts.md A9): an extension first, else an upgrade. */
export function pendingPaymentOf(store = defaultStore()): PendingPayment | null {
  const extension = readPendingExtension(store);
  if (extension) return { kind: 'extension', extension };
  const upgrade = readPendingUpgrade(store);
  return upgrade ? { kind: 'upgrade', upgrade } : null;
}

/** The sign-in page for a plan chosen without an account (docs/product/payments.md PAY2). */
export const loginForPlan = (plan: PaidPlan) => `/login?redirect=/upgrade&plan=${plan}`;

// ---- return addresses (paths of this site; the server appends &session_id={CHECKOUT_SESSION_ID}) ----
export function subscriptionReturnUrls(plan: PaidPlan): { successUrl: string; cancelUrl: string } {
  return { successUrl: `/payment/success?plan=${plan}`, cancelUrl: '/payment/cancelled' };
}
export function extensionReturnUrls(x: { workspaceId: string; roomName: string; days: number; returnUrl?: string }): {
  successUrl: string;
  cancelUrl: string;
} {
  const back = safePath(x.returnUrl) ?? roomPath(x.roomName);
  const q = new URLSearchParams({
    type: 'room_extension',
    workspaceId: x.workspaceId,
    extensionType: String(x.days),
    returnUrl: back,
  });
  return { successUrl: `/payment/success?${q}`, cancelUrl: back };
}
/** A return address: a path of this site (redirects.ts), or null. */
export const safePath = (value: string | null | undefined): string | null => sameOriginPath(value);

// ---- the calls (docs/protocol.md "Payments (billing)") ----
const noToken = <T>(): AccountResult<T> => ({
  ok: false,
  status: 401,
  code: 'NO_AUTH_TOKEN',
  message: PAYMENT_TEXT.noToken,
});
const withToken = <T>(token: string | null | undefined, call: (t: string) => Promise<AccountResult<T>>) =>
  token ? call(token) : Promise.resolve(noToken<T>());

export const paymentsApi = {
  /** renew-subscription: Stripe's billing portal for a subscription Stripe still holds, else a Checkout of the plan */
  renew: (token: string | null, plan: PaidPlan, returnUrl = '/dashboard') =>
    withToken(token, (t) =>
      accountCall<RenewAnswer>(AUTH_API.renewSubscription, PAYMENT_TEXT.renewalFailed, {
        token: t,
        body: { tier: plan, returnUrl, ...subscriptionReturnUrls(plan) },
      }),
    ),
  createCheckout: (token: string | null, account: AccountRecord['user'] | null, plan: PaidPlan) =>
    withToken(token, (t) =>
      accountCall<CheckoutAnswer>(PAYMENTS_API.createCheckoutSession, UI_TEXT.paymentSessionFailed, {
        token: t,
        body: {
          plan,
          ...(account ? { email: account.email, username: account.username, isExistingUser: true } : {}),
          ...subscriptionReturnUrls(plan),
        },
      }),
    ),
  createExtension: (
    token: string | null,
    x: { workspaceId: string; roomName: string; days: number; email?: string; returnUrl?: string },
  ) =>
    withToken(token, (t) =>
      accountCall<CheckoutAnswer>(PAYMENTS_API.createRoomExtensionPayment, PAYMENT_TEXT.extensionFallback, {
        token: t,
        body: {
          workspaceId: x.workspaceId,
          userEmail: x.email,
          extensionType: String(x.days),
          ...extensionReturnUrls(x),
        },
      }),
    ),
  verify: (token: string | null, sessionId: string) =>
    withToken(token, (t) =>
      accountCall<PaymentVerificationAnswer>(PAYMENTS_API.verifySession(sessionId), PAYMENT_TEXT.verificationFailed, {
        token: t,
      }),
    ),
  completeExtension: (
    token: string | null,
    orderId: string,
    body: { workspaceId: string | null; userEmail: string; extensionType: string },
  ) =>
    withToken(token, (t) =>
      accountCall<CompleteExtensionAnswer>(PAYMENTS_API.completeRoomExtension(orderId), PAYMENT_TEXT.completeFailed, {
        token: t,
        body,
      }),
    ),
  /** create-paid-account: the verified checkout applied to the signed-in account; answers its profile */
  paidAccount: (token: string | null, paymentId: string) =>
    withToken(token, (t) =>
      accountCall<PaidAccountAnswer>(AUTH_API.createPaidAccount, UI_TEXT.paidAccountFailed, {
        token: t,
        body: { paymentId },
      }),
    ),
  /** upgrade-rooms: the account's live rooms take its tier */
  upgradeRooms: (token: string | null) =>
    withToken(token, (t) =>
      accountCall<UpgradeRoomsAnswer>(AUTH_API.upgradeRooms, UI_TEXT.upgradeRoomsFailed, { token: t, body: {} }),
    ),
  subscriptionStatus: (token: string | null, email: string | null) =>
    withToken(token, (t) =>
      accountCall<SubscriptionStatusAnswer>(
        PAYMENTS_API.subscriptionStatus(email ?? undefined),
        PAYMENT_TEXT.subscriptionFailed,
        { token: t },
      ),
    ),
  portal: (token: string | null, email: string, returnUrl = '/subscription') =>
    withToken(token, (t) =>
      accountCall<PortalAnswer>(PAYMENTS_API.createPortalSession, PAYMENT_TEXT.portalFallback, {
        token: t,
        body: { email, returnUrl },
      }),
    ),
};

export interface Navigator {
  assign(url: string): void;
}
const browser: Navigator = { assign: (url) => window.location.assign(url) };

export type StartResult =
  { kind: 'redirect'; url: string } | { kind: 'login'; url: string } | { kind: 'error'; message: string };

/**
 * A plan was chosen (pricing page, subscription page, dashboard renewal): signed in, a Checkout session and off to
 * Stripe; not signed in (or the session is no longer valid), the choice is kept and the user signs in first.
 */
export async function startCheckout(
  plan: unknown,
  deps: { account?: AccountRecord | null; nav?: Navigator; store?: KeyValueStore | null } = {},
): Promise<StartResult> {
  const chosen = parsePlan(plan);
  if (!chosen) return { kind: 'error', message: PAYMENT_TEXT.selectPlan };
  const account = deps.account === undefined ? readAccount() : deps.account;
  const nav = deps.nav ?? browser;
  const toLogin = (): StartResult => {
    savePendingUpgrade({ plan: chosen, returnUrl: '/upgrade' }, deps.store === undefined ? defaultStore() : deps.store);
    const url = loginForPlan(chosen);
    nav.assign(url);
    return { kind: 'login', url };
  };
  if (!account) return toLogin();
  const r = await paymentsApi.createCheckout(account.token, account.user, chosen);
  if (!r.ok) {
    if (r.status === 401) {
      clearAccount();
      return toLogin();
    } // signed out elsewhere, or the session expired
    return { kind: 'error', message: r.status === 0 ? PAYMENT_TEXT.startFailed : r.message };
  }
  if (!r.data.url) return { kind: 'error', message: PAYMENT_TEXT.sessionMissing };
  nav.assign(r.data.url);
  return { kind: 'redirect', url: r.data.url };
}

/** A signed-in owner pays to extend a free room (create-room-extension-payment), then off to Stripe. */
export async function startExtensionPayment(
  x: { workspaceId: string; roomName: string; days: number; returnUrl?: string },
  deps: { account?: AccountRecord | null; nav?: Navigator } = {},
): Promise<StartResult> {
  const account = deps.account === undefined ? readAccount() : deps.account;
  if (!account) return { kind: 'error', message: PAYMENT_TEXT.noToken };
  const r = await paymentsApi.createExtension(account.token, { ...x, email: account.user.email });
  if (!r.ok) return { kind: 'error', message: r.status === 0 ? PAYMENT_TEXT.extendFailed : r.message };
  if (!r.data.url) return { kind: 'error', message: PAYMENT_TEXT.extensionFallback };
  (deps.nav ?? browser).assign(r.data.url);
  return { kind: 'redirect', url: r.data.url };
}

/** After sign-in (docs/product/accounts.md A9): the pending extension or upgrade goes to payment; both are forgotten either way. */
export async function payPending(
  pending: PendingPayment,
  account: AccountRecord,
  deps: { nav?: Navigator; store?: KeyValueStore | null } = {},
): Promise<StartResult> {
  clearPendingPayments(deps.store === undefined ? defaultStore() : deps.store);
  if (pending.kind === 'extension') {
    const e = pending.extension;
    return startExtensionPayment(
      { workspaceId: e.workspaceId, roomName: e.roomName, days: e.days, returnUrl: e.returnUrl },
      { account, nav: deps.nav },
    );
  }
  return startCheckout(pending.upgrade.plan, { account, nav: deps.nav, store: null });
}

export type PaymentOutcome =
  | { kind: 'failed'; message: string }
  | {
      kind: 'subscription';
      plan: PaidPlan;
      name: string;
      amount: string;
      email: string;
      subscriptionId: string | null;
      /** the account's profile with the paid tier (for the stored account record), when it could be applied */
      user: AccountUser | null;
      /** applying the payment to the account or its rooms failed: what the page says (the payment itself is done) */
      settleError: string | null;
    }
  | {
      kind: 'extension';
      days: number;
      amount: string;
      newExpiryDate: string | null;
      roomName: string | null;
      backTo: string;
    };

/**
 * The success page (docs/product/payments.md PAY9): the session id Stripe put in the address is verified through the
 * server (the
 * provider's own record); a room extension is then completed (once per order, whoever gets there first).
 */
export async function confirmPayment(search: URLSearchParams, token: string | null): Promise<PaymentOutcome> {
  const failed: PaymentOutcome = { kind: 'failed', message: PAYMENT_TEXT.verificationFailed };
  const sessionId = search.get('session_id') ?? search.get('order_id') ?? search.get('token');
  if (!sessionId || !/^[A-Za-z0-9_]{3,255}$/.test(sessionId) || !token) return failed;
  const v = await paymentsApi.verify(token, sessionId);
  // 402: the provider's record of this session says it was not paid
  if (!v.ok && v.status === 402) return { kind: 'failed', message: UI_TEXT.paymentFailed };
  if (!v.ok || v.data.success !== true) return failed;
  if (v.data.type === 'room_extension') {
    const done = await paymentsApi.completeExtension(token, sessionId, {
      workspaceId: v.data.workspaceId,
      userEmail: v.data.email,
      extensionType: String(v.data.extensionDays ?? 7),
    });
    if (!done.ok) return { kind: 'failed', message: PAYMENT_TEXT.completeFailed };
    const roomName = done.data.roomName ?? v.data.roomName;
    return {
      kind: 'extension',
      days: done.data.extensionDays ?? v.data.extensionDays ?? 7,
      amount: formatDollars(v.data.amount),
      newExpiryDate: done.data.newExpiryDate ?? v.data.newExpiryDate,
      roomName,
      backTo: safePath(search.get('returnUrl')) ?? (roomName ? roomPath(roomName) : '/dashboard'),
    };
  }
  const plan = planDetails(v.data.plan);
  const settled = await settleSubscription(token, sessionId);
  return { kind: 'subscription', ...plan, email: v.data.email, subscriptionId: v.data.subscriptionId, ...settled };
}

/**
 * A verified subscription is applied to the account (create-paid-account, answering its profile with the paid tier)
 * and then to the account's live rooms (upgrade-rooms); both repeat what the verification did, so arriving twice
 * changes nothing. The first failure is what the success page reports.
 */
async function settleSubscription(
  token: string,
  sessionId: string,
): Promise<{ user: AccountUser | null; settleError: string | null }> {
  const paid = await paymentsApi.paidAccount(token, sessionId);
  if (!paid.ok) return { user: null, settleError: paid.message };
  const rooms = await paymentsApi.upgradeRooms(token);
  return { user: paid.data.user, settleError: rooms.ok ? null : rooms.message };
}

/**
 * The payment status as the subscription page's suffix (docs/product/payments.md PAY5): anything else is Trial. In the
 * active language: the account catalog must be loaded (the account pages load it).
 */
export function statusLabel(status: string | null | undefined): string {
  switch (status) {
    case 'active':
      return translate('account.status.active');
    case 'past_due':
      return translate('account.status.pastDue');
    case 'cancelled':
      return translate('account.status.cancelled');
    default:
      return translate('account.status.trial');
  }
}

/** On failure the subscription page shows the error and treats the user as free and active. */
export const FREE_STATUS: SubscriptionStatusAnswer = {
  success: true,
  subscriptionTier: 'free',
  paymentStatus: 'active',
  hasActiveSubscription: false,
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
  subscriptionExpiresAt: null,
  amountCents: 0,
  renewal: {
    needsRenewal: false,
    renewalUrgency: 'none',
    isInGracePeriod: false,
    status: 'active',
    daysUntilExpiry: null,
    graceDaysLeft: null,
    message: null,
    buttonLabel: 'Renew Subscription',
  },
};
