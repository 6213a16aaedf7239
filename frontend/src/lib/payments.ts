/**
 * The payment flows of the browser (docs/product/payments.md): a chosen plan or room extension off to Stripe Checkout,
 * what a guest chose before signing in paid after it (pendingPayments.ts), and the success page's verification. The
 * calls are the signed-in account's (paymentsApi.ts); the server reads what was paid back from Stripe, so nothing here
 * believes a query string's plan or amount.
 */
import type { PaidPlan } from '@ephemera/proto/client';
import type { AccountUser } from '@ephemera/proto';
import { clearAccount, readAccount, type AccountRecord } from './account.ts';
import { roomPath } from './routes.ts';
import type { KeyValueStore } from './storage.ts';
import { UI_TEXT } from './texts.ts';
import { PAYMENT_TEXT } from './paymentTexts.ts';
import { formatDollars, parsePlan, planDetails } from './paymentPlans.ts';
import { clearPendingPayments, defaultStore, savePendingUpgrade, type PendingPayment } from './pendingPayments.ts';
import { paymentsApi, safePath } from './paymentsApi.ts';

/** The sign-in page for a plan chosen without an account (docs/product/payments.md PAY2). */
export const loginForPlan = (plan: PaidPlan) => `/login?redirect=/upgrade&plan=${plan}`;

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
